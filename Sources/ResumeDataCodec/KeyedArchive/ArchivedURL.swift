import Foundation

/// An archived `NSURL`: its relative string and, when it had one, the absolute string of its base.
///
/// Kept as strings rather than `URL` so that any text a device wrote survives a round trip, even
/// text that Foundation's parser would reject or normalise.
public struct ArchivedURL: Sendable, Hashable {
    /// `NS.relative`: the URL string as written.
    public var relativeString: String
    /// The absolute string of `NS.base`, or `nil` when the URL has no base.
    public var baseString: String?

    /// Creates a URL from its relative string and optional base.
    init(relativeString: String, baseString: String? = nil) {
        self.relativeString = relativeString
        self.baseString = baseString
    }

    /// The URL string resolved against its base (RFC 3986, through Foundation); the relative
    /// string alone when there is no base or the two do not resolve.
    public var absoluteString: String {
        guard let baseString, let base = URL(string: baseString),
              let resolved = URL(string: relativeString, relativeTo: base)
        else { return relativeString }
        return resolved.absoluteString
    }

    /// The resolved URL, when Foundation can parse it.
    public var url: URL? { URL(string: absoluteString) }
}

extension ArchivedURL {
    /// Decodes a stand-alone `NSURL` archive (what nsurlsessiond keeps in `download_file_url`).
    /// - Throws: ``KeyedArchiveError`` naming the key at fault;
    ///   `KeyedArchiveError.Code.unexpectedClass` when the root is not an `NSURL`.
    public init(archiveData: Data, options: KeyedArchiveOptions = .default) throws {
        let archive = try KeyedArchive(data: archiveData, options: options)
        let root = try archive.decodeRoot()
        guard case .url(let url) = root else {
            throw KeyedArchiveError(.unexpectedClass, "the root is \(Self.kind(of: root)), not an NSURL", keyPath: "$top.\(archive.topKey)")
        }
        self = url
    }

    /// What a value is, for an error message: a class name for objects, the value otherwise.
    static func kind(of value: ArchivedValue) -> String {
        if case .object(let object) = value { return "an \(object.className)" }
        let text = value.description
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
