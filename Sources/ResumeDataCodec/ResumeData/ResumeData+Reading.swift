import Foundation

extension ResumeData {
    /// The first eight bytes of the newer format (spec §6): `bplist00` XOR-ed with `TedLasso`.
    static let obscuredMagic: [UInt8] = zip(Array("bplist00".utf8), Array("TedLasso".utf8)).map { $0 ^ $1 }

    /// Reads a resume blob in any of the four containers.
    /// - Parameter options: limits applied to the outer property list.
    /// - Throws: ``ResumeDataError``: `unreadable` with the position of the fault,
    ///   `obscured-format` for the XOR-ed newer format, `not-a-dictionary`, `invalid-archive`.
    public init(data: Data, options: PropertyListReadOptions = .default) throws {
        if data.starts(with: Self.obscuredMagic) {
            throw ResumeDataError(
                .obscuredFormat,
                "this is the newer resume data of Apple's Network-framework loader (an NWURLSessionDownloadResumeInfo archive whose first 8 bytes are XOR-ed with \"TedLasso\"); it is recognised but not decoded yet",
                at: .byteOffset(0, objectIndex: nil))
        }
        let parsed: (value: PropertyListValue, format: PropertyListFormat)
        do {
            parsed = try PropertyListReader(options: options).read(data)
        } catch let error as PropertyListError {
            throw ResumeDataError(unreadable: error)
        }
        try self.init(propertyList: parsed.value, format: parsed.format)
    }

    /// Reads a blob from a property list already parsed (`scan` parses a file once, then decides
    /// whether it is a blob or holds some).
    /// - Throws: ``ResumeDataError``: `not-a-dictionary`, `invalid-archive`.
    init(propertyList: PropertyListValue, format: PropertyListFormat, archiveOptions: KeyedArchiveOptions = .default) throws {
        guard case .dictionary(let top) = propertyList else {
            throw ResumeDataError(.notADictionary, "the property list is a \(propertyList.typeName), not a resume dictionary")
        }
        if top["$archiver"] != nil {
            let archive: KeyedArchive
            let dictionary: PropertyListDictionary
            do {
                archive = try KeyedArchive(propertyList, options: archiveOptions)
                dictionary = try archive.decodeRootDictionary()
            } catch {
                throw ResumeDataError(.invalidArchive, "\(error)")
            }
            self.init(entries: dictionary, container: format == .binary ? .keyedArchive : .keyedArchiveXML)
            archiveTopKey = archive.topKey == KeyedArchive.rootObjectKey ? nil : archive.topKey
        } else {
            self.init(entries: top, container: format == .binary ? .binary : .xml)
        }
    }
}
