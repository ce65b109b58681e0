/// Checks upload resume data against the rules URLSession's reader applies
/// (`-[__NSCFResumableUploadState initWithResumeData:originalRequest:]` and
/// `uploadTask(withResumeData:)`, seen in decompiled 18.x CFNetwork) and against the
/// resumable-upload draft: what a device would refuse is an error, what may go wrong a warning.
public struct UploadResumeDataValidator: Sendable {
    /// Creates a validator.
    public init() {}

    /// Every finding, most severe first, in a stable order within a severity.
    public func findings(for upload: UploadResumeData) -> [ResumeDataFinding] {
        var findings: [ResumeDataFinding] = []
        if upload.mask.allSatisfy({ $0 == 0 }) {
            findings.append(.init(.warning, .uploadUnmasked,
                "the blob is a plain keyed archive (it starts \"bplist00\", or is XML): URLSession XORs its first 8 bytes with a constant before reading, so a device will not read it as it is"))
        }
        checkDraftVersion(upload, into: &findings)
        let request = checkRequest(upload, into: &findings)
        checkResumeURL(upload, request: request, into: &findings)
        checkBody(upload, into: &findings)
        return findings.enumerated()
            .sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
            .map(\.element)
    }

    private func checkDraftVersion(_ upload: UploadResumeData, into findings: inout [ResumeDataFinding]) {
        let key = UploadResumeKey.draftVersion
        guard let value = upload[key] else {
            findings.append(.init(.error, .uploadDraftVersion, "missing: URLSession refuses a blob without the draft's interop version", key: key))
            return
        }
        guard let text = value.stringValue else {
            findings.append(.init(.error, .wrongType, "expected a string, found \(value.kindName)", key: key))
            return
        }
        let shown = VisibleText.escaping(text)
        guard let version = UploadDraftVersion(text) else {
            findings.append(.init(.error, .uploadDraftVersion,
                "\"\(shown)\" is no interop version of the resumable-upload draft (\(UploadDraftVersion.known.lowerBound) to \(UploadDraftVersion.known.upperBound)); URLSession refuses it", key: key))
            return
        }
        switch (version.appleSystems, version.acceptedByCurrentSystems) {
        case (_?, true):
            break
        case (let systems?, false):
            findings.append(.init(.warning, .uploadDraftVersion,
                "interop version \(version), as \(systems) write it: tvOS 18.2.1's reader accepts only 3 and 6, so a later system may refuse this blob (inferred from decompiled code)", key: key))
        case (nil, _):
            findings.append(.init(.warning, .uploadDraftVersion,
                "interop version \(version) is newer than any Apple system is known to write (3, 5, 6): a device would likely refuse it, and Apple's server code speaks only 3, 5 and 6", key: key))
        }
    }

    /// Checks `originalRequest` and gives back the request when it decodes.
    private func checkRequest(_ upload: UploadResumeData, into findings: inout [ResumeDataFinding]) -> URLRequestArchive? {
        let key = UploadResumeKey.originalRequest
        let request: URLRequestArchive?
        do {
            request = try upload.originalRequest()
        } catch {
            findings.append(.init(.error, .invalidRequest, "\(error)", key: key))
            return nil
        }
        guard let request else {
            findings.append(.init(.warning, .uploadRequestMissing,
                "no original request, as in nsurlsessiond's own copy: uploadTask(withResumeData:) refuses such a blob, which cannot start the upload again either", key: key))
            return nil
        }
        if let name = request.headers.first(where: { $0.name.hasPrefixIgnoringASCIICase("upload-") })?.name {
            findings.append(.init(.warning, .uploadUserOverride,
                "the request sets \(VisibleText.escaping(name)): CFNetwork then leaves the upload protocol to the app and never makes such a task resumable", key: key))
        }
        return request
    }

