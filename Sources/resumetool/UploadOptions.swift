import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeTransfer

/// The upload engine's options, shared by `upload` and `resume` of an upload blob: the draft
/// version, how hard to retry, how fast to go, whom to trust, how much to say.
struct UploadOptions: ParsableArguments {
    @Option(help: "Failed attempts in a row before the upload fails (0-100; default 5).")
    var retries: Int?

    @Option(help: "At most this many bytes per second (k, M, G: 1024-based, as curl).")
    var limitRate: String?

    @Option(help: "Seconds without a byte either way before an attempt counts as failed (default 60).")
    var stallTimeout: Double?

    @Option(help: ArgumentHelp("Trust the certificate authorities in this PEM file instead of the system's.", valueName: "FILE"))
    var cacert: String?

    @Flag(help: "Accept any server certificate (anyone on the path can then read and change the upload).")
    var insecure = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: [.customShort("v"), .long], help: "Print each step on standard error: the resume URL, the server's offset, each retry.")
    var verbose = false

    func validate() throws {
        try EngineArguments.checkRetries(self.retries)
        try EngineArguments.checkSeconds("--stall-timeout", self.stallTimeout)
        try EngineArguments.checkRate(self.limitRate)
    }

    /// The plain values of these options.
    var settings: UploadSettings {
        UploadSettings(
            retries: self.retries, bytesPerSecond: self.limitRate.flatMap(RateArgument.parse), stallTimeout: self.stallTimeout,
            cacert: self.cacert, insecure: self.insecure, quiet: self.quiet, verbose: self.verbose)
    }
}

/// What `upload`'s options (or `resume`'s transfer options, for an upload blob) ask of the upload
/// engine, as plain values.
struct UploadSettings {
    var retries: Int?
    var bytesPerSecond: Int64?
    var stallTimeout: Double?
    var cacert: String?
    var insecure: Bool
    var quiet: Bool
    var verbose: Bool

    /// The engine's configuration; a CA file that cannot be read is exit status 2.
    func configuration(draft: UploadDraftVersion, method: String, headers: [HTTPHeaderField]) throws -> UploadConfiguration {
        try EngineArguments.checkCertificateFile(self.cacert)
        EngineArguments.warnIfInsecure(self.insecure, transferred: "this upload")
        return UploadConfiguration(
            draft: ResumableUploadDraft(draft), creationMethod: method, headers: headers, maximumRetries: self.retries ?? 5,
            bytesPerSecond: self.bytesPerSecond, stallTimeout: .seconds(self.stallTimeout ?? 60),
            certificateAuthorityFile: self.cacert, acceptsAnyCertificate: self.insecure)
    }
}

/// `--draft N`: an interop version of the resumable-upload draft.
extension UploadDraftVersion: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
