import ArgumentParser
import Foundation
import ResumeTransfer

/// The engine's options, shared by `download`, `resume` and `recover`: how hard to retry, how
/// long to wait, how fast to go, whom to trust, which proxy, and how to report.
struct TransferOptions: ParsableArguments {
    @OptionGroup var engine: EngineOptions

    @Option(help: "Seconds a connection may take (default 10).")
    var connectTimeout: Double?

    @Option(help: ArgumentHelp(
        "Use this proxy for http and https ([http://|socks5://][USER:PASSWORD@]HOST[:PORT], port 1080 by default; '' for none). Default: http_proxy, https_proxy, all_proxy from the environment, as curl.",
        valueName: "URL"))
    var proxy: String?

    @Option(name: .customLong("noproxy"), help: ArgumentHelp(
        "Hosts to reach without the proxy, comma-separated ('*' for all; a name covers its subdomains; 10.0.0.0/8 blocks). Default: no_proxy from the environment.",
        valueName: "LIST"))
    var noProxy: String?

    @Flag(help: "Report every event as one JSON object per line on standard output.")
    var json = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: [.customShort("v"), .long], help: "Print each request and response head on standard error, as curl -v, with credentials masked (not with --json or --quiet).")
    var verbose = false

    @Option(help: .hidden)
    var checkpointBytes: Int64?

    func validate() throws {
        try EngineArguments.checkSeconds("--connect-timeout", self.connectTimeout)
        if let proxy {
            do {
                _ = try ProxySettings(proxy: proxy)
            } catch {
                throw ValidationError("--proxy: \(Self.proxyMessage(error))")
            }
        }
    }

    /// The library's configuration for these options, with the proxy from `environment` unless
    /// `--proxy` is given; prints the `--insecure` warning. A problem (an unreadable CA file, a bad
    /// proxy variable) is printed as a diagnostic and becomes exit status 2 or 1.
    func configuration(parallel: Int, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DownloadConfiguration {
        try EngineArguments.checkCertificateFile(self.engine.cacert)
        var configuration = DownloadConfiguration()
        do {
            configuration.proxy = try Self.proxySettings(proxy: self.proxy, noProxy: self.noProxy, environment: environment)
        } catch {
            Diagnostic(file: "proxy", message: Self.proxyMessage(error)).emit()
            throw ExitCode(1)
        }
        // Warned after the proxy is known good, as before: one problem at a time.
        EngineArguments.warnIfInsecure(self.engine.insecure, transferred: "these downloads")
        configuration.maximumConcurrentDownloads = parallel
        if let retries = self.engine.retries { configuration.maximumRetries = retries }
        if let connectTimeout { configuration.connectTimeout = .seconds(connectTimeout) }
        if let stallTimeout = self.engine.stallTimeout { configuration.stallTimeout = .seconds(stallTimeout) }
        if let checkpointBytes { configuration.checkpointBytes = max(checkpointBytes, 1) }
        configuration.maximumBytesPerSecond = self.engine.bytesPerSecond
        configuration.certificateAuthorityFile = self.engine.cacert
        configuration.acceptsAnyCertificate = self.engine.insecure
        configuration.reportsHeads = self.verbose
        return configuration
    }

    /// curl's precedence: `--proxy` over the environment's proxies, `--noproxy` over `no_proxy`.
    static func proxySettings(proxy: String?, noProxy: String?, environment: [String: String]) throws(DownloadError) -> ProxySettings {
        var settings: ProxySettings
        if let proxy {
            settings = try ProxySettings(proxy: proxy)
            settings.noProxy = ProxySettings.noProxyList(environment: environment)
        } else {
            settings = try ProxySettings(environment: environment)
        }
        if let noProxy { settings.noProxy = ProxySettings.noProxyList(noProxy) }
        return settings
    }

    private static func proxyMessage(_ error: any Error) -> String {
        if case .invalidProxy(let message) = error as? DownloadError { return message }
        return "\(error)"
    }
}
