import ArgumentParser

/// The options every transfer takes, `download`, `resume`, `recover` and `upload` alike: how hard
/// to retry, how long a silence may last, how fast to go, whom to trust. One declaration, so the
/// two engines' commands cannot drift apart in names, words or bounds (``EngineArguments``).
struct EngineOptions: ParsableArguments {
    @Option(help: "Failed attempts in a row before the transfer fails (0-100; default 5).")
    var retries: Int?

    @Option(help: "Seconds without a byte before an attempt counts as failed (default 30 for a download, 60 for an upload).")
    var stallTimeout: Double?

    @Option(help: "At most this many bytes per second for each transfer (k, M, G: 1024-based, as curl).")
    var limitRate: String?

    @Option(help: ArgumentHelp("Trust the certificate authorities in this PEM file instead of the system's.", valueName: "FILE"))
    var cacert: String?

    @Flag(help: "Accept any server certificate (anyone on the path can then read and change what is transferred).")
    var insecure = false

    func validate() throws {
        try EngineArguments.checkRetries(self.retries)
        try EngineArguments.checkSeconds("--stall-timeout", self.stallTimeout)
        try EngineArguments.checkRate(self.limitRate)
    }

    /// `--limit-rate` in bytes per second; nil when not given.
    var bytesPerSecond: Int64? { self.limitRate.flatMap(RateArgument.parse) }
}
