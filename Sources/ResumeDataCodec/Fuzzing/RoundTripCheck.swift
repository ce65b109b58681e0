import Foundation

/// The fuzzing entry points of the codec, for the harnesses FuzzXMLPlist, FuzzBinaryPlist,
/// FuzzKeyedArchive, FuzzRequestArchive and FuzzResumeData (FuzzTesting) and the test that
/// replays their fail cases: both call these checks, so each property is written once, here,
/// where the encoders they round-trip through (which are `package`) can be reached.
///
/// Each check decodes arbitrary bytes with the decoder it names and returns the property that
/// broke, or nil. Bytes that do not decode are a clean outcome, and so is an encoder refusing a
/// value (a string with a control character cannot go into XML); our own output not decoding is
/// not. Equality is the value model's (reals compare bits, dictionaries ignore key order), but
/// `Date.==` calls a NaN date unequal to itself, so where values differ identical re-encoded bytes
/// are accepted instead.
@_spi(Fuzzing) public enum RoundTripCheck {
    /// `PropertyListReader` on input that looks like XML. Written as XML and read back twice,
    /// trips 2 and 3 are equal (the first may change the value on purpose: XML keeps no -0.0, no
    /// 32-bit reals, no sub-second dates, and sets become arrays); written as binary, it reads
    /// back equal.
    public static func xmlPropertyList(_ data: Data) -> String? {
        // Only the XML path: the facade would send binary-looking input to the binary reader.
        guard PropertyListReader.format(of: data) == .xml, let (value, _) = try? PropertyListReader().read(data) else { return nil }
        return xmlTrip(value) ?? binaryTrip(value)
    }

    /// `PropertyListReader` on binary input (`bplist0` and any eighth byte, as Apple reads it; a
    /// null object included): written as binary, the value reads back equal.
    public static func binaryPropertyList(_ data: Data) -> String? {
        guard PropertyListReader.format(of: data) == .binary, let (value, _) = try? PropertyListReader().read(data) else { return nil }
        return binaryTrip(value)
    }

    /// `KeyedArchive(data:)` and `decodeRoot()`: the tree, archived again with the same top key
    /// in the same format, decodes to the same tree (XML archives after one extra trip, as their
    /// text rounds dates and reals).
    public static func keyedArchive(_ data: Data) -> String? {
        guard let archive = try? KeyedArchive(data: data), let root = try? archive.decodeRoot() else { return nil }
        let format = PropertyListReader.format(of: data)
        func encode(_ value: ArchivedValue) -> Data? {
            try? KeyedArchive(encoding: value, topKey: archive.topKey).data(format: format)
        }
        func trip(_ value: ArchivedValue) -> Trip<ArchivedValue> {
            guard let encoded = encode(value) else { return .refused }
            do {
                return .decoded(try KeyedArchive(data: encoded).decodeRoot())
            } catch {
                return .broken("our own \(format) archive does not decode: \(error)")
            }
        }
        let once: ArchivedValue
        switch trip(root) {
        case .refused: return nil
        case .broken(let reason): return reason
        case .decoded(let value): once = value
        }
        var (before, after) = (root, once)
        if format == .xml {
            switch trip(once) {
            case .refused: return "a re-encoded tree cannot be encoded again"
            case .broken(let reason): return reason
            case .decoded(let twice): (before, after) = (once, twice)
            }
        }
        if before != after, encode(before) != encode(after) {
            return "\(format) round trip changed \(before) into \(after)"
        }
        return nil
    }

    /// `URLRequestArchive(archiveData:)` and every accessor the CLI prints: archived again, the
    /// request decodes equal; and the in-place reader of binary request archives returns nothing,
    /// or exactly what the full decoder returns for input the full decoder accepts.
    public static func requestArchive(_ data: Data) -> String? {
        if let reason = rootFields(data) { return reason }
        if let fast = BinaryRequestArchiveReader.request(from: data) {
            guard let full = try? URLRequestArchive(archive: KeyedArchive(data: data)) else {
                return "the in-place reader decoded \(fast), which the full decoder refuses"
            }
            if fast != full || fast.items.map(\.description) != full.items.map(\.description),
               (try? fast.archiveData()) != (try? full.archiveData()) {
                return "the in-place reader gave \(fast), the full decoder \(full)"
            }
        }
        guard let request = try? URLRequestArchive(archiveData: data) else { return nil }
        // The accessors walk the decoded fields.
        _ = (request.urlString, request.mainDocumentURLString, request.timeoutInterval, request.cachePolicy,
             request.method, request.headers, request.hiddenHeaderArchive, request.body, request.isMutable,
             request.unconfirmedItems)
        guard let encoded = try? request.archiveData() else { return nil }
        let again: URLRequestArchive
        do {
            again = try URLRequestArchive(archiveData: encoded)
        } catch {
            return "our own request archive does not decode: \(error)"
        }
        if again != request, (try? again.archiveData()) != encoded {
            return "round trip changed \(request) into \(again)"
        }
        return nil
    }

