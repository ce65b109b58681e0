import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// One upload as the CLI runs it: the file checked against its checkpoint, the engine
/// (``ResumableUploader``) driven, the checkpoint written as the server names the resume URL and
/// removed when the server has the whole file. `upload FILE URL` and `resume BLOB --file FILE`
/// are both this; they differ in where the URL, the draft version and the checkpoint come from.
package struct UploadJob: Sendable {
    /// The file to send.
    package var file: String
    /// Where the upload is created (and created again when the server forgot it), and the
    /// origin credentials go to.
    package var url: HTTPURL
    /// False for a blob without its original request: ``url`` is then its resume URL, which
    /// cannot create the upload again.
    var createsAgain = true
    var configuration: UploadConfiguration
    /// Where this job records the upload (written, and removed at the end).
    package var checkpoint: UploadCheckpoint
    /// A blob to continue that is an input, not this job's record (`resume BLOB --file`): read,
    /// never written or removed; the upload is recorded in ``checkpoint`` from the start. A blob
    /// without an identity record beside it (a device's) is continued without the file's check,
    /// which Apple's blob has no field for; ``checkpoint``'s own blob never.
    var input: UploadCheckpoint?
    /// The blob continued as the caller read it (from ``input``, or from ``checkpoint`` when the
    /// two are one file), and its reading: used as they are, so that the run continues the blob
    /// the caller checked, not a second read of the file.
    var continued: (blob: UploadResumeData, continuation: UploadContinuation)?

    package init(file: String, url: HTTPURL, configuration: UploadConfiguration, checkpoint: UploadCheckpoint, input: UploadCheckpoint? = nil) {
        self.file = file
        self.url = url
        self.configuration = configuration
        self.checkpoint = checkpoint
        self.input = input.flatMap { $0.blobPath == checkpoint.blobPath ? nil : $0 }
    }

    /// Finishes the upload of `blob`, read from `input` (a device's, or another run's), with
    /// `file`: the blob's own version, method and headers (`continuation`, its reading) under
    /// `given`, the rest of `configuration` as it is; recorded in `checkpoint` from the start.
    package init(file: String, continuing blob: UploadResumeData, as continuation: UploadContinuation, given: [HTTPHeaderField],
                 configuration: UploadConfiguration, checkpoint: UploadCheckpoint, input: UploadCheckpoint) {
        self.init(file: file, url: continuation.origin, configuration: continuation.configuration(configuration, adding: given),
                  checkpoint: checkpoint, input: input)
        self.createsAgain = continuation.createsAgain
        self.continued = (blob, continuation)
    }

    /// What the job reports besides the engine's events.
    package enum Note: Sendable, Equatable {
        /// Continuing an upload an earlier run (or a device) left, at this resume URL.
        case continuing(String)
        /// The blob has no identity record: the file could not be checked.
        case uncheckedFile
    }

    /// Runs the upload to its end.
    /// - Throws: ``UploadError``.
    package func run(
        onNote: @Sendable (Note) -> Void = { _ in }, onEvent: @Sendable (UploadEvent) -> Void = { _ in }
    ) async throws(UploadError) -> ResumableUploader.Outcome {
        let source = try UploadSource(path: self.file)
        var configuration = self.configuration
        var resumeURL: HTTPURL?
        let given = self.input ?? self.checkpoint
        let blob: UploadResumeData?
        if let continued = self.continued { blob = continued.blob } else { blob = try given.blob() }
        if let blob {
            let continuation: UploadContinuation
            if let read = self.continued?.continuation {
                continuation = read
            } else {
                do {
                    continuation = try UploadContinuation(blob)
                } catch {
                    throw .checkpoint("\(given.blobPath): \(error)")
                }
            }
            configuration.draft = ResumableUploadDraft(continuation.draft)
            resumeURL = continuation.resumeURL
        }
        let identity = try source.identity(url: self.url, draftVersion: configuration.draft.version)
        switch try given.identity() {
        case let recorded? where blob != nil:
            if let difference = identity.difference(from: recorded) { throw .fileChanged("\(self.file): \(difference) when the upload started") }
            if recorded.url != self.url.string {
                throw .checkpoint("\(given.blobPath) is an upload to \(recorded.url), not \(self.url.string)")
            }
        case nil:
            guard let blob else { break }
            guard self.input != nil else {
                throw .checkpoint("\(given.identityPath) is missing: the file cannot be proven unchanged")
            }
            // A device's blob has no identity record, but its body may tell: a data body holds
            // the bytes themselves, a stream body its length.
            let verdict = try blob.body.verdict(forFileOf: source.size) { () throws(UploadError) -> Data in
                Data(try source.read(from: 0, count: Int(source.size)).readableBytesView)
            }
            switch verdict {
            case .matches: break
            case .unknowable: onNote(.uncheckedFile)
            case .differs(let why): throw .fileChanged("\(self.file): \(why)")
            }
        default:
            break
        }
        if blob == nil || self.input != nil {
            // This run's file is the one recorded from here on (and a given blob is copied into
            // this job's record, so that a later run continues with the file's check).
            try self.checkpoint.write(identity: identity)
            if let blob { try self.checkpoint.write(blob: blob) }
        }
        if let resumeURL { onNote(.continuing(resumeURL.string)) }
        let uploader = try ResumableUploader(configuration: configuration)
        let checkpoint = self.checkpoint
        let blobRequest = Self.archivedHeaders(configuration)
        let url = self.url
        let file = BytePath(self.file).absolute.text
        let draft = configuration.draft
        let method = configuration.creationMethod
        let outcome = try await uploader.upload(source, to: self.url, resumingAt: resumeURL, createsAgain: self.createsAgain, checkpoint: { target throws(UploadError) in
            let upload: UploadResumeData
            do {
                upload = try UploadResumeData.fileUpload(
                    draftVersion: draft.version, resumeURL: target, requestURL: url, method: method, headers: blobRequest, file: file)
            } catch {
                throw .checkpoint("the upload blob cannot be made: \(error)")
            }
            try checkpoint.write(blob: upload)
        }, onEvent: onEvent)
        try self.checkpoint.remove()
        return outcome
    }

    /// The creation request's fields as the blob archives them: the caller's, without
    /// credentials (the blob is a file on disk; `-H` gives them again) and without any `Upload-*`
    /// field: CFNetwork takes an original request that sets one as the app driving the protocol
    /// itself (`userOverride`) and never resumes it, so the draft's fields are not archived.
    static func archivedHeaders(_ configuration: UploadConfiguration) -> [(name: String, value: String)] {
        configuration.headers
            .filter { !TrustPolicy.credentialHeaders.contains($0.name.lowercased()) && !$0.name.lowercased().hasPrefix("upload-") }
            .map { (name: $0.name, value: $0.value) }
    }
}
