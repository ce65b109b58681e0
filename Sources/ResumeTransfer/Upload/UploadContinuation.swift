import ResumeDataCodec

/// How an upload blob's upload goes on, read from the blob once for every caller (`resume BLOB
/// --file`, an earlier run's checkpoint, `explain --probe`): the resume URL that is asked and
/// appended to, the interop version spoken, and the original request, which says where the
/// upload is created again and is the one origin credentials go to.
///
/// nsurlsessiond's copy of a blob archives no original request. Such an upload goes on while the
/// server still has it, with the resume URL's origin as the credentials' origin; when the server
/// has forgotten it, there is nothing to create it again with (``UploadError/cannotCreateAgain(status:)``).
package struct UploadContinuation: Sendable, Equatable {
    /// Where the server keeps the upload: the 104's `Location`, as the blob recorded it.
    var resumeURL: HTTPURL
    /// The interop version the upload was created in, and is continued in.
    var draft: UploadDraftVersion
    /// The blob's original request; nil when the blob has none.
    var creation: Creation?

    /// The URL that created the upload (and would create it again); nil when the blob has no
    /// original request.
    package var creationURL: HTTPURL? { self.creation?.url }

    /// The request that created the upload, as the blob archived it.
    struct Creation: Sendable, Equatable {
        var url: HTTPURL
        var method: String
        /// The archived fields, each through the one header rule (one that breaks it is left out).
        var headers: [HTTPHeaderField]
    }

    /// Why a blob cannot be continued.
    package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// A finding of severity error of ``UploadResumeDataValidator`` (what `validate` says,
        /// and what URLSession refuses): the key and the message.
        case refused(String)
        /// No resume URL, or one that is not http or https.
        case resumeURL
        /// A `draftVersion` this tool does not speak (the text, if any).
        case draftVersion(String?)
        /// The original request is there but cannot be read.
        case originalRequest(String)

        package var description: String {
            switch self {
            case .refused(let finding):
                finding
            case .resumeURL:
                "the blob names no http or https resume URL"
            case .draftVersion(let text):
                "draftVersion \(text.map { "\"\(VisibleText.escaping($0))\"" } ?? "(none)") is not an interop version this tool speaks (3 to 8)"
            case .originalRequest(let why):
                "the original request cannot be read: \(why)"
            }
        }
    }

    /// The origin the caller's credentials belong to (``TrustPolicy``): the original request's,
    /// or the resume URL's for a blob without one.
    package var origin: HTTPURL { creation?.url ?? resumeURL }

    /// Whether the upload can be created again when the server has forgotten it: the blob has
    /// its original request.
    package var createsAgain: Bool { creation != nil }

    /// Reads `upload`: the one judgement of what an upload blob allows, which `validate`,
    /// `explain` (with and without `--probe`) and `resume --file` all follow. A blob with a
    /// finding of severity error (``UploadResumeDataValidator``: the body type, the resume URL,
    /// the draft version, the lengths) is refused, as URLSession refuses it; then the resume URL
    /// must be one the engine's URL rule takes. An original request without an http or https URL
    /// counts as none: the upload cannot be created there again.
    /// - Throws: ``Problem``.
    package init(_ upload: UploadResumeData) throws(Problem) {
        if let error = UploadResumeDataValidator().findings(for: upload).first(where: { $0.severity == .error }) {
            throw .refused((error.key.map { "\($0): " } ?? "") + error.message)
        }
        guard let resumeURL = upload.resumeURL.flatMap({ HTTPURL($0.absoluteString) }) else { throw .resumeURL }
        guard let draft = upload.draftVersion.flatMap({ UploadDraftVersion($0) }) else { throw .draftVersion(upload.draftVersion) }
        let request: URLRequestArchive?
        do {
            request = try upload.originalRequest()
        } catch {
            throw .originalRequest("\(error)")
        }
        self.resumeURL = resumeURL
        self.draft = draft
        self.creation = request.flatMap { request in
            request.urlString.flatMap(HTTPURL.init).map { url in
                Creation(url: url, method: request.method,
                         headers: request.headers.compactMap { try? HTTPHeaderField(name: $0.name, value: $0.value) })
            }
        }
    }

    /// `base` speaking the blob's version with the original request's method, and its archived
    /// fields under `given` (a field given replaces an archived one of the same name).
    func configuration(_ base: UploadConfiguration, adding given: [HTTPHeaderField]) -> UploadConfiguration {
        var configuration = base
        configuration.draft = ResumableUploadDraft(self.draft)
        configuration.creationMethod = self.creation?.method ?? base.creationMethod
        let givenNames = Set(given.map { $0.name.lowercased() })
        let archived = (self.creation?.headers ?? []).filter { !givenNames.contains($0.name.lowercased()) }
        configuration.headers = archived + given
        return configuration
    }
}
