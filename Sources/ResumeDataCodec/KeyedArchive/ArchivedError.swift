import Foundation

/// An archived `NSError`: its domain, code and `userInfo`, with the underlying error decoded too.
///
/// `NSError` archives its domain under `NSDomain`, its code under `NSCode` (an inline integer)
/// and its user info under `NSUserInfo` (a dictionary, nil when empty). nsurlsessiond keeps one
/// per task (`error`, `retry_error`); the underlying error sits in the user info under
/// `NSUnderlyingError`. Every entry of the user info is kept as decoded; ``userInfoStrings``
/// gives the ones a person reads.
public struct ArchivedError: Sendable, Hashable {
    /// The keys of an archived `NSError`.
    enum Key {
        static let domain = "NSDomain"
        static let code = "NSCode"
        static let userInfo = "NSUserInfo"
        static let underlying = "NSUnderlyingError"
        static let description = "NSLocalizedDescription"
    }

    /// `NSDomain`, e.g. `NSURLErrorDomain`.
    public var domain: String
    /// `NSCode`, e.g. -1001.
    public var code: Int64
    /// `NSUserInfo` in archive order, empty when nil.
    public var userInfo: [ArchivedValue.DictionaryEntry]
    /// The underlying error, boxed in an array because a struct cannot hold itself.
    private var underlyingErrors: [ArchivedError]

    /// Decodes an `NSError` archive (binary or XML keyed archive).
    /// - Throws: ``KeyedArchiveError`` naming the key at fault:
    ///   `KeyedArchiveError.Code.unexpectedClass` when the root is not an `NSError`,
    ///   `.missingKey` or `.unexpectedType` for a domain or code that is absent or of another type.
    public init(archiveData: Data, options: KeyedArchiveOptions = .default) throws {
        let archive = try KeyedArchive(data: archiveData, options: options)
        let root = try archive.decodeRoot()
        let path = "$top.\(archive.topKey)"
        guard case .object(let object) = root else {
            throw KeyedArchiveError(.unexpectedClass, "the root is \(ArchivedURL.kind(of: root)), not an NSError", keyPath: path)
        }
        try self.init(object: object, keyPath: path)
    }

    /// Decodes an error from an object already decoded.
    /// - Parameter keyPath: where the object is, for error messages.
    /// - Throws: ``KeyedArchiveError`` naming the key at fault.
    init(object: ArchivedObject, keyPath: String) throws {
        guard object.isKind(of: "NSError") else {
            throw KeyedArchiveError(.unexpectedClass, "the object is an \(object.className), not an NSError", keyPath: keyPath)
        }
        switch object[Key.domain]?.value {
        case .string(let domain)?: self.domain = domain
        case nil: throw KeyedArchiveError(.missingKey, "no \(Key.domain)", keyPath: keyPath)
        case let other?:
            throw KeyedArchiveError(.unexpectedType, "\(Key.domain) is \(ArchivedURL.kind(of: other)), not a string", keyPath: "\(keyPath).\(Key.domain)")
        }
        switch object[Key.code]?.value {
        case .integer(let integer)?:
            guard let code = integer.int64Value else {
                throw KeyedArchiveError(.unexpectedType, "\(Key.code) \(integer) does not fit in 64 bits", keyPath: "\(keyPath).\(Key.code)")
            }
            self.code = code
        case nil: throw KeyedArchiveError(.missingKey, "no \(Key.code)", keyPath: keyPath)
        case let other?:
            throw KeyedArchiveError(.unexpectedType, "\(Key.code) is \(ArchivedURL.kind(of: other)), not an integer", keyPath: "\(keyPath).\(Key.code)")
        }
        switch object[Key.userInfo]?.value {
        case .dictionary(let entries)?: userInfo = entries
        case .null?, nil: userInfo = []
        case let other?:
            throw KeyedArchiveError(.unexpectedType, "\(Key.userInfo) is \(ArchivedURL.kind(of: other)), not a dictionary", keyPath: "\(keyPath).\(Key.userInfo)")
        }
        underlyingErrors = []
        if let entry = userInfo.first(where: { $0.key == Key.underlying }) {
            let path = "\(keyPath).\(Key.userInfo).\(Key.underlying)"
            switch entry.value {
            case .object(let underlying): underlyingErrors = [try ArchivedError(object: underlying, keyPath: path)]
            case .null: break
            case let other:
                throw KeyedArchiveError(.unexpectedType, "\(Key.underlying) is \(ArchivedURL.kind(of: other)), not an NSError", keyPath: path)
            }
        }
    }

    /// Creates an error from its parts.
    init(domain: String, code: Int64, userInfo: [ArchivedValue.DictionaryEntry] = [], underlying: ArchivedError? = nil) {
        self.domain = domain
        self.code = code
        self.userInfo = userInfo
        underlyingErrors = underlying.map { [$0] } ?? []
    }

    /// `NSUnderlyingError`, decoded.
    public var underlying: ArchivedError? { underlyingErrors.first }

    /// `NSLocalizedDescription`, when it is a string.
    public var localizedDescription: String? {
        userInfo.first { $0.key == Key.description }?.value.stringValue
    }

    /// The user-info entries a person reads, in archive order: strings as they are, URLs as
    /// their absolute string, numbers as written. Data, dictionaries, arrays, nested errors
    /// and other objects are left out.
    public var userInfoStrings: [(key: String, value: String)] {
        userInfo.compactMap { entry in
            switch entry.value {
            case .string(let string): (entry.key, string)
            case .url(let url): (entry.key, url.absoluteString)
            case .integer(let integer): (entry.key, integer.description)
            case .real(let real): (entry.key, real.description)
            case .boolean(let bool): (entry.key, bool ? "true" : "false")
            default: nil
            }
        }
    }
}

extension ArchivedError: CustomStringConvertible {
    /// `NSURLErrorDomain -1001: The request timed out.`, then the underlying error's in brackets.
    public var description: String {
        var text = "\(domain) \(code)"
        if let localizedDescription { text += ": \(localizedDescription)" }
        if let underlying { text += " (underlying: \(underlying.description))" }
        return text
    }
}
