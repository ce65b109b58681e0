import Foundation

extension ResumeData {
    /// The first eight bytes of the newer format (spec §6): `bplist00` XOR-ed with `TedLasso`.
    package static let obscuredMagic: [UInt8] = zip(Array("bplist00".utf8), Array("TedLasso".utf8)).map { $0 ^ $1 }

    /// Reads a resume blob in any of the containers of ``ResumeDataContainer``.
    /// - Parameters:
    ///   - data: the blob's bytes, as saved.
    ///   - options: limits applied to the outer property list.
    /// - Throws: ``ResumeDataError``: `unreadable` with the position of the fault,
    ///   `not-a-dictionary`, `invalid-archive` (with the key path inside the archive);
    ///   `not-resume-data` naming ``UploadResumeData`` for an upload blob.
    public init(data: Data, options: PropertyListReadOptions = .default) throws {
        do {
            try self.init(reading: data, options: options)
        } catch let error as ResumeDataError {
            // Asked only once the bytes failed as a download blob: an upload blob's masked start
            // reads as nothing at all, and the caller needs the type that reads it.
            if (try? UploadResumeData.read(data, options: options)) != nil {
                throw ResumeDataError(.notResumeData, "upload resume data, not a download's: UploadResumeData.read(_:) reads it")
            }
            throw error
        }
    }

    private init(reading data: Data, options: PropertyListReadOptions) throws {
        if NetworkResumeInfo.isObscured(data) {
            self.init(try NetworkResumeInfo.decode(obscured: data, options: options), container: .networkFramework)
            return
        }
        let document: PropertyListReader.Document
        do {
            document = try PropertyListReader(options: options).readDocument(data)
        } catch let error as PropertyListError {
            throw ResumeDataError(unreadable: error)
        }
        try self.init(propertyList: document.value, format: document.format, options: options)
        readWarnings = document.warnings + readWarnings
    }

    /// A Network-framework blob as ``NetworkResumeInfo`` decoded it, in either of its containers.
    private init(_ decoded: NetworkResumeInfo.Decoded, container: ResumeDataContainer) {
        self.init(entries: decoded.entries, container: container)
        networkLayout = decoded.layout
        readWarnings = decoded.warnings
    }

    /// Reads a blob from a property list already parsed (`scan` parses a file once, then decides
    /// whether it is a blob or holds some).
    /// - Throws: ``ResumeDataError``: `not-a-dictionary`, `invalid-archive`; `not-resume-data`
    ///   for a valid archive of a dictionary whose keys are not strings.
    package init(propertyList: PropertyListValue, format: PropertyListFormat, options: PropertyListReadOptions = .default,
         archiveOptions: KeyedArchiveOptions = .default) throws {
        guard case .dictionary(let top) = propertyList else {
            throw ResumeDataError(.notADictionary, "the property list is a \(propertyList.typeName), not a resume dictionary")
        }
        if top["$archiver"] != nil {
            let archive: KeyedArchive
            let dictionary: PropertyListDictionary
            do {
                archive = try KeyedArchive(propertyList, options: archiveOptions)
                dictionary = try archive.decodeRootDictionary()
            } catch let error as KeyedArchiveError where error.code == .nonStringKeys {
                // A valid archive of something else (nsurlsessiond's tasks.plist keys its tasks by
                // number): the archive is sound, only it is no resume blob.
                throw ResumeDataError(.notResumeData, "not resume data: \(error.reason); a resume blob's keys are strings")
            } catch {
                throw ResumeDataError(.invalidArchive, "\(error)")
            }
            if NetworkResumeInfo.isWrapper(dictionary) {
                self.init(try NetworkResumeInfo.decode(wrapper: dictionary, options: options), container: .networkFrameworkWebKit)
                return
            }
            try Self.checkIdentifies(dictionary, archived: true)
            self.init(entries: dictionary, container: format == .binary ? .keyedArchive : .keyedArchiveXML)
        } else {
            try Self.checkIdentifies(top, archived: false)
            self.init(entries: top, container: format == .binary ? .binary : .xml)
        }
    }

    /// Refuses a dictionary that is some other property list, saying what it holds instead. An
    /// empty one is a blob: iOS 12 wrote such for servers without range support, and the
    /// validator names it (`too-small`).
    private static func checkIdentifies(_ entries: PropertyListDictionary, archived: Bool) throws {
        guard !entries.isEmpty, !ResumeDataKey.identifiesResumeData(entries.keys) else { return }
        let what = archived ? "a keyed archive of a dictionary" : "a property list dictionary"
        let shown = entries.keys.prefix(3).map { "\($0)" }.joined(separator: ", ")
        let keys = "\(entries.count) key\(entries.count == 1 ? "" : "s") (\(shown)\(entries.count > 3 ? ", …" : ""))"
        throw ResumeDataError(.notResumeData, "not resume data: \(what) with \(keys), none of a resume blob's (such as \(ResumeDataKey.downloadURL))")
    }
}
