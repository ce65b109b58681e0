import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeTransfer

/// The upload engine's options, shared by `upload` and `resume` of an upload blob: the draft
/// version, how hard to retry, how fast to go, whom to trust, how much to say.
struct UploadOptions: ParsableArguments {
    @OptionGroup var engine: EngineOptions

    @OptionGroup var proxies: ProxyOptions

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: [.customShort("v"), .long], help: "Print each request and response head on standard error, as curl -v, with credentials masked, and each step: the resume URL, the server's offset, each retry.")
    var verbose = false

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Keep the upload's checkpoint in DIR (by default beside the file, or where its folder is not writable in $XDG_STATE_HOME/resumetool/uploads/).", valueName: "DIR"))
    var stateDirectory: String?

    /// The plain values of these options; a bad proxy variable is exit status 1.
    func settings() throws -> UploadSettings {
        UploadSettings(engine: self.engine, proxy: try self.proxies.settings(), quiet: self.quiet, verbose: self.verbose)
    }
}

/// What `upload`'s options (or `resume`'s transfer options, for an upload blob) ask of the upload
/// engine, as plain values.
struct UploadSettings {
    var engine: EngineOptions
    /// The proxies requests go through (``ProxyOptions``).
    var proxy: ProxySettings
    var quiet: Bool
    var verbose: Bool

    /// The engine's configuration; a CA file that cannot be read is exit status 2.
    /// The draft, method and headers are `upload`'s options; `resume` and `explain` take them
    /// from the blob (``UploadContinuation``).
    func configuration(draft: UploadDraftVersion? = nil, method: String = "POST", headers: [HTTPHeaderField] = []) throws -> UploadConfiguration {
        try EngineArguments.checkCertificateFile(self.engine.cacert)
        EngineArguments.warnIfInsecure(self.engine.insecure, transferred: "this upload")
        return UploadConfiguration(
            draft: draft.map(ResumableUploadDraft.init), creationMethod: method, headers: headers, maximumRetries: self.engine.retries ?? 5,
            bytesPerSecond: self.engine.bytesPerSecond, stallTimeout: .seconds(self.engine.stallTimeout ?? 60),
            certificateAuthorityFile: self.engine.cacert, acceptsAnyCertificate: self.engine.insecure, proxy: self.proxy)
    }
}

/// `--draft N`: an interop version of the resumable-upload draft.
extension UploadDraftVersion: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
