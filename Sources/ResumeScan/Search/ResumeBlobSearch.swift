import Foundation
import ResumeDataCodec

/// Finds resume blobs in the bytes of one file: the file itself, or data values at any depth of
/// a property list or keyed archive that are blobs themselves (NSUserDefaults plists, download
/// managers' archived caches), each with its key path.
///
/// No I/O: `scan` reads the file and hands the bytes over. Everything the bytes control is
/// bounded, because every file of a seized device is untrusted: how deep blobs may nest inside
/// data values, how many data values are parsed, the size and object count of what is parsed,
/// and how many blobs one file may report.
public struct ResumeBlobSearch: Sendable {
    /// Data values inside data values followed at most this deep (a blob inside a plist inside
    /// an archive is two).
    var maximumNesting = 4
    /// The most data values parsed as property lists in one file.
    var maximumParsedValues = 10_000
    /// The most blobs reported from one file.
    var maximumBlobs = 1_000
    /// Limits for each property list parsed, the file and every nested one. The depth is
    /// lower than the readers' default because the search recurses once per level on top of
    /// the reader, and again in each nested value: preferences and caches nest a few levels.
    var readOptions = PropertyListReadOptions(maximumDepth: 32, maximumObjectCount: 1_000_000,
                                                      maximumInputSize: 64 << 20, duplicateKeys: .keepLast)
    /// Limits for each keyed archive decoded.
    var archiveOptions = KeyedArchiveOptions(maximumObjectCount: 1_000_000, maximumDepth: 32, maximumValueCount: 1_000_000)

    /// A search with the bounds above.
    public init() {}

    /// Keys of which any one makes a dictionary a resume dictionary; an app's own dictionary
    /// has no reason to use Apple's `NSURLSession…` names.
    /// Every blob in the bytes, in the order they appear; the file itself is reported with a
    /// `nil` key path. Bytes that are no property list, or a damaged one, hold no blob.
    public func blobs(in bytes: Data) -> [FoundResumeBlob] {
        var state = State()
        search(bytes, keyPath: "", nesting: 0, state: &state)
        return state.found
    }

    private struct State {
        var found: [FoundResumeBlob] = []
        var parsedValues = 0
    }

    private func search(_ bytes: Data, keyPath: String, nesting: Int, state: inout State) {
        guard state.found.count < maximumBlobs else { return }
        let kind = ScanContentKind(prefix: bytes.prefix(ScanContentKind.prefixLength))
        switch kind {
        case .notAPropertyList:
            return
        case .networkFramework:
            let content: FoundResumeBlob.Content
            do {
                // An upload blob masked with the same constant is told apart by its keys.
                if let upload = try UploadResumeData.read(bytes, options: readOptions) {
                    content = .upload(upload)
                } else {
                    content = .resumeData(try ResumeData(data: bytes, options: readOptions))
                }
            } catch {
                content = .undecodedNetworkFramework(localPath: nil, reason: "\(error)")
            }
            state.found.append(.init(keyPath: Self.reported(keyPath), content: content, size: bytes.count))
            return
        case .maskedKeyedArchive:
            // Only what reads as upload resume data is reported: the mask is unknown, so bytes
            // that merely look masked may be anything.
            if let upload = try? UploadResumeData.read(bytes, options: readOptions) {
                state.found.append(.init(keyPath: Self.reported(keyPath), content: .upload(upload), size: bytes.count))
            }
            return
        case .binaryPropertyList, .xmlPropertyList:
            break
        }
        guard let parsed = try? PropertyListReader(options: readOptions).read(bytes) else { return }
        examine(parsed.value, format: parsed.format, size: bytes.count, keyPath: keyPath, nesting: nesting, state: &state)
    }

    /// A parsed property list: a blob itself, or a container to look inside.
    private func examine(_ value: PropertyListValue, format: PropertyListFormat, size: Int, keyPath: String,
                         nesting: Int, state: inout State) {
        guard case .dictionary(let top) = value else {
            walk(value, keyPath: keyPath, nesting: nesting, state: &state)
            return
        }
        guard top["$archiver"] != nil else {
            if Self.isResumeDictionary(top.keys) {
                state.found.append(.init(keyPath: Self.reported(keyPath), content: .resumeData(ResumeData(entries: top, container: format == .binary ? .binary : .xml)), size: size))
            } else {
                walk(value, keyPath: keyPath, nesting: nesting, state: &state)
            }
            return
        }
        guard let archive = try? KeyedArchive(value, options: archiveOptions) else {
            // `$archiver` but no valid frame: an ordinary dictionary after all.
            walk(value, keyPath: keyPath, nesting: nesting, state: &state)
            return
        }
        guard let root = try? archive.decodeRoot() else {
            // An object graph the decoder refuses (a loop, too deep, too large): its raw
            // `$objects` may still hold blobs, found with paths like `$objects[12]`.
            walk(value, keyPath: keyPath, nesting: nesting, state: &state)
            return
        }
        if case .dictionary(let entries) = root {
            let wrapper = WebKitWrapper(entries)
            if wrapper != nil || Self.isResumeDictionary(entries.map(\.key)) {
                do {
                    let resume = try ResumeData(propertyList: value, format: format, options: readOptions, archiveOptions: archiveOptions)
                    state.found.append(.init(keyPath: Self.reported(keyPath), content: .resumeData(resume), size: size))
                    return
                } catch {
                    if let wrapper {
                        state.found.append(.init(keyPath: Self.reported(keyPath),
                                                 content: .undecodedNetworkFramework(localPath: wrapper.localPath, reason: "\(error)"), size: size))
                        return
                    }
                }
            }
        }
        walk(root, keyPath: keyPath, nesting: nesting, state: &state)
    }

