import NIOSSL

/// The TLS client configuration of every connection the engine opens (a download on either
/// path, an upload, `explain --probe`), made here alone so that they all offer the same thing:
/// the system's trust roots or `--cacert`'s, no verification with `--insecure`, and ALPN
/// `http/1.1`, the one protocol every path speaks.
enum TLSClientSettings {
    static func configuration(certificateAuthorityFile: String?, acceptsAnyCertificate: Bool) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let file = certificateAuthorityFile { tls.trustRoots = .file(file) }
        if acceptsAnyCertificate { tls.certificateVerification = .none }
        tls.applicationProtocols = ["http/1.1"]
        // Closing a TLS connection waits for the server's close_notify, 5 s by default: a
        // server refused mid-answer (an endless head) never sends it, and every byte of a
        // finished answer is already in, so there is nothing to wait for.
        tls.shutdownTimeout = .milliseconds(250)
        return tls
    }
}
