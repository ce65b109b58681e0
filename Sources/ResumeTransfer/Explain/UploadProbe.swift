import ResumeDataCodec

/// What a server says about an upload blob's upload, asked the way `resume BLOB --file` asks it
/// (`resumetool explain --probe`): the draft's offset-retrieval `HEAD` of the resume URL
/// (``ResumableUploader/probe(_:configuration:)``), read as the engine reads it.
package struct UploadProbe: Sendable, Equatable {
    /// The resume URL that was asked.
    package var url: HTTPURL
    /// The status code of the answer.
    package var status: Int
    /// What the answer means in the blob's draft version (``ResumableUploadDraft/offsetAnswer(status:fields:)``).
    package var answer: ResumableUploadDraft.OffsetAnswer
    /// The server's `Upload-Limit`, when it sent one that reads.
    var limit: UploadLimit?
    /// The answer's fields that tell about the upload (the draft's, `Upload-Limit`,
    /// `Retry-After`), as sent, in the order sent.
    package var fields: [HTTPHeaderField]

    /// The answer `status` with `fields` to the offset request, read in `draft`.
    init(url: HTTPURL, status: Int, fields: [HTTPHeaderField], draft: ResumableUploadDraft) {
        self.url = url
        self.status = status
        self.answer = draft.offsetAnswer(status: status, fields: fields)
        self.limit = UploadLimit.read(fields)
        let shown: Set<String> = [
            ResumableUploadDraft.versionField, ResumableUploadDraft.offsetField, ResumableUploadDraft.completeField,
            ResumableUploadDraft.incompleteField, ResumableUploadDraft.lengthField, UploadLimit.field, "Retry-After",
        ].reduce(into: []) { $0.insert($1.lowercased()) }
        self.fields = fields.filter { shown.contains($0.name.lowercased()) }
    }

    /// Why the upload of a file of `size` bytes cannot go on from this answer (the engine's rule,
    /// ``ResumableUploadDraft/OffsetAnswer/refusal(fileSize:limit:)``, with the answer's own
    /// `Upload-Limit`); nil when it can.
    package func refusal(fileSize size: Int64) -> UploadError? {
        self.answer.refusal(fileSize: size, limit: self.limit)
    }
}
