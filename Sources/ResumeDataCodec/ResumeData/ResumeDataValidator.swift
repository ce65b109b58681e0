import Foundation

/// Checks a blob for the known corruptions of spec §5 and for inconsistencies between its parts.
public struct ResumeDataValidator: Sendable {
    /// Keyed archives smaller than this are the unusable blobs of spec §5.3 (about 160 bytes):
    /// the archive's own scaffolding takes about 250 bytes, and one that also holds a URL, a byte
    /// count, a file name and a validator is over 400.
    static let tooSmallThreshold = 300

    /// The blob's size in bytes as read, for the `too-small` check; `nil` skips it.
    public var blobSize: Int?
    /// A folder to look for the partial file in (the app's tmp folder); `nil` skips those checks.
    public var partialFileDirectory: URL?

    /// Creates a validator.
    public init(blobSize: Int? = nil, partialFileDirectory: URL? = nil) {
        self.blobSize = blobSize
        self.partialFileDirectory = partialFileDirectory
    }

    /// Every finding, most severe first, in a stable order within a severity.
    public func findings(for resume: ResumeData) -> [ResumeDataFinding] {
        var findings: [ResumeDataFinding] = []
        // First: when it applies, it explains the findings that follow.
        if let blobSize, resume.container.isKeyedArchive, blobSize < Self.tooSmallThreshold {
            findings.append(.init(.error, .tooSmall,
                "the blob is only \(blobSize) bytes: iOS 12 background sessions wrote such blobs for servers without range support, and they cannot resume"))
        }
        for warning in resume.readWarnings where warning.code == .duplicateKey {
            // No Apple writer produces one: a sign of a hand-edited or damaged blob, which works
            // (the last value wins on a device too) and is mended by writing it again.
            let position = warning.locationDescription.map { "at \($0): " } ?? ""
            findings.append(.init(.warning, .duplicateKey,
                "\(position)\(warning.reason), as Apple's reader does; convert or repair writes each key once",
                key: warning.keyPath))
        }
        checkTypes(resume, into: &findings)
        checkEssentials(resume, into: &findings)
        checkRequests(resume, into: &findings)
        checkPartialFile(resume, into: &findings)
        return findings.enumerated()
            .sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
            .map(\.element)
    }

    private static let expectedTypes: [(key: String, type: String)] = [
        (ResumeDataKey.downloadURL, "string"), (ResumeDataKey.bytesReceived, "integer"),
        (ResumeDataKey.tempFileName, "string"), (ResumeDataKey.localPath, "string"),
        (ResumeDataKey.currentRequest, "data"), (ResumeDataKey.originalRequest, "data"),
        (ResumeDataKey.entityTag, "string"), (ResumeDataKey.serverDownloadDate, "string"),
        (ResumeDataKey.byteRange, "string"), (ResumeDataKey.infoVersion, "integer"),
        (ResumeDataKey.response, "data"),
    ]

    private func checkTypes(_ resume: ResumeData, into findings: inout [ResumeDataFinding]) {
        for (key, type) in Self.expectedTypes {
            guard let value = resume.entries[key], value.typeName != type else { continue }
            findings.append(.init(.error, .wrongType, "expected \(type), found \(value.typeName)", key: key))
        }
    }

