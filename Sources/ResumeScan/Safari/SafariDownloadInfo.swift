import Foundation
import ResumeDataCodec

/// What the `Info.plist` of a Safari `NAME.download` bundle says about an unfinished download
/// (macOS keeps the partial file `NAME` beside it). Two layouts are known, neither documented by
/// Apple (upload-resume-data spec §10):
/// - ``Layout/modern``, binary: `DownloadEntryURL`, `DownloadEntryPath`, `DownloadEntryIdentifier`,
///   `DownloadEntrySandboxIdentifier`, `DownloadEntryDateAddedKey`,
///   `DownloadEntryProgressBytesSoFar`, `DownloadEntryProgressTotalToLoad`; the key list comes
///   from third-party parsers and write-ups, not from a bundle this project has seen, and no key
///   that would hold resume data is known: so no validator.
/// - ``Layout/legacy`` (Safari 1–5, `NSURLDownload`), binary or XML (a real 2016 bundle's is
///   binary): `DownloadEntryResumeInformation` = {`NSURLDownloadBytesReceived`,
///   `NSURLDownloadEntityTag`, `NSURLDownloadServerModificationDate`, `DownloadEntryURL`}.
///
/// A value of the wrong type, or a negative count, is kept out and said in ``problems``.
public struct SafariDownloadInfo: Sendable, Hashable {
    /// Which of the two known layouts the plist has.
    public enum Layout: String, Sendable, Hashable {
        /// Safari 6 and later, as third-party parsers read it.
        case modern
        /// Safari 1–5: `DownloadEntryResumeInformation`.
        case legacy
    }

    /// The layout read.
    public var layout: Layout
    /// `DownloadEntryURL` (in the legacy layout, the resume information's when it has one).
    public var url: String?
    /// `DownloadEntryPath`: where Safari meant the finished file to go.
    public var path: String?
    /// `DownloadEntryIdentifier`: a UUID naming the download in `Downloads.plist`.
    public var identifier: String?
    /// `DownloadEntrySandboxIdentifier`.
    public var sandboxIdentifier: String?
    /// `DownloadEntryProgressBytesSoFar`, or the legacy `NSURLDownloadBytesReceived`.
    public var bytesReceived: Int64?
    /// `DownloadEntryProgressTotalToLoad`: the whole file's size as Safari expected it.
    public var totalBytes: Int64?
    /// The legacy `NSURLDownloadEntityTag`: the validator a resumed request sends (`If-Range`).
    public var entityTag: String?
    /// The legacy `NSURLDownloadServerModificationDate`: the server's `Last-Modified` text, as
    /// `NSURLDownload` kept it (the `NSURLSessionResumeServerDownloadDate` of resume data), the
    /// validator a resumed request sends when there is no entity tag.
    public var lastModified: String?
    /// `DownloadEntryDateAddedKey`.
    public var dateAdded: Date?
    /// `DownloadEntryDateFinishedKey`, when Safari wrote one.
    public var dateFinished: Date?
    /// `DownloadEntryErrorCodeDictionaryKey` (−999: cancelled), when Safari wrote one.
    public var errorCode: Int64?
    /// Values left out, each in a sentence naming its key.
    public var problems: [String] = []

    /// `Info.plist` files larger than this are not read: Safari's are a few hundred bytes.
    public static let maximumSize = 1 << 20

    /// Reads `Info.plist`'s bytes (binary or XML).
    /// - Throws: ``SafariTransferError`` when the bytes are no property-list dictionary, or one
    ///   that has none of the keys of either layout.
    public init(propertyList data: Data) throws(SafariTransferError) {
        guard data.count <= Self.maximumSize else { throw .unreadable("Info.plist is larger than \(Self.maximumSize) bytes") }
        let reader = PropertyListReader(options: PropertyListReadOptions(maximumDepth: 16, maximumObjectCount: 10_000,
                                                                          maximumInputSize: Self.maximumSize, duplicateKeys: .keepLast))
        let top: PropertyListDictionary
        do {
            guard let dictionary = try reader.read(data).value.dictionaryValue else { throw SafariTransferError.unreadable("Info.plist is no dictionary") }
            top = dictionary
        } catch let error as SafariTransferError {
            throw error
        } catch {
            throw .unreadable("Info.plist: \(error)")
        }
        try self.init(dictionary: top, what: "Info.plist")
    }

