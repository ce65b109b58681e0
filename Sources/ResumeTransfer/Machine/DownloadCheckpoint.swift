import ResumeDataCodec

/// Everything needed to continue a download: what the resume blob records.
struct DownloadCheckpoint: Equatable, Sendable {
    /// The URL the download was started with: credentials go only to its origin.
    var originalURL: OriginalURL
    /// The URL after redirects; requests go here. Checked once, where it entered (the caller's
    /// argument, the blob, a redirect's `Location`), and carried as checked from there.
    var currentURL: HTTPURL
    /// Headers the caller added (never Range / If-Range / Accept-Encoding; the machine sets those).
    var extraHeaders: [HTTPHeaderField] = []
    /// Bytes at the start of the partial file that are flushed and belong to the file named by the validators.
    var bytesReceived: Int64 = 0
    /// The raw `ETag`, quotes included.
    var entityTag: String?
    /// The raw `Last-Modified`.
    var lastModified: String?
    /// The complete length, when a response announced it. Not part of Apple's format.
    var totalLength: Int64?
    /// The SHA-256 (lowercase hex) the finished file must have, as the download was started with.
    /// Kept in the blob under ``ResumeCheckpoint/expectedSHA256Key`` so `recover` checks it too.
    var expectedSHA256: String?
    /// Ranges written by a segmented download beyond `bytesReceived` (sorted, disjoint), kept in
    /// the blob under ``ResumeCheckpoint/finishedRangesKey``; flushed like the prefix.
    var finishedRanges: [Range<Int64>] = []

    /// The ETag that proves the bytes on disk are the server's: a strong one that can go back in
    /// `If-Range` (the codec's `EntityTag.canGoInIfRange`: quoted, bounded; and `HTTPHeaderField`'s
    /// rule: no CR, LF or NUL). Any other tag proves nothing, and the bytes are compared instead.
    var provingEntityTag: String? {
        guard EntityTag.canGoInIfRange(self.entityTag), let tag = self.entityTag, Self.canBeSent(tag) else { return nil }
        return tag
    }

    /// What `If-Range` carries: the proving ETag, else Last-Modified (weak tags cannot be used
    /// there), when it can be sent.
    var ifRangeValidator: String? {
        self.provingEntityTag ?? self.lastModified.flatMap { Self.canBeSent($0) && $0.utf8.count <= Self.maximumDateLength ? $0 : nil }
    }

    /// An HTTP-date is 29 bytes; room for the obsolete forms, none for a blob's noise.
    static let maximumDateLength = 64

    private static func canBeSent(_ validator: String) -> Bool {
        HTTPHeaderField.engine("If-Range", validator) != nil
    }
}

extension DownloadCheckpoint {
    /// A download that has not moved: started at `url`, with the caller's `headers`.
    init(url: HTTPURL, extraHeaders: [HTTPHeaderField] = []) {
        self.init(originalURL: .checked(url), currentURL: url, extraHeaders: extraHeaders)
    }
}

/// The URL a download was started with, as its checkpoint holds it.
///
/// A download this engine starts has a checked one. A blob from elsewhere may record an original
/// request the `HTTPURL` rule refuses while its current request (the one fetched, checked when
/// the blob is decoded) passes: that URL is kept as recorded, so a checkpoint archives it back
/// unchanged and a warning can name it, but it is no origin credentials may go to.
enum OriginalURL: Equatable, Sendable, CustomStringConvertible {
    /// A URL the `HTTPURL` rule accepts.
    case checked(HTTPURL)
    /// A blob's original request URL that the rule refuses, as the blob spells it.
    case refused(String)

    /// The checked URL, or nil for a refused one.
    var checked: HTTPURL? {
        if case .checked(let url) = self { return url }
        return nil
    }

    /// The URL as given or recorded.
    var description: String {
        switch self {
        case .checked(let url): url.string
        case .refused(let text): text
        }
    }

    /// Whether a request to `url` stays on this origin (scheme, host, port), where the caller's
    /// credentials may go; never for a refused URL.
    func hasSameOrigin(as url: HTTPURL) -> Bool {
        self.checked?.hasSameOrigin(as: url) ?? false
    }
}
