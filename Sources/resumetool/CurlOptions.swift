import ArgumentParser

/// curl's spellings of what the transfer options already do, so that a curl user's command line
/// works: `--retry N` (`--retries`), `-C -` (continuing is the default), `--max-time S` (a bound
/// on the whole transfer), `-L`/`--location` (redirects are always followed, at most
/// `--max-redirs`), `-f`/`--fail` (an HTTP error status always fails without keeping its body).
/// Shown together under their own heading in `--help`.
struct CurlOptions: ParsableArguments {
    @Option(name: .customLong("retry"), help: ArgumentHelp("curl's --retries.", valueName: "N"))
    var retry: Int?

    @Option(name: .customShort("C"), help: ArgumentHelp("Accepted as curl's -C - (continuing is the default); only '-' is taken.", valueName: "-"))
    var continueAt: String?

    @Option(name: .customLong("max-time"), help: ArgumentHelp("Seconds the whole transfer may take; past them it stops as a stall does (its partial file and blob kept).", valueName: "S"))
    var maxTime: Double?

    @Flag(name: [.customShort("L"), .customLong("location")], help: "Accepted: redirects are always followed (at most --max-redirs).")
    var location = false

    @Option(name: .customLong("max-redirs"), help: ArgumentHelp("Redirects followed at most (0-50; default 10).", valueName: "N"))
    var maxRedirects: Int?

    @Flag(name: [.customShort("f"), .customLong("fail")], help: "Accepted: an HTTP error status always fails, and its body is never kept.")
    var fail = false

    func validate() throws {
        if let continueAt, continueAt != "-" {
            throw ValidationError("-C takes only '-' (continuing from the partial file is the default; a byte offset is not taken)")
        }
        try EngineArguments.checkRetries(self.retry, name: "--retry")
        try EngineArguments.checkSeconds("--max-time", self.maxTime)
        if let maxRedirects, !(0...50).contains(maxRedirects) { throw ValidationError("--max-redirs must be 0 to 50") }
    }
}
