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
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The identifier.
        public let name: String
        package init(_ name: String) { self.name = name }
        /// The identifier.
        public var description: String { name }

        /// Request archives in the secure layout that iOS 10.0/10.1 wrote but cannot read (spec §5.1).
        public static let ios10RequestArchive = Code("ios10-request-archive")
        /// `NSURLSessionResumeByteRange`, which makes iOS 11.0–11.2 truncate the file (spec §5.2).
        public static let ios11ByteRange = Code("ios11-byte-range")
        /// A tiny keyed archive of the kind iOS 12 produced for servers without ranges (spec §5.3).
        public static let tooSmall = Code("too-small")
        /// Neither an entity tag nor a server date: a device won't resume (spec §5.5).
        public static let missingValidator = Code("missing-validator")
        /// The partial file the blob names is not in the folder given.
        public static let tempFileMissing = Code("temp-file-missing")
        /// The partial file's size differs from the bytes the blob says were received.
        public static let tempFileSize = Code("temp-file-size")
        /// No download URL and no request to take one from.
        public static let missingURL = Code("missing-url")
        /// No `NSURLSessionResumeBytesReceived`.
        public static let missingBytesReceived = Code("missing-bytes-received")
        /// Neither a temp file name nor a local path.
        public static let missingPartialFile = Code("missing-partial-file")
        /// A known key holds a value of the wrong type.
        public static let wrongType = Code("wrong-type")
        /// A request archive cannot be decoded.
        public static let invalidRequest = Code("invalid-request")
        /// The archived response (`NSURLSessionResumeResponse`) cannot be decoded.
        public static let invalidResponse = Code("invalid-response")
        /// BytesReceived disagrees with the `Range` header of the current request.
        public static let rangeMismatch = Code("range-mismatch")
        /// DownloadURL differs from the current request's URL.
        public static let urlMismatch = Code("url-mismatch")
        /// A scheme other than http or https.
        public static let unsupportedScheme = Code("unsupported-scheme")
        /// A URL in the blob breaks ``HTTPURL``'s rule in another way than its scheme (no host,
        /// a control character, not a URL at all).
        public static let invalidURL = Code("invalid-url")
        /// A method other than GET.
        public static let unsupportedMethod = Code("unsupported-method")
        /// A negative or impossible size.
        public static let invalidSize = Code("invalid-size")
        /// A temp file name that is a path, or a local path that is not absolute.
        public static let invalidPath = Code("invalid-path")
        /// A dictionary of the blob held a key twice; the last value was kept, as Apple's reader does.
        public static let duplicateKey = Code("duplicate-key")
    }

    /// How bad it is.
    public var severity: Severity
    /// The kind of finding.
    public var code: Code
    /// What was found and what to do, for people.
    public var message: String
    /// The resume-dictionary key it concerns, if one.
    public var key: String?

    /// Creates a finding.
    package init(_ severity: Severity, _ code: Code, _ message: String, key: String? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.key = key
    }

    /// `error[ios11-byte-range] NSURLSessionResumeByteRange: …`
    public var description: String {
        "\(severity.rawValue)[\(code)]" + (key.map { " \($0)" } ?? "") + ": \(message)"
    }
}