    private func walk(_ value: PropertyListValue, keyPath: String, nesting: Int, state: inout State) {
        switch value {
        case .dictionary(let dictionary):
            for (key, element) in dictionary {
                guard state.found.count < maximumBlobs else { return }
                walk(element, keyPath: ArchivedValue.join(keyPath, key), nesting: nesting, state: &state)
            }
        case .array(let elements), .set(let elements):
            for (index, element) in elements.enumerated() {
                guard state.found.count < maximumBlobs else { return }
                walk(element, keyPath: "\(keyPath)[\(index)]", nesting: nesting, state: &state)
            }
        case .data(let bytes):
            searchNested(bytes, keyPath: keyPath, nesting: nesting, state: &state)
        case .string, .integer, .real, .boolean, .date, .uid, .null:
            return
        }
    }

    private func walk(_ value: ArchivedValue, keyPath: String, nesting: Int, state: inout State) {
        switch value {
        case .dictionary(let entries):
            for entry in entries {
                guard state.found.count < maximumBlobs else { return }
                walk(entry.value, keyPath: ArchivedValue.join(keyPath, entry.key), nesting: nesting, state: &state)
            }
        case .objectKeyedDictionary(let pairs):
            for pair in pairs {
                guard state.found.count < maximumBlobs else { return }
                walk(pair.value, keyPath: ArchivedValue.join(keyPath, pair.keyText), nesting: nesting, state: &state)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                guard state.found.count < maximumBlobs else { return }
                walk(element, keyPath: "\(keyPath)[\(index)]", nesting: nesting, state: &state)
            }
        case .object(let object):
            for field in object.fields {
                guard state.found.count < maximumBlobs else { return }
                walk(field.value, keyPath: ArchivedValue.join(keyPath, field.key), nesting: nesting, state: &state)
            }
        case .data(let bytes):
            searchNested(bytes, keyPath: keyPath, nesting: nesting, state: &state)
        case .null, .string, .integer, .real, .boolean, .date, .url:
            return
        }
    }

    private func walk(_ value: ArchivedObject.FieldValue, keyPath: String, nesting: Int, state: inout State) {
        switch value {
        case .inline(let plain): walk(plain, keyPath: keyPath, nesting: nesting, state: &state)
        case .reference(let archived): walk(archived, keyPath: keyPath, nesting: nesting, state: &state)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                guard state.found.count < maximumBlobs else { return }
                walk(element, keyPath: "\(keyPath)[\(index)]", nesting: nesting, state: &state)
            }
        }
    }

    private func searchNested(_ bytes: Data, keyPath: String, nesting: Int, state: inout State) {
        guard nesting < maximumNesting, state.parsedValues < maximumParsedValues,
              ScanContentKind(prefix: bytes.prefix(ScanContentKind.prefixLength)).isCandidate else { return }
        state.parsedValues += 1
        search(bytes, keyPath: keyPath, nesting: nesting + 1, state: &state)
    }

    static func isResumeDictionary(_ keys: some Sequence<String>) -> Bool {
        ResumeDataKey.identifiesResumeData(keys)
    }

    /// WebKit's wrapper of spec §6: `{ data: <XOR-ed blob>, NSURLSessionResumeInfoLocalPath }`.
    struct WebKitWrapper {
        var localPath: String?

        init?(_ entries: [ArchivedValue.DictionaryEntry]) {
            guard case .data(let bytes)? = entries.first(where: { $0.key == "data" })?.value,
                  bytes.starts(with: ResumeData.obscuredMagic) else { return nil }
            localPath = entries.first { $0.key == ResumeDataKey.localPath }?.value.stringValue
        }
    }

    private static func reported(_ keyPath: String) -> String? { keyPath.isEmpty ? nil : keyPath }
}