    private func checkResumeURL(_ upload: UploadResumeData, request: URLRequestArchive?, into findings: inout [ResumeDataFinding]) {
        let key = UploadResumeKey.resumeURL
        guard let value = upload[key] else {
            findings.append(.init(.error, .uploadResumeURL, "missing: there is nowhere to continue the upload", key: key))
            return
        }
        guard let url = value.urlValue else {
            findings.append(.init(.error, .wrongType, "expected an NSURL, found \(value.kindName)", key: key))
            return
        }
        let text = url.absoluteString
        let resume: HTTPURL
        do {
            resume = try HTTPURL(validating: text)
        } catch {
            let severity: ResumeDataFinding.Severity = error == .unsupportedScheme("file") || error == .notAbsolute ? .error : .warning
            findings.append(.init(severity, .uploadResumeURL, HTTPURL.message(for: text, error) + (severity == .error ? ": URLSession refuses it" : ""), key: key))
            return
        }
        guard let original = request?.urlString.flatMap(HTTPURL.init) else { return }
        if original.scheme == "https", resume.scheme == "http" {
            findings.append(.init(.error, .uploadResumeURL,
                "the upload began over https and would continue over http (\(VisibleText.escaping(resume.string))): iOS 18.2 and later refuse the downgrade, and so does resumetool", key: key))
        } else if !original.hasSameOrigin(as: resume) {
            findings.append(.init(.note, .uploadResumeURL,
                "on another origin (\(resume.origin)) than the request (\(original.origin)): resumetool sends the request's credentials only to its own origin", key: key))
        }
    }

    /// RFC 9651's largest Integer, the most an `Upload-Length` or `Upload-Offset` field can say.
    static let largestLength: Int64 = 999_999_999_999_999

    private func checkBody(_ upload: UploadResumeData, into findings: inout [ResumeDataFinding]) {
        let key = UploadResumeKey.bodyType
        if let value = upload[key], value.integerValue == nil {
            findings.append(.init(.error, .wrongType, "expected an integer, found \(value.kindName)", key: key))
            return
        }
        switch upload.body {
        case .unknown(nil):
            findings.append(.init(.error, .uploadBody, "missing: URLSession refuses a blob that does not say where the body comes from", key: key))
        case .unknown(let type?):
            findings.append(.init(.error, .uploadBody, "\(type) is no body type (0 data, 1 file, 2 stream): URLSession refuses it", key: key))
        case .data(nil):
            findings.append(.init(.error, .uploadBody, "the body is data (0) but the blob has no \(UploadResumeKey.uploadData): URLSession refuses it", key: UploadResumeKey.uploadData))
        case .file(nil):
            findings.append(.init(.error, .uploadBody, "the body is a file (1) but the blob has no \(UploadResumeKey.uploadFile) URL: URLSession refuses it", key: UploadResumeKey.uploadFile))
        case .file(let url?) where !url.absoluteString.hasPrefixIgnoringASCIICase("file:"):
            findings.append(.init(.error, .uploadBody, "\(VisibleText.escaping(url.absoluteString)) is not a file: URL: a background session refuses it", key: UploadResumeKey.uploadFile))
        case .stream(length: nil):
            findings.append(.init(.note, .uploadBody, "a stream body of unknown length: the app must supply the stream again from the server's offset", key: key))
        case .stream(length: let length?) where length < 0:
            findings.append(.init(.error, .uploadBody, "\(length) is no stream length: it is negative", key: UploadResumeKey.streamLength))
        case .stream(length: let length?) where length > Self.largestLength:
            findings.append(.init(.error, .uploadBody,
                "\(length) bytes cannot be uploaded: Upload-Length and Upload-Offset carry at most \(Self.largestLength) (RFC 9651's largest integer)",
                key: UploadResumeKey.streamLength))
        case .data, .file, .stream:
            break
        }
    }
}

extension DiagnosticCode where Domain == ResumeDataFinding {
    /// An upload blob's `draftVersion` is missing, unknown, or one later systems may refuse.
    public static var uploadDraftVersion: Self { Self("upload-draft-version") }
    /// An upload blob's `resumeURL` is missing, not absolute, a `file:` URL, or a downgrade.
    public static var uploadResumeURL: Self { Self("upload-resume-url") }
    /// An upload blob's `bodyType` is missing or unknown, or the key it requires is absent.
    public static var uploadBody: Self { Self("upload-body") }
    /// An upload blob without `originalRequest` (nsurlsessiond's copy).
    public static var uploadRequestMissing: Self { Self("upload-request-missing") }
    /// The original request sets `Upload-*` headers itself, so CFNetwork leaves the protocol alone.
    public static var uploadUserOverride: Self { Self("upload-user-override") }
    /// An upload blob that is not masked, which URLSession cannot read as it is.
    public static var uploadUnmasked: Self { Self("upload-unmasked") }
}
