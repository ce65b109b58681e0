import ArgumentParser
import Foundation
import ResumeTransfer

/// The engine's options, shared by `download`, `resume` and `recover`: how hard to retry, how
/// long to wait, how fast to go, whom to trust, which proxy, and how to report.
struct TransferOptions: ParsableArguments {
    @OptionGroup var engine: EngineOptions

    @Option(help: "Seconds a connection may take (default 10).")
    var connectTimeout: Double?

    @OptionGroup var proxies: ProxyOptions

    @Flag(help: "Report every event as one JSON object per line on standard output.")
    var json = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: [.customShort("v"), .long], help: "Print each request and response head on standard error, as curl -v, with credentials masked (not with --json or --quiet).")
    var verbose = false

    @Option(help: .hidden)
    var checkpointBytes: Int64?

    @OptionGroup(title: "For curl users") var curl: CurlOptions

    func validate() throws {
        try EngineArguments.checkSeconds("--connect-timeout", self.connectTimeout)
        if let retries = self.engine.retries, let retry = self.curl.retry, retries != retry {
            throw ValidationError("--retries \(retries) and --retry \(retry) say different things: give one")
        }
    }

    /// The library's configuration for these options, with the proxy from `environment` unless
    /// `--proxy` is given; prints the `--insecure` warning. A problem (an unreadable CA file, a bad
    /// proxy variable) is printed as a diagnostic and becomes exit status 2 or 1.
    func configuration(parallel: Int, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DownloadConfiguration {
        try EngineArguments.checkCertificateFile(self.engine.cacert)
        var configuration = DownloadConfiguration()
        configuration.proxy = try self.proxies.settings(environment: environment)
        // Warned after the proxy is known good, as before: one problem at a time.
        EngineArguments.warnIfInsecure(self.engine.insecure, transferred: "these downloads")
        configuration.maximumConcurrentDownloads = parallel
        if let retries = self.engine.retries ?? self.curl.retry { configuration.maximumRetries = retries }
        if let maxRedirects = self.curl.maxRedirects { configuration.maximumRedirects = maxRedirects }
        if let maxTime = self.curl.maxTime { configuration.maximumDuration = .seconds(maxTime) }
        if let connectTimeout { configuration.connectTimeout = .seconds(connectTimeout) }
        if let stallTimeout = self.engine.stallTimeout { configuration.stallTimeout = .seconds(stallTimeout) }
        if let checkpointBytes { configuration.checkpointBytes = max(checkpointBytes, 1) }
        configuration.maximumBytesPerSecond = self.engine.bytesPerSecond
        configuration.certificateAuthorityFile = self.engine.cacert
        configuration.acceptsAnyCertificate = self.engine.insecure
        configuration.reportsHeads = self.verbose
        return configuration
    }
}