    private func checkEssentials(_ resume: ResumeData, into findings: inout [ResumeDataFinding]) {
        if resume.container.isNetworkFramework, resume.entries[ResumeDataKey.currentRequest] == nil {
            // Network.framework requires it: the blob has no download URL of its own.
            findings.append(.init(.error, .missingURL, "no currentRequest: a Network-framework blob takes its URL and headers from nowhere else",
                                  key: ResumeDataKey.currentRequest))
        } else if let url = resume.downloadURL {
            checkScheme(of: url, key: ResumeDataKey.downloadURL, into: &findings)
        } else if resume.entries[ResumeDataKey.downloadURL] == nil, resume.currentRequest == nil, resume.originalRequest == nil {
            findings.append(.init(.error, .missingURL, "no download URL and no request to take one from", key: ResumeDataKey.downloadURL))
        }
        if let received = resume.bytesReceived {
            if received < 0 {
                findings.append(.init(.error, .invalidSize, "bytes received is negative (\(received))", key: ResumeDataKey.bytesReceived))
            }
        } else if resume.entries[ResumeDataKey.bytesReceived] == nil, !resume.container.isNetworkFramework {
            // The Network-framework format has no byte count: the partial file's size is the offset.
            findings.append(.init(.warning, .missingBytesReceived, "no byte count: a device starts the download over", key: ResumeDataKey.bytesReceived))
        }
        if resume.tempFileName == nil, resume.localPath == nil,
           resume.entries[ResumeDataKey.tempFileName] == nil, resume.entries[ResumeDataKey.localPath] == nil {
            findings.append(.init(.error, .missingPartialFile, "neither a temp file name nor a local path: nothing names the partial file", key: ResumeDataKey.tempFileName))
        }
        if let name = resume.tempFileName, !PartialFileResolution.isBareFileName(name) {
            findings.append(.init(.error, .invalidPath, "the temp file name must be a bare file name, not \"\(name)\"", key: ResumeDataKey.tempFileName))
        }
        if let path = resume.localPath, !path.hasPrefix("/") {
            findings.append(.init(.error, .invalidPath, "the local path must be absolute, not \"\(path)\"", key: ResumeDataKey.localPath))
        }
        if resume.effectiveEntityTag == nil, resume.effectiveServerDownloadDate == nil {
            let message = resume.container.isNetworkFramework
                ? "no ETag or Last-Modified header in the response (the only place this format keeps them): a device won't resume, and no one can prove the server's file is unchanged"
                : "neither an entity tag nor a server date: a device won't resume, and no one can prove the server's file is unchanged"
            findings.append(.init(.error, .missingValidator, message,
                key: resume.container.isNetworkFramework ? ResumeDataKey.response : ResumeDataKey.entityTag))
        }
        if resume.entries[ResumeDataKey.response]?.dataValue != nil {
            do {
                _ = try resume.archivedResponse()
            } catch {
                findings.append(.init(.error, .invalidResponse, "\(error)", key: ResumeDataKey.response))
            }
        }
        if resume.byteRange != nil || resume.entries[ResumeDataKey.byteRange] != nil {
            findings.append(.init(.error, .ios11ByteRange,
                "iOS 11.0–11.2 added this key, and resuming with it \"completes\" with a truncated file",
                key: ResumeDataKey.byteRange, remedy: .repair(.ios11)))
        }
    }

    private func checkRequests(_ resume: ResumeData, into findings: inout [ResumeDataFinding]) {
        for kind in ResumeData.RequestKind.allCases {
            let request: URLRequestArchive?
            do {
                request = try resume.request(kind)
            } catch {
                if resume.entries[kind.key]?.dataValue != nil {
                    findings.append(.init(.error, .invalidRequest, "\(error)", key: kind.key))
                }
                continue
            }
            guard let request else { continue }
            if request.layout == .secure, !resume.container.isKeyedArchive, !resume.container.isNetworkFramework, (resume.infoVersion ?? 2) <= 2 {
                findings.append(.init(.error, .ios10RequestArchive,
                    "the request archive is in the secure layout that iOS 10.0/10.1 wrote but cannot read back (error -3003)",
                    key: kind.key, remedy: .repair(.ios10)))
            }
            if request.method != "GET" {
                findings.append(.init(.error, .unsupportedMethod, "the request method is \(request.method); only GET downloads resume", key: kind.key))
            }
            if let url = request.urlString {
                checkScheme(of: url, key: kind.key, into: &findings)
            }
            guard kind == .current else { continue }
            if let url = request.urlString, let downloadURL = resume.downloadURL, url != downloadURL {
                findings.append(.init(.warning, .urlMismatch, "the current request's URL \(url) differs from the download URL \(downloadURL)", key: kind.key))
            }
            if let range = request.headerValue("Range"),
               let received = resume.bytesReceived {
                if let start = Self.rangeStart(range) {
                    if start != received {
                        findings.append(.init(.warning, .rangeMismatch, "the current request asks for bytes from \(start) but \(received) were received", key: kind.key))
                    }
                } else {
                    findings.append(.init(.warning, .rangeMismatch, "the current request's Range header \"\(range)\" is not of the form bytes=N-", key: kind.key))
                }
            }
        }
    }

