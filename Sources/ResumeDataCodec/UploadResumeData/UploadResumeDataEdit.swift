import Foundation

/// Changes to an upload blob, applied by ``UploadResumeData/edited(_:)``: where the upload
/// continues, and the request that created it.
///
/// ```swift
/// var edit = UploadResumeDataEdit()
/// edit.resumeURL = try HTTPURL(validating: "https://eu.uploads.example.com/resumable_upload/9")
/// edit.settingHeaders = [try HTTPHeaderField(parsing: "Authorization: Bearer new")]
/// let result = try UploadResumeData.read(blob)?.edited(edit)
/// let newBlob = try result?.encoded()      // masked with the blob's own mask
/// ```
///
/// - ``resumeURL`` replaces `resumeURL`; the original request keeps its URL.
/// - Headers are set or removed in `originalRequest` by the rule ``ResumeDataEdit`` applies to a
///   download blob's requests, and ``requestURL`` moves that request as ``ResumeDataEdit/url``
///   moves them: to another origin (scheme, host, port), the request loses `Authorization`,
///   `Cookie` and `Proxy-Authorization` unless ``settingHeaders`` gives them again.
/// - ``uploadFile`` replaces `uploadFile` of a file body (`bodyType` 1).
/// - Every other entry stays, in its place, and so does the mask, so a device that accepted the
///   blob accepts the edited one.
public struct UploadResumeDataEdit: Sendable, Hashable {
    /// Where the upload continues (`resumeURL`); `nil` keeps the blob's.
    public var resumeURL: HTTPURL?
    /// The original request's new URL; `nil` keeps it.
    public var requestURL: HTTPURL?
    /// Headers to set in the original request, replacing one of the same name (in its place) or
    /// added at the end.
    public var settingHeaders: [HTTPHeaderField]
    /// Names of headers to remove from the original request.
    public var removingHeaders: [String]
    /// The absolute path of the file to upload, for a file body; `nil` keeps the blob's.
    public var uploadFile: String?

    /// Creates an edit; an empty one changes nothing.
    public init(resumeURL: HTTPURL? = nil, requestURL: HTTPURL? = nil, settingHeaders: [HTTPHeaderField] = [],
                removingHeaders: [String] = [], uploadFile: String? = nil) {
        self.resumeURL = resumeURL
        self.requestURL = requestURL
        self.settingHeaders = settingHeaders
        self.removingHeaders = removingHeaders
        self.uploadFile = uploadFile
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool {
        resumeURL == nil && !changesRequest && uploadFile == nil
    }

    /// Whether the edit changes the original request, which the blob must then have.
    var changesRequest: Bool {
        requestURL != nil || !settingHeaders.isEmpty || !removingHeaders.isEmpty
    }

    /// The same change to the original request as a download edit makes to its requests, so
    /// both kinds of blob follow one rule.
    var requestEdit: ResumeDataEdit {
        ResumeDataEdit(url: requestURL, settingHeaders: settingHeaders, removingHeaders: removingHeaders)
    }

    /// An edited upload blob and what the edit removed beyond what was asked.
    public struct Result: Sendable, Hashable {
        /// The edited blob, with the original's mask.
        public var upload: UploadResumeData
        /// Credential headers removed from the original request because
        /// ``UploadResumeDataEdit/requestURL`` moved it
        /// to another origin, each name once as the blob spelled it, in the order found.
        public var droppedHeaders: [String]
        /// Whether CFNetwork's hidden copy of the request's headers (`__hhaa__`) went with them.
        public var droppedHiddenHeaderCopy: Bool
        /// Whether the original request changed.
        public var changedRequest: Bool

        /// The edited blob's bytes, masked as the original was.
        /// - Throws: ``KeyedArchiveError`` when a value cannot be archived.
        public func encoded() throws -> Data { try upload.encoded() }
    }
}

extension UploadResumeData {
    /// A copy with a new resume URL, original request or upload file (see
    /// ``UploadResumeDataEdit``).
    /// - Throws: ``ResumeDataError``: `invalid-argument` for a header name that is not an HTTP
    ///   token, one both set and removed, or an upload file that is not an absolute path;
    ///   `not-editable` for a request change to a blob without `originalRequest` or an upload
    ///   file for a body that is not a file; `invalid-request` for an `originalRequest` that
    ///   cannot be decoded (it could not be edited without losing it); `unencodable` when the
    ///   edited request cannot be archived again.
    public func edited(_ edit: UploadResumeDataEdit) throws -> UploadResumeDataEdit.Result {
        let requestEdit = edit.requestEdit
        try requestEdit.checkHeaders()
        if let path = edit.uploadFile, !path.hasPrefix("/") {
            throw ResumeDataError(.invalidArgument, "the file to upload must be an absolute path: \(VisibleText.escaping(path))")
        }
        var result = UploadResumeDataEdit.Result(upload: self, droppedHeaders: [], droppedHiddenHeaderCopy: false, changedRequest: false)
        if edit.changesRequest {
            let before: URLRequestArchive?
            do {
                before = try originalRequest()
            } catch {
                throw ResumeDataError(.invalidRequest, "\(UploadResumeKey.originalRequest): \(error)")
            }
            guard let before else {
                throw ResumeDataError(.notEditable,
                    "the blob has no \(UploadResumeKey.originalRequest) (nsurlsessiond's own copy keeps none): there is no request whose URL or headers could change")
            }
            let after = requestEdit.applied(to: before, droppingInto: &result.droppedHeaders, droppedHiddenHeaderCopy: &result.droppedHiddenHeaderCopy)
            // A request the edit leaves as it was keeps its archived object as read.
            if after != before {
                let object: ArchivedObject
                do {
                    object = try after.archivedObject()
                } catch {
                    throw ResumeDataError(.unencodable, "\(UploadResumeKey.originalRequest): \(error)")
                }
                result.upload = result.upload.replacing(UploadResumeKey.originalRequest, with: .object(object))
                result.changedRequest = true
            }
        }
        if let url = edit.resumeURL {
            result.upload = result.upload.replacingResumeURL(url)
        }
        if let path = edit.uploadFile {
            guard case .file = body else {
                let type = bodyType.map { "bodyType \($0)" } ?? "no bodyType"
                throw ResumeDataError(.notEditable,
                    "the body is \(body.name) (\(type)), not a file (bodyType 1): there is no \(UploadResumeKey.uploadFile) to change")
            }
            result.upload = result.upload.replacing(UploadResumeKey.uploadFile, with: Self.uploadFileValue(path))
        }
        return result
    }
}
