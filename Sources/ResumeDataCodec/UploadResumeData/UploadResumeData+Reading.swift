import Foundation

extension UploadResumeData {
    /// Reads upload resume data, or says that the bytes are something else.
    ///
    /// The bytes are upload resume data when, with `bplist00` written over their first eight,
    /// they are a binary property list holding a keyed archive of a dictionary with an upload
    /// blob's keys (`draftVersion`, or `resumeURL` with `bodyType`). A blob that starts `bplist00` (unmasked,
    /// as `convert` writes one for other tools) is read too, and so is the same archive as an XML
    /// property list; both have an all-zero ``mask``.
    /// - Returns: nil when the bytes are not upload resume data: a download blob (the Network
    ///   framework's masked ones included), another property list, anything else.
    /// - Throws: ``ResumeDataError`` when the bytes can only be an upload blob (masked with
    ///   another constant than the Network framework's, with a binary property list's trailer)
    ///   and cannot be read: `unreadable` with the byte at fault, `invalid-archive` with the key
    ///   path, `not-resume-data` when the archive holds something else.
    public static func read(_ data: Data, options: PropertyListReadOptions = .default) throws -> UploadResumeData? {
        let plain = BinaryPropertyListTrailer.magic
        guard data.count > plain.count, Self.mayHoldUploadKeys(data) else { return nil }
        let prefix = Array(data.prefix(plain.count))
        // The XML archive `convert --to keyed-archive-xml` writes is read as it is, unmasked, so
        // that it can be masked again; no 8 masked bytes of a binary blob spell its start.
        let xml = Self.startsXML(data)
        var unmasked = data
        if !xml {
            unmasked = Data(plain)
            unmasked.append(data.dropFirst(plain.count))
        }
        // The Network framework masks its download blobs too, with a known constant; an upload
        // blob masked with the same one (Apple's is unpublished) is told apart by its keys.
        let certain = !xml && prefix != plain && prefix != ResumeData.obscuredMagic && Self.hasTrailer(unmasked, options: options)
        let document: PropertyListReader.Document
        do {
            document = try PropertyListReader(options: options).readDocument(unmasked)
        } catch let error as PropertyListError {
            if certain { throw ResumeDataError(unreadable: error) }
            return nil
        }
        let entries: [ArchivedValue.DictionaryEntry]
        do {
            let archive = try KeyedArchive(document.value, options: KeyedArchiveOptions(propertyListOptions: options))
            let root = try archive.decodeRoot()
            guard case .dictionary(let found) = root, UploadResumeKey.identifies(found.lazy.map(\.key)) else {
                if certain {
                    throw ResumeDataError(.notResumeData, "not resume data: a masked keyed archive of \(root.kindName) without an upload blob's keys (\(UploadResumeKey.draftVersion), \(UploadResumeKey.resumeURL), \(UploadResumeKey.bodyType))")
                }
                return nil
            }
            entries = found
        } catch let error as KeyedArchiveError {
            if certain { throw ResumeDataError(.invalidArchive, "upload resume data: \(error)") }
            return nil
        }
        return UploadResumeData(entries: entries, mask: xml ? [UInt8](repeating: 0, count: plain.count) : zip(prefix, plain).map { $0 ^ $1 })
    }

    /// Whether the bytes begin an XML property list: `<?xml` or `<plist`, after a byte-order
    /// mark and white space.
    private static func startsXML(_ data: Data) -> Bool {
        var rest = data[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return rest.starts(with: Array("<?xml".utf8)) || rest.starts(with: Array("<plist".utf8))
    }

    /// Whether the first bytes of a file (up to a KiB or so) may begin an upload blob, for a scan
    /// that decides what to read whole: not `bplist00` nor the Network framework's mask, a
    /// dictionary object right after the 8 masked bytes (a keyed archive's top), and both
    /// `NSKeyedArchiver` and an upload key's name among them. ``read(_:options:)`` decides.
    public static func mayStart(_ prefix: some Collection<UInt8>) -> Bool {
        let bytes = Array(prefix)
        let plain = BinaryPropertyListTrailer.magic
        guard bytes.count > plain.count, !bytes.starts(with: plain), !bytes.starts(with: ResumeData.obscuredMagic),
              bytes[plain.count] & 0xF0 == 0xD0
        else { return false }
        return ByteSearch.contains(Self.archiverName, in: bytes) && mayHoldUploadKeys(bytes)
    }

    /// Whether the bytes hold the name of a key only upload blobs have: a key of a binary
    /// property list is stored as its ASCII text, so a blob without either name is not one, and
    /// the search spares every download blob a second parse.
    private static func mayHoldUploadKeys(_ data: some ContiguousBytes) -> Bool {
        ByteSearch.contains(Self.draftVersionName, in: data) || ByteSearch.contains(Self.resumeURLName, in: data)
    }

    private static let archiverName = Array("NSKeyedArchiver".utf8)
    private static let draftVersionName = Array(UploadResumeKey.draftVersion.utf8)
    private static let resumeURLName = Array(UploadResumeKey.resumeURL.utf8)

    /// Whether the last 32 bytes are a binary property list's trailer that fits these bytes.
    private static func hasTrailer(_ unmasked: Data, options: PropertyListReadOptions) -> Bool {
        unmasked.withUnsafeBytes { raw in
            (try? BinaryPropertyListTrailer(parsing: raw, maximumObjectCount: options.maximumObjectCount)) != nil
        }
    }
}
