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
    /// Where the upload is created (and created again when the server forgot it).
    package var url: HTTPURL
    package var configuration: UploadConfiguration
    package var checkpoint: UploadCheckpoint
    /// A blob from a device (no identity record beside it) may be continued without the
    /// file's check, which Apple's blob has no field for; ours never.
    package var allowsUncheckedFile: Bool

    package init(file: String, url: HTTPURL, configuration: UploadConfiguration, checkpoint: UploadCheckpoint, allowsUncheckedFile: Bool = false) {
        self.file = file
        self.url = url
        self.configuration = configuration
        self.checkpoint = checkpoint
        self.allowsUncheckedFile = allowsUncheckedFile
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
        let blob = try self.checkpoint.blob()
        if let blob {
            guard let text = blob.draftVersion, let version = UploadDraftVersion(text) else {
                throw .checkpoint("\(self.checkpoint.blobPath): draftVersion \(blob.draftVersion.map { "\"\($0)\"" } ?? "(none)") is not an interop version this tool speaks")
            }
            configuration.draft = ResumableUploadDraft(version)
            guard let recorded = blob.resumeURL?.absoluteString, let checked = HTTPURL(recorded) else {
                throw .checkpoint("\(self.checkpoint.blobPath): no usable resumeURL")
            }
            resumeURL = checked
        }
        let identity = try source.identity(url: self.url, draftVersion: configuration.draft.version)
        switch try self.checkpoint.identity() {
        case let recorded? where blob != nil:
            if let difference = identity.difference(from: recorded) { throw .fileChanged("\(self.file): \(difference) when the upload started") }
            if recorded.url != self.url.string {
                throw .checkpoint("\(self.checkpoint.blobPath) is an upload to \(recorded.url), not \(self.url.string)")
            }
        case nil where blob != nil:
            guard self.allowsUncheckedFile else {
                throw .checkpoint("\(self.checkpoint.identityPath) is missing: the file cannot be proven unchanged")
            }
            onNote(.uncheckedFile)
        default:
            // No upload to continue: this run's file is the one recorded from here on.
            try self.checkpoint.write(identity: identity)
        }
        if let resumeURL { onNote(.continuing(resumeURL.string)) }
        let uploader = try ResumableUploader(configuration: configuration)
        let checkpoint = self.checkpoint
        let blobRequest = Self.archivedHeaders(configuration)
        let url = self.url
        let file = FilePathText.absolute(self.file)
        let draft = configuration.draft
        let method = configuration.creationMethod
        let outcome = try await uploader.upload(source, to: self.url, resumingAt: resumeURL, checkpoint: { target throws(UploadError) in
            let upload: UploadResumeData
            do {
                upload = try UploadResumeData.fileUpload(
                    draftVersion: draft.version, resumeURL: target, requestURL: url, method: method, headers: blobRequest, file: file)
            } catch {
                throw .checkpoint("the upload blob cannot be made: \(error)")
            }
            if blob == nil || identityAbsent(checkpoint) {
                try checkpoint.write(identity: identity)
            }
            try checkpoint.write(blob: upload)
        }, onEvent: onEvent)
        try self.checkpoint.remove()
        return outcome
    }

    /// The creation request's fields as the blob archives them: the caller's without credentials
    /// (the blob is a file on disk; `-H` gives them again), then the draft's.
    static func archivedHeaders(_ configuration: UploadConfiguration) -> [(name: String, value: String)] {
        let kept = configuration.headers.filter { !TrustPolicy.credentialHeaders.contains($0.name.lowercased()) }
        return (kept + configuration.draft.creationFields(length: nil)).map { (name: $0.name, value: $0.value) }
    }
}

/// Whether `checkpoint` has no identity record (a device's blob continued, then restarted: the
/// new blob is ours, and gets one).
private func identityAbsent(_ checkpoint: UploadCheckpoint) -> Bool {
    (try? checkpoint.identity()) == nil
}
