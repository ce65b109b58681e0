import Foundation
import Testing
@testable import ResumeDataCodec

/// `KeyedArchive.rootFields(of:named:maximumObjectCount:)` must show exactly what the full reader
/// shows (`KeyedArchive(data:options:)`, then the root object's raw fields and what their UIDs
/// name), or nothing: these tests compare the two on MBFile-like records, the real request
/// archives and damaged or hostile ones.
@Suite struct KeyedArchiveFieldTests {
    typealias Support = KeyedArchiveTestSupport

    static let keys: [StaticString] = ["Size", "Mode", "LastStatusChange", "EncryptionKey", "RelativePath", "Missing", "$class"]

    /// What the full reader shows of each key, or its error.
    static func full(_ data: Data, keys: [StaticString], maximumObjectCount: Int) throws -> [KeyedArchiveField?] {
        let archive = try KeyedArchive(data: data, options: KeyedArchiveOptions(maximumObjectCount: maximumObjectCount))
        let root = try #require(try archive.object(at: archive.rootUID).dictionaryValue)
        return keys.map { key in
            root[key.description].map { value in
                KeyedArchiveField(value: value, target: value.uidValue.flatMap { try? archive.object(at: $0) })
            }
        }
    }

    /// The fast reader's fields, checked against the full reader's whenever it gives any.
    @discardableResult
    static func checkedFields(_ data: Data, keys: [StaticString] = keys, maximumObjectCount: Int = 1_000,
                              sourceLocation: SourceLocation = #_sourceLocation) -> [KeyedArchiveField?]? {
        let fast = KeyedArchive.rootFields(of: data, named: keys, maximumObjectCount: maximumObjectCount)
        if let fast {
            do {
                #expect(fast == (try full(data, keys: keys, maximumObjectCount: maximumObjectCount)), sourceLocation: sourceLocation)
            } catch {
                Issue.record("the fast reader read what the full reader refuses: \(error)", sourceLocation: sourceLocation)
            }
        }
        return fast
    }

    static func binary(_ value: PropertyListValue) throws -> Data {
        try PropertyListWriter().write(value, as: .binary)
    }

    /// An MBFile as BackupAgent2 archives it, with EncryptionKey as given.
    static func mbfile(encryptionKey: PropertyListValue?, extra: [PropertyListValue] = []) -> PropertyListValue {
        var root: PropertyListDictionary = [
            "LastModified": .integer(1_767_323_045), "LastStatusChange": .integer(1_767_225_600), "Size": .integer(4548),
            "Mode": .integer(0o100644), "ProtectionClass": .integer(3), "RelativePath": .uid(2), "$class": .uid(3),
        ]
        if let encryptionKey { _ = root.updateValue(encryptionKey, forKey: "EncryptionKey") }
        return Support.archive([.string("$null"), .dictionary(root), .string("Library/Preferences/com.example.app.plist"),
                                Support.classDescription("MBFile", "NSObject")] + extra)
    }

    static let wrappedKey = Data([3, 0, 0, 0]) + Data(repeating: 0xAB, count: 40)

    @Test func mbfileRecordsReadInPlace() throws {
        let nsData = PropertyListValue.dictionary(["NS.data": .data(Self.wrappedKey), "$class": .uid(5)])
        let shapes: [PropertyListValue] = [
            // BackupAgent2: an NSMutableData object by reference.
            Self.mbfile(encryptionKey: .uid(4), extra: [nsData, Support.classDescription("NSMutableData", "NSData", "NSObject")]),
            // Plain data by reference, data inline, no key, a UID out of range, a UID to a container.
            Self.mbfile(encryptionKey: .uid(4), extra: [.data(Self.wrappedKey)]),
            Self.mbfile(encryptionKey: .data(Self.wrappedKey)),
            Self.mbfile(encryptionKey: nil),
            Self.mbfile(encryptionKey: .uid(99)),
            Self.mbfile(encryptionKey: .uid(4), extra: [.array([.integer(1), .dictionary(["a": .uid(1)]), .array([])])]),
        ]
        for (number, shape) in shapes.enumerated() {
            let fields = try #require(Self.checkedFields(try Self.binary(shape)), "shape \(number)")
            #expect(fields.count == Self.keys.count)
            #expect(fields[0] == KeyedArchiveField(value: .integer(4548)))
            #expect(fields[4] == KeyedArchiveField(value: .uid(2), target: .string("Library/Preferences/com.example.app.plist")))
            #expect(fields[5] == nil)
            #expect(fields[6] == KeyedArchiveField(value: .uid(3), target: Support.classDescription("MBFile", "NSObject")))
        }
        let byReference = try #require(Self.checkedFields(try Self.binary(shapes[0])))
        #expect(byReference[3] == KeyedArchiveField(value: .uid(4), target: nsData))
        #expect(try #require(Self.checkedFields(try Self.binary(shapes[2])))[3] == KeyedArchiveField(value: .data(Self.wrappedKey)))
        #expect(try #require(Self.checkedFields(try Self.binary(shapes[3])))[3] == nil)
        #expect(try #require(Self.checkedFields(try Self.binary(shapes[4])))[3] == KeyedArchiveField(value: .uid(99)))
    }

