/// One thing validation found wrong or worth knowing about a blob.
public struct ResumeDataFinding: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        /// Informative; the blob works.
        case note
        /// Likely trouble on some systems, or a sign of damage.
        case warning
        /// A device would refuse the blob, or resuming would corrupt the file.
        case error

        /// `note` < `warning` < `error`.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// A stable identifier for the kind of finding (e.g. `ios11-byte-range`).
    public typealias Code = DiagnosticCode<ResumeDataFinding>

    /// How bad it is.
    public var severity: Severity
    /// The kind of finding.
    public var code: Code
    /// What was found, for people.
    public var message: String
    /// The resume-dictionary key it concerns, if one.
    public var key: String?
    /// What mends it, where one thing does: a value, which a front end spells in its own words.
    public var remedy: Remedy?

    /// Creates a finding.
    package init(_ severity: Severity, _ code: Code, _ message: String, key: String? = nil, remedy: Remedy? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.key = key
        self.remedy = remedy
    }

    /// `error[ios11-byte-range] NSURLSessionResumeByteRange: …` (the remedy is a front end's to
    /// spell: resumetool's reports add it).
    public var description: String {
        "\(severity.rawValue)[\(code)]" + (key.map { " \($0)" } ?? "") + ": \(message)"
    }
}

extension DiagnosticCode where Domain == ResumeDataFinding {
    /// Request archives in the secure layout that iOS 10.0/10.1 wrote but cannot read (spec §5.1).
    public static var ios10RequestArchive: Self { Self("ios10-request-archive") }
    /// `NSURLSessionResumeByteRange`, which makes iOS 11.0–11.2 truncate the file (spec §5.2).
    public static var ios11ByteRange: Self { Self("ios11-byte-range") }
    /// A tiny keyed archive of the kind iOS 12 produced for servers without ranges (spec §5.3).
    public static var tooSmall: Self { Self("too-small") }
    /// Neither an entity tag nor a server date: a device won't resume (spec §5.5).
    public static var missingValidator: Self { Self("missing-validator") }
    /// The partial file the blob names is not in the folder given.
    public static var tempFileMissing: Self { Self("temp-file-missing") }
    /// The partial file's size differs from the bytes the blob says were received.
    public static var tempFileSize: Self { Self("temp-file-size") }
    /// The partial file's apparent size is far beyond what the file system holds for it: mostly
    /// holes, which read as zeros.
    public static var sparsePartialFile: Self { Self("sparse-partial-file") }
    /// No download URL and no request to take one from.
    public static var missingURL: Self { Self("missing-url") }
    /// No `NSURLSessionResumeBytesReceived`.
    public static var missingBytesReceived: Self { Self("missing-bytes-received") }
    /// Neither a temp file name nor a local path.
    public static var missingPartialFile: Self { Self("missing-partial-file") }
    /// A known key holds a value of the wrong type.
    public static var wrongType: Self { Self("wrong-type") }
    /// A request archive cannot be decoded.
    public static var invalidRequest: Self { Self("invalid-request") }
    /// The archived response (`NSURLSessionResumeResponse`) cannot be decoded.
    public static var invalidResponse: Self { Self("invalid-response") }
    /// BytesReceived disagrees with the `Range` header of the current request.
    public static var rangeMismatch: Self { Self("range-mismatch") }
    /// DownloadURL differs from the current request's URL.
    public static var urlMismatch: Self { Self("url-mismatch") }
    /// A scheme other than http or https.
    public static var unsupportedScheme: Self { Self("unsupported-scheme") }
    /// A URL in the blob breaks ``HTTPURL``'s rule in another way than its scheme (no host, a
    /// space or control character, not a URL at all).
    public static var invalidURL: Self { Self("invalid-url") }
    /// A method other than GET.
    public static var unsupportedMethod: Self { Self("unsupported-method") }
    /// A negative or impossible size.
    public static var invalidSize: Self { Self("invalid-size") }
    /// A temp file name that is a path, or a local path that is not absolute.
    public static var invalidPath: Self { Self("invalid-path") }
    /// A dictionary of the blob held a key twice; the last value was kept, as Apple's reader does.
    public static var duplicateKey: Self { Self("duplicate-key") }
}
