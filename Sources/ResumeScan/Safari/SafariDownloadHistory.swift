import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// Safari's list of downloads, `~/Library/Safari/Downloads.plist` (Safari 15 and later may keep
/// it in `~/Library/Containers/com.apple.Safari/Data/Library/Safari/`): a dictionary whose
/// `DownloadHistory` array holds one dictionary per download, with the keys of a modern
/// `.download` bundle's `Info.plist` (``SafariDownloadInfo``); older Safari wrote the array as
/// the root (spec §10). An entry that is no dictionary, or has no `DownloadEntry` key, is left out
/// and said in ``problems``.
public struct SafariDownloadHistory: Sendable, Hashable {
    /// The entries, in the plist's order.
    public var entries: [SafariDownloadInfo]
    /// Where each of ``entries`` is in the plist: `DownloadHistory[3]`, or `[3]` where the array
    /// is the root (older Safari); the entries left out keep their places.
    public var keyPaths: [String] = []
    /// Entries left out, and entries past ``maximumEntries``, each in a sentence.
    public var problems: [String] = []

    /// Entries read at most: a history is trimmed by Safari to a few hundred.
    public static let maximumEntries = 100_000

    /// Reads `Downloads.plist`'s bytes (binary or XML).
    /// - Throws: ``SafariTransferError`` when the bytes are no property list, or hold neither a
    ///   `DownloadHistory` array nor an array at the root.
    public init(propertyList data: Data) throws(SafariTransferError) {
        let reader = PropertyListReader(options: PropertyListReadOptions(maximumDepth: 16, maximumObjectCount: 4_000_000,
                                                                          maximumInputSize: 64 << 20, duplicateKeys: .keepLast))
        let root: PropertyListValue
        do {
            root = try reader.read(data).value
        } catch {
            throw .unreadable("Downloads.plist: \(error)")
        }
        guard let list = root.dictionaryValue?["DownloadHistory"]?.arrayValue ?? root.arrayValue else {
            throw .notADownload("Downloads.plist has no DownloadHistory array: not Safari's list of downloads")
        }
        var entries: [SafariDownloadInfo] = []
        var keyPaths: [String] = []
        var problems: [String] = []
        let arrayPath = root.dictionaryValue?["DownloadHistory"]?.arrayValue != nil ? "DownloadHistory" : ""
        for (index, value) in list.prefix(Self.maximumEntries).enumerated() {
            guard let dictionary = value.dictionaryValue else {
                problems.append("entry \(index) is of type \(value.typeName), not dictionary")
                continue
            }
            do {
                var entry = try SafariDownloadInfo(dictionary: dictionary, what: "entry \(index)")
                entry.problems = entry.problems.map { "entry \(index): \($0)" }
                entries.append(entry)
                keyPaths.append("\(arrayPath)[\(index)]")
            } catch {
                problems.append(error.description)
            }
        }
        if list.count > Self.maximumEntries {
            problems.append("\(list.count - Self.maximumEntries) entries past the first \(Self.maximumEntries) are not read")
        }
        self.entries = entries
        self.keyPaths = keyPaths
        self.problems = problems
    }

    /// The index in ``entries`` of the download a `NAME.download` bundle holds:
    /// ``EntryLookup/entryIndex(forBundle:identifier:)``.
    package func entryIndex(forBundle bundleName: String, identifier: String?) -> Int? {
        EntryLookup(self).entryIndex(forBundle: bundleName, identifier: identifier)
    }

    /// The entries by identifier and by the last name of their `DownloadEntryPath`, each the
    /// first entry that has it: made once, so that a scan asking for each of its bundles costs
    /// one look-up each, not a pass over up to ``maximumEntries`` entries.
    package struct EntryLookup: Sendable {
        private var byIdentifier: [String: Int] = [:]
        /// By bytes: `String`'s equality takes canonically equivalent names for one.
        private var byPathName: [[UInt8]: Int] = [:]

        package init(_ history: SafariDownloadHistory) {
            for (index, entry) in history.entries.enumerated() {
                if let identifier = entry.identifier, byIdentifier[identifier] == nil { byIdentifier[identifier] = index }
                if let path = entry.path {
                    let name = Array(BytePath(path).lastName.text.utf8)
                    if byPathName[name] == nil { byPathName[name] = index }
                }
            }
        }

        /// The entry with the identifier the bundle's `Info.plist` has, else the one whose
        /// `DownloadEntryPath` is the bundle (Safari points an unfinished download's entry at its
        /// bundle); nil when none is.
        package func entryIndex(forBundle bundleName: String, identifier: String?) -> Int? {
            if let identifier, let index = byIdentifier[identifier] { return index }
            return byPathName[Array(bundleName.utf8)]
        }
    }
}