    /// ``HTTPURL``'s verdict on a URL in the blob, as a finding.
    private func checkScheme(of url: String, key: String, into findings: inout [ResumeDataFinding]) {
        do {
            _ = try HTTPURL(validating: url)
        } catch .unsupportedScheme(let scheme) {
            findings.append(.init(.error, .unsupportedScheme, "the URL scheme is \"\(scheme)\"; only http and https downloads resume", key: key))
        } catch .notAbsolute {
            findings.append(.init(.error, .unsupportedScheme,
                "the URL scheme is none (\"\(VisibleText.escaping(url))\" is not an absolute URL); only http and https downloads resume", key: key))
        } catch {
            findings.append(.init(.error, .invalidURL, HTTPURL.message(for: url, error), key: key))
        }
    }

    /// `bytes=N-` → N.
    static func rangeStart(_ header: String) -> Int64? {
        // HTTP's optional whitespace is spaces and tabs.
        var text = Substring(header)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        guard text.hasPrefixIgnoringASCIICase("bytes="), text.hasSuffix("-") else { return nil }
        return Int64(text.dropFirst(6).dropLast())
    }

    /// The partial file ``PartialFileResolution`` picks in ``partialFileDirectory``, looked at
    /// with `lstat` (a symbolic link is not followed, and is refused like a folder).
    private func checkPartialFile(_ resume: ResumeData, into findings: inout [ResumeDataFinding]) {
        guard let directory = partialFileDirectory else { return }
        let verdict = PartialFileResolution(resume: resume, folder: directory.path).resolve(PartialFileResolution.entry(at:))
        findings += Self.partialFileFindings(verdict, bytesReceived: resume.bytesReceived)
    }

    /// What the partial file a blob resolves to says about it. Kept apart from the file-system
    /// lookup so `scan`, which finds partial files its own way, reports them in the same words.
    package static func partialFileFindings(_ verdict: PartialFileResolution.Verdict, bytesReceived: Int64?) -> [ResumeDataFinding] {
        switch verdict {
        case .file(let path, let size, let key):
            return partialFileFindings(path: path, size: size, bytesReceived: bytesReceived, key: key)
        case .refused(let path, let key, let reason):
            return [.init(.error, .tempFileMissing, "the partial file \(path) cannot be used: \(reason)", key: key)]
        case .missing(let expected?):
            return partialFileFindings(path: expected.path, size: nil, bytesReceived: bytesReceived, key: expected.key)
        case .missing(nil):
            return []
        }
    }

    /// What a partial file's presence and size say about a blob; `size` is `nil` when the file
    /// was not found.
    package static func partialFileFindings(path: String, size: Int64?, bytesReceived received: Int64?, key: String) -> [ResumeDataFinding] {
        guard let size else {
            return [.init(.error, .tempFileMissing, "the partial file \(path) does not exist", key: key)]
        }
        guard let received, size != received else { return [] }
        if size < received {
            return [.init(.error, .tempFileSize, "the partial file \(path) has \(size) bytes, fewer than the \(received) received", key: key)]
        }
        return [.init(.warning, .tempFileSize, "the partial file \(path) has \(size) bytes, more than the \(received) received; resume keeps them when its last 64 KiB match the server's (it compares them before appending), else starts over", key: key)]
    }
}
