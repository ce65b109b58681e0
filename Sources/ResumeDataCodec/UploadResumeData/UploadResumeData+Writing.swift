import Foundation

extension UploadResumeData {
    /// The blob's bytes: a binary keyed archive of the dictionary under `root`, as
    /// `archivedDataWithRootObject:` stores it, with its first 8 bytes XOR-ed with ``mask``.
    ///
    /// The blob's own mask is kept, so that a blob read and written again (edited) is accepted
    /// wherever the original was; with an all-zero mask (or `masked: false`) the result is the
    /// plain keyed archive that plutil, plistlib and other tools read. The archive is this
    /// package's writer's (Apple's object order); it is not the device's bytes, which no
    /// published blob shows.
    /// - Throws: ``KeyedArchiveError`` when a value cannot be archived.
    public func encoded(masked: Bool = true) throws -> Data {
        var bytes = try keyedArchiveData(format: .binary)
        if masked {
            for (index, byte) in mask.prefix(8).enumerated() where index < bytes.count {
                bytes[bytes.startIndex + index] ^= byte
            }
        }
        return bytes
    }

    /// The blob as a plain keyed archive, unmasked, in either property-list format: what plutil,
    /// plistlib and other tools read. ``encoded(masked:)`` is this archive in binary, masked.
    /// - Throws: ``KeyedArchiveError`` when a value cannot be archived.
    public func keyedArchiveData(format: PropertyListFormat) throws -> Data {
        try KeyedArchive(encoding: .dictionary(entries), topKey: KeyedArchive.rootKey).data(format: format)
    }

    /// The same upload continued at `url`: what `edit --url` changes on an upload blob, where
    /// the server moved the upload. The original request keeps its URL (where the upload was
    /// created).
    public func replacingResumeURL(_ url: HTTPURL) -> UploadResumeData {
        replacing(UploadResumeKey.resumeURL, with: .url(ArchivedURL(relativeString: url.string)))
    }

    /// The same upload with `value` under `key`, in the key's place, or appended after the keys
    /// CFNetwork writes before it when the blob has none.
    func replacing(_ key: String, with value: ArchivedValue) -> UploadResumeData {
        var copy = self
        if let index = copy.entries.firstIndex(where: { $0.key == key }) {
            copy.entries[index].value = value
            // A broken archive may repeat the key; the first is the one read, the rest would mislead.
            copy.entries = copy.entries.enumerated().filter { $0.offset == index || $0.element.key != key }.map(\.element)
        } else {
            let order = UploadResumeKey.known
            let rank = order.firstIndex(of: key) ?? order.count
            let position = copy.entries.firstIndex { (order.firstIndex(of: $0.key) ?? order.count) > rank } ?? copy.entries.count
            copy.entries.insert(.init(key: key, value: value), at: position)
        }
        return copy
    }
}
