import ResumeDataCodec
/// What the first bytes of a file say about it, for `resumetool scan`: most files are ruled out
/// here, without reading further.
enum ScanContentKind: Sendable, Hashable {
    /// Not a property list: nothing in it can be a resume blob.
    case notAPropertyList
    /// The XOR-ed Network-framework format (spec §6): a resume blob by itself.
    case networkFramework
    /// A binary property list: a blob, or a plist or keyed archive that may hold blobs.
    case binaryPropertyList
    /// An XML property list: the same.
    case xmlPropertyList
    /// A binary property list with its first 8 bytes masked, holding a keyed archive that names
    /// an upload key: URLSession's upload resume data, most likely.
    case maskedKeyedArchive

    /// How many first bytes ``init(prefix:)`` looks at; an XML plist names `<plist` well
    /// within them (Apple's writer after about 180 bytes of declaration and doctype).
    static let prefixLength = 1024

    /// Whether the content is worth reading whole.
    var isCandidate: Bool { self != .notAPropertyList }

    /// Decides from the first bytes of a file (or of a data value); give at least
    /// ``prefixLength`` bytes when the file has them.
    init(prefix: some Collection<UInt8>) {
        if prefix.starts(with: ResumeData.obscuredMagic) {
            self = .networkFramework
        } else if BinaryPropertyListReader.hasMagic(prefix) {
            self = .binaryPropertyList
        } else if UploadResumeData.mayStart(prefix) {
            self = .maskedKeyedArchive
        } else if Self.mayBeXML(prefix), Self.isXMLPropertyList(Array(prefix.prefix(Self.prefixLength))) {
            self = .xmlPropertyList
        } else {
            self = .notAPropertyList
        }
    }

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let plistTag = Array("<plist".utf8)
    private static let doctypeTag = Array("<!DOCTYPE plist".utf8)
    private static let declaration = Array("<?xml".utf8)

    /// Whether a file whose first bytes (at least one AES block of an encrypted backup's file) are
    /// `start` may be a candidate: decrypting the rest is worth it only then.
    static func mayBeCandidate(start: some Collection<UInt8>) -> Bool {
        if start.starts(with: ResumeData.obscuredMagic) || BinaryPropertyListReader.hasMagic(start) { return true }
        // Nothing but white space and byte-order marks so far: cannot tell yet.
        if start.allSatisfy({ [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return true }
        return mayBeXML(start)
    }

    /// Whether the first byte that is not a byte-order mark or white space is `<`: most files
    /// fail this at their first byte, before anything is copied.
    private static func mayBeXML(_ bytes: some Collection<UInt8>) -> Bool {
        for byte in bytes.prefix(prefixLength) {
            switch byte {
            case 0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D: continue
            default: return byte == UInt8(ascii: "<")
            }
        }
        return false
    }

    /// `<plist` or `<!DOCTYPE plist` first (after a byte-order mark and white space), or an XML
    /// declaration followed by one of them within the prefix. Other XML (HTML, SVG, storyboards)
    /// is rejected here rather than parsed whole.
    private static func isXMLPropertyList(_ bytes: [UInt8]) -> Bool {
        var start = bytes.starts(with: bom) ? bom.count : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let text = bytes[start...]
        if text.starts(with: plistTag) || text.starts(with: doctypeTag) { return true }
        guard text.starts(with: declaration) else { return false }
        return contains(text, plistTag) || contains(text, doctypeTag)
    }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        var index = haystack.startIndex
        while index <= haystack.endIndex - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