    /// Reads one download's keys: an `Info.plist`'s top level, or an entry of
    /// `Downloads.plist`'s `DownloadHistory` (the same keys, ``SafariDownloadHistory``).
    /// - Throws: ``SafariTransferError/notADownload(_:)`` when `top` has none of the keys of
    ///   either layout; `what` names it in the message.
    init(dictionary top: PropertyListDictionary, what: String) throws(SafariTransferError) {
        var problems: [String] = []
        let resume: PropertyListDictionary?
        if let value = top["DownloadEntryResumeInformation"] {
            resume = value.dictionaryValue
            if resume == nil { problems.append("DownloadEntryResumeInformation is of type \(value.typeName), not dictionary") }
        } else {
            resume = nil
        }
        func text(_ key: String, in dictionary: PropertyListDictionary?) -> String? {
            guard let value = dictionary?[key] else { return nil }
            if let text = value.stringValue { return text }
            problems.append("\(key) is of type \(value.typeName), not string")
            return nil
        }
        func count(_ key: String, in dictionary: PropertyListDictionary?) -> Int64? {
            guard let value = dictionary?[key] else { return nil }
            guard let number = value.int64Value else {
                problems.append(Self.notAnInteger(key, value))
                return nil
            }
            guard number >= 0 else {
                problems.append("\(key) is \(number), below 0")
                return nil
            }
            return number
        }
        func date(_ key: String) -> Date? {
            guard let value = top[key] else { return nil }
            if let date = value.dateValue { return date }
            problems.append("\(key) is of type \(value.typeName), not date")
            return nil
        }
        self.layout = top["DownloadEntryResumeInformation"] != nil ? .legacy : .modern
        self.url = text("DownloadEntryURL", in: resume) ?? text("DownloadEntryURL", in: top)
        self.path = text("DownloadEntryPath", in: top)
        self.identifier = text("DownloadEntryIdentifier", in: top)
        self.sandboxIdentifier = text("DownloadEntrySandboxIdentifier", in: top)
        self.bytesReceived = count("NSURLDownloadBytesReceived", in: resume) ?? count("DownloadEntryProgressBytesSoFar", in: top)
        self.totalBytes = count("DownloadEntryProgressTotalToLoad", in: top)
        self.entityTag = text("NSURLDownloadEntityTag", in: resume)
        self.lastModified = text("NSURLDownloadServerModificationDate", in: resume)
        self.dateAdded = date("DownloadEntryDateAddedKey")
        self.dateFinished = date("DownloadEntryDateFinishedKey")
        if let value = top["DownloadEntryErrorCodeDictionaryKey"] {
            if let code = value.int64Value { self.errorCode = code } else { problems.append(Self.notAnInteger("DownloadEntryErrorCodeDictionaryKey", value)) }
        }
        self.problems = problems
        guard resume != nil || top.contains(where: { $0.key.hasPrefix("DownloadEntry") }) else {
            throw .notADownload("\(what) has no DownloadEntry key: not a Safari download's")
        }
    }
}

extension SafariDownloadInfo {
    /// Why `value` under `key` is no `Int64`: another type, or an integer out of its range.
    private static func notAnInteger(_ key: String, _ value: PropertyListValue) -> String {
        if case .integer = value { return "\(key) is an integer beyond the 64-bit range" }
        return "\(key) is of type \(value.typeName), not integer"
    }
}

/// Why a Safari `.download` bundle could not be read; each says where.
public enum SafariTransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bundle or its `Info.plist` could not be read.
    case unreadable(String)
    /// `Info.plist` was read and is not a Safari download's.
    case notADownload(String)

    /// The reason, in a sentence.
    public var description: String {
        switch self {
        case .unreadable(let reason), .notADownload(let reason): reason
        }
    }
}