    /// `KeyedArchive.rootFields` (the in-place reader of MBFile records) returns nothing, or what
    /// the full reader shows of the same fields.
    static func rootFields(_ data: Data) -> String? {
        let keys: [StaticString] = ["$class", "$1", "Size", "EncryptionKey", "NS.data"]
        guard let fast = KeyedArchive.rootFields(of: data, named: keys, maximumObjectCount: 1_000) else { return nil }
        guard let archive = try? KeyedArchive(data: data, options: KeyedArchiveOptions(maximumObjectCount: 1_000)),
              let root = (try? archive.object(at: archive.rootUID))?.dictionaryValue else {
            return "the in-place root reader read \(fast), which the full reader refuses"
        }
        let full = keys.map { key in
            root[key.description].map { KeyedArchiveField(value: $0, target: $0.uidValue.flatMap { try? archive.object(at: $0) }) }
        }
        return fast == full ? nil : "the in-place root reader gave \(fast), the full reader \(full)"
    }

    /// `ResumeData(data:)` in any container, and its accessors: written back in its own
    /// container, the blob reads back equal (the XML containers after one extra trip).
    public static func resumeData(_ data: Data) -> String? {
        guard let blob = try? ResumeData(data: data) else { return nil }
        _ = (blob.downloadURL, blob.bytesReceived, blob.tempFileName, blob.localPath, blob.entityTag,
             blob.currentRequest, blob.originalRequest, blob.otherEntries)
        func trip(_ value: ResumeData) -> Trip<ResumeData> {
            guard let encoded = try? value.encoded() else { return .refused }
            do {
                return .decoded(try ResumeData(data: encoded))
            } catch {
                return .broken("our own \(value.container) blob does not read: \(error)")
            }
        }
        let once: ResumeData
        switch trip(blob) {
        case .refused: return nil
        case .broken(let reason): return reason
        case .decoded(let value): once = value
        }
        var (before, after) = (blob, once)
        if blob.container.propertyListFormat == .xml {
            switch trip(once) {
            case .refused: return "a re-encoded blob cannot be encoded again"
            case .broken(let reason): return reason
            case .decoded(let twice): (before, after) = (once, twice)
            }
        }
        if before != after, (try? before.encoded()) != (try? after.encoded()) {
            return "\(blob.container) round trip changed \(before) into \(after)"
        }
        return nil
    }

    /// Written as XML and read back twice, trips 2 and 3 are equal.
    private static func xmlTrip(_ value: PropertyListValue) -> String? {
        let writer = PropertyListWriter()
        let reader = PropertyListReader()
        // Strings from binary input may hold characters XML 1.0 cannot; from XML input they cannot.
        guard let first = try? writer.write(value, as: .xml) else { return nil }
        do {
            let once = try reader.read(first).value
            let twice = try reader.read(writer.write(once, as: .xml)).value
            return once == twice ? nil : "XML trip 2 \(once) != trip 3 \(twice)"
        } catch {
            return "our own XML does not read back: \(error)"
        }
    }

    /// Written as binary and read back, equal (or, for a NaN date, written again to the same bytes).
    private static func binaryTrip(_ value: PropertyListValue) -> String? {
        let writer = PropertyListWriter()
        do {
            let bytes = try writer.write(value, as: .binary)
            let (again, format) = try PropertyListReader().read(bytes)
            guard format == .binary else { return "binary writer output read as \(format)" }
            if again != value, try writer.write(again, as: .binary) != bytes {
                return "binary round trip changed \(value) into \(again)"
            }
            return nil
        } catch {
            return "binary round trip failed: \(error)"
        }
    }

    /// One trip through an encoder and its decoder: the encoder refused the value (clean), our
    /// own output did not decode (a broken property), or the value decoded.
    private enum Trip<Value> {
        case refused
        case broken(String)
        case decoded(Value)
    }
}