    /// The real request archives: their root's fields read in place agree with the full reader.
    @Test func realArchivesAgree() throws {
        for name in [Support.currentRequestName, Support.originalRequestName] {
            let data = try Support.realFixture(name)
            let fields = try #require(Self.checkedFields(data, keys: ["$class", "$1", "startTimeoutTime", "NSURLRequest"],
                                                         maximumObjectCount: 100_000))
            #expect(fields[0]?.target == Support.classDescription("NSURLRequest", "NSObject"))
            #expect(fields[1] != nil && fields[2] != nil)
            #expect(fields[3] == nil)
        }
    }

    /// What the fast reader leaves to the full one: nil, while the full reader reads it or gives its error.
    @Test func leftToTheFullReader() throws {
        let record = Self.mbfile(encryptionKey: .data(Self.wrappedKey))
        // XML.
        let xml = try PropertyListWriter().write(record, as: .xml)
        #expect(Self.checkedFields(xml) == nil)
        #expect((try? Self.full(xml, keys: Self.keys, maximumObjectCount: 1_000)) != nil)
        // More objects than the caller's limit: the full reader refuses too.
        let binary = try Self.binary(record)
        #expect(Self.checkedFields(binary, maximumObjectCount: 3) == nil)
        #expect(throws: KeyedArchiveError.self) { try Self.full(binary, keys: Self.keys, maximumObjectCount: 3) }
        #expect(Self.checkedFields(binary, maximumObjectCount: 4) != nil)
        // A root that is no dictionary, an archive that is no keyed archive, damaged bytes, a
        // UTF-16 string, a 16-byte integer.
        #expect(Self.checkedFields(try Self.binary(Support.archive([.string("$null"), .string("root")]))) == nil)
        #expect(Self.checkedFields(try Self.binary(.dictionary(["Size": .integer(1)]))) == nil)
        #expect(Self.checkedFields(try BinaryRequestArchiveReaderTests.patch(binary, "$null", "$nulx")) == nil)
        #expect(Self.checkedFields(Data("bplist00".utf8)) == nil)
        #expect(Self.checkedFields(Data()) == nil)
        #expect(Self.checkedFields(try Self.binary(Self.mbfile(encryptionKey: .string("clé")))) == nil)
        let huge = PropertyListInteger(UInt64.max)
        #expect(Self.checkedFields(try Self.binary(Self.mbfile(encryptionKey: .integer(huge)))) == nil)
    }

    /// Containers shared along a chain would expand exponentially when converted: 2^14 values
    /// here, past the reader's budget, so the full reader (which keeps one copy of a shared
    /// container) decides.
    @Test func sharedContainersLeftToTheFullReader() throws {
        // Objects: 0 top, 1 "$archiver", 2 "NSKeyedArchiver", 3 "$version", 4 100000, 5 "$top",
        // 6 {root: uid 1}, 7 "root", 8 uid 1, 9 "$objects", 10 [$null, 12], 11 "$null",
        // 12 root {Chain: 14}, 13 "Chain", 14 ... 28: arrays [next, next], the last empty.
        var objects: [[UInt8]] = []
        func ascii(_ text: String) -> [UInt8] {
            let count = text.utf8.count
            return (count < 15 ? [0x50 | UInt8(count)] : [0x5F, 0x10, UInt8(count)]) + Array(text.utf8)
        }
        objects.append([0xD4, 1, 3, 5, 9, 2, 4, 6, 10])
        objects.append(ascii("$archiver"))
        objects.append(ascii("NSKeyedArchiver"))
        objects.append(ascii("$version"))
        objects.append([0x12, 0x00, 0x01, 0x86, 0xA0])
        objects.append(ascii("$top"))
        objects.append([0xD1, 7, 8])
        objects.append(ascii("root"))
        objects.append([0x80, 0x01])
        objects.append(ascii("$objects"))
        objects.append([0xA2, 11, 12])
        objects.append(ascii("$null"))
        objects.append([0xD1, 13, 14])
        objects.append(ascii("Chain"))
        for index in 14 ..< 28 { objects.append([0xA2, UInt8(index + 1), UInt8(index + 1)]) }
        objects.append([0xA0])
        var data = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(data.count)
            data += object
        }
        let table = data.count
        for offset in offsets { data += [UInt8(offset)] }
        data += [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [objects.count, 0, table] { data += withUnsafeBytes(of: UInt64(value).bigEndian, Array.init) }
        let archive = Data(data)
        let full = try Self.full(archive, keys: ["Chain"], maximumObjectCount: 1_000)
        #expect(full[0]?.value.arrayValue?.count == 2)
        #expect(Self.checkedFields(archive, keys: ["Chain"]) == nil)
        // One link shorter than the budget allows: read in place, and equal.
        var short = data
        let link = offsets[20]
        short[link] = 0xA0
        #expect(Self.checkedFields(Data(short), keys: ["Chain"]) != nil)
    }
}
