import Foundation
import Testing
@testable import ResumeDataCodec

/// Loads a file from the test fixtures, e.g. `fixture("libplist/uid.bplist")`.
func fixture(_ name: String) throws -> Data {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil), "missing fixture \(name)")
    return try Data(contentsOf: url)
}

/// Builds a `bplist00` file from hand-written objects, with every trailer field overridable so
/// tests can make each one wrong.
struct BinaryPlistBuilder {
    var objects: [[UInt8]]
    var referenceSize = 1
    /// Offset-table entry size; by default the smallest of 1, 2, 4, 8 that reaches the table.
    var offsetSize: Int?
    var topObject: UInt64 = 0
    /// Replaces the object count in the trailer (the offset table still has one entry per object).
    var claimedObjectCount: UInt64?
    /// Replaces the offset-table offset in the trailer.
    var claimedTableOffset: UInt64?
    /// Replaces individual offset-table entries.
    var offsetOverrides: [Int: UInt64] = [:]
    var sortVersion: UInt8 = 0

    init(_ objects: [[UInt8]]) { self.objects = objects }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0 ..< size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - $0))) }
    }

    /// Where each object starts.
    var offsets: [Int] {
        var result: [Int] = []
        var position = 8
        for object in objects {
            result.append(position)
            position += object.count
        }
        return result
    }

    var resolvedOffsetSize: Int {
        offsetSize ?? (tableOffset < 1 << 8 ? 1 : tableOffset < 1 << 16 ? 2 : tableOffset < 1 << 32 ? 4 : 8)
    }

    var tableOffset: Int { 8 + objects.reduce(0) { $0 + $1.count } }

    var data: Data {
        var bytes = Array("bplist00".utf8)
        for object in objects { bytes += object }
        let offsetSize = resolvedOffsetSize
        for (index, offset) in offsets.enumerated() {
            bytes += Self.bigEndian(offsetOverrides[index] ?? UInt64(offset), size: offsetSize)
        }
        bytes += [0, 0, 0, 0, 0, sortVersion, UInt8(truncatingIfNeeded: offsetSize), UInt8(truncatingIfNeeded: referenceSize)]
        bytes += Self.bigEndian(claimedObjectCount ?? UInt64(objects.count), size: 8)
        bytes += Self.bigEndian(topObject, size: 8)
        bytes += Self.bigEndian(claimedTableOffset ?? UInt64(tableOffset), size: 8)
        return Data(bytes)
    }

}

/// A whole file holding one object.
func bplist(_ object: [UInt8]) -> Data { BinaryPlistBuilder([object]).data }

func readBinary(_ data: Data, options: PropertyListReadOptions = .default) throws -> PropertyListValue {
    try BinaryPropertyListReader(options: options).read(data)
}

/// Reads and returns the error, failing the test when reading succeeds or throws another type.
func binaryError(_ data: Data, options: PropertyListReadOptions = .default, sourceLocation: SourceLocation = #_sourceLocation) -> PropertyListError? {
    do {
        let value = try readBinary(data, options: options)
        Issue.record("expected an error, read \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as PropertyListError {
        return error
    } catch {
        Issue.record("unexpected error type \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// `marker` followed by the big-endian bytes of `value`.
func object(_ marker: UInt8, _ value: UInt64, size: Int) -> [UInt8] {
    [marker] + BinaryPlistBuilder.bigEndian(value, size: size)
}

@Suite struct BinaryPropertyListReaderTests {
    // MARK: Scalars

    @Test func booleans() throws {
        #expect(try readBinary(bplist([0x08])) == false)
        #expect(try readBinary(bplist([0x09])) == true)
    }

    /// CoreFoundation reads marker 0x00 as kCFNull, swift-foundation as its null value; fill
    /// (0x0F) is padding that neither reads as an object.
    @Test func nullReadsAndFillHasNoValue() throws {
        #expect(try readBinary(bplist([0x00])) == .null)
        #expect(try readBinary(BinaryPlistBuilder([[0xA2, 1, 2], [0x00], [0x09]]).data) == [.null, true])
        #expect(try readBinary(BinaryPlistBuilder([[0xD1, 1, 2], [0x51, 0x6B], [0x00]]).data) == ["k": .null])
        let fill = try #require(binaryError(bplist([0x0F])))
        #expect(fill.code == .unrepresentable)
        #expect(fill.location == .byteOffset(8, objectIndex: 0))
        #expect(fill.reason == "a fill byte (marker 0x0f) is padding, not an object")
    }

    /// CoreFoundation and swift-foundation read any `bplist0?` header (rdar://5877417); a
    /// different seventh byte is not this format.
    @Test func anyEighthHeaderByteReads() throws {
        for eighth in Array("019x".utf8) + [0x00, 0xFF] {
            var bytes = bplist([0x09])
            bytes[7] = eighth
            let document = try PropertyListReader().readDocument(bytes)
            #expect(document.value == true, "bplist0 + \(eighth)")
            #expect(document.format == .binary)
        }
        var seventh = bplist([0x09])
        seventh[6] = UInt8(ascii: "1")
        #expect(PropertyListReader.format(of: seventh) == .xml)
        #expect(PropertyListReader.format(of: Array("bplist0".utf8)) == .xml)
    }

    @Test func unknownMarkers() throws {
        for marker: UInt8 in [0x01, 0x0C, 0x0D, 0x0E, 0x30, 0x34, 0x70, 0x90, 0xB0, 0xE0, 0xF0] {
            let error = try #require(binaryError(bplist([marker, 0, 0, 0, 0, 0, 0, 0, 0])))
            #expect(error.code == .unknownObjectType, "marker \(marker)")
            #expect(error.location == .byteOffset(8, objectIndex: 0))
        }
    }

    @Test func integersOfEveryWidth() throws {
        #expect(try readBinary(bplist(object(0x10, 0xFF, size: 1))) == 255)
        #expect(try readBinary(bplist(object(0x11, 0xFFFF, size: 2))) == 65535)
        #expect(try readBinary(bplist(object(0x12, 0xFFFF_FFFF, size: 4))) == 4_294_967_295)
        #expect(try readBinary(bplist(object(0x13, 0x7FFF_FFFF_FFFF_FFFF, size: 8))) == .integer(PropertyListInteger(Int64.max)))
        #expect(try readBinary(bplist(object(0x13, UInt64.max, size: 8))) == -1)
        #expect(try readBinary(bplist(object(0x13, 1 << 63, size: 8))) == .integer(PropertyListInteger(Int64.min)))
        #expect(try readBinary(bplist([0x14] + [UInt8](repeating: 0, count: 8) + BinaryPlistBuilder.bigEndian(UInt64.max, size: 8))) == .integer(PropertyListInteger(UInt64.max)))
        #expect(try readBinary(bplist([0x14] + [UInt8](repeating: 0, count: 15) + [7])) == 7)
        // A sign-extended 128-bit negative number fits Int64.
        #expect(try readBinary(bplist([0x14] + [UInt8](repeating: 0xFF, count: 16))) == -1)
    }

    @Test func integersThatDoNotFit() throws {
        let big = try #require(binaryError(bplist([0x14, 0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8))))
        #expect(big.code == .integerOverflow)
        #expect(big.location == .byteOffset(9, objectIndex: 0))
        // High bytes all ones but a positive low half: below -2^63.
        let low = try #require(binaryError(bplist([0x14] + [UInt8](repeating: 0xFF, count: 8) + [0x7F] + [UInt8](repeating: 0, count: 7))))
        #expect(low.code == .integerOverflow)
        let wide = try #require(binaryError(bplist([0x15] + [UInt8](repeating: 0, count: 32))))
        #expect(wide.code == .invalidValue)
        #expect(wide.location == .byteOffset(8, objectIndex: 0))
    }

    @Test func reals() throws {
        #expect(try readBinary(bplist(object(0x23, (1.5 as Double).bitPattern, size: 8))) == .real(PropertyListReal(1.5)))
        #expect(try readBinary(bplist(object(0x22, UInt64((0.1 as Float).bitPattern), size: 4))) == .real(PropertyListReal(Float(0.1))))
        let nan = try readBinary(bplist(object(0x23, Double.nan.bitPattern, size: 8)))
        #expect(nan == .real(PropertyListReal(Double.nan)))
        let half = try #require(binaryError(bplist(object(0x21, 0, size: 2))))
        #expect(half.code == .invalidValue)
    }

    @Test func dates() throws {
        let value = try readBinary(bplist(object(0x33, (-978_307_200.5 as Double).bitPattern, size: 8)))
        #expect(value == .date(Date(timeIntervalSinceReferenceDate: -978_307_200.5)))
        #expect(value.dateValue?.timeIntervalSince1970 == -0.5)
    }

    @Test func dataShortAndLong() throws {
        #expect(try readBinary(bplist([0x43, 1, 2, 3])) == .data(Data([1, 2, 3])))
        #expect(try readBinary(bplist([0x40])) == .data(Data()))
        let long = [UInt8](repeating: 0xAB, count: 300)
        #expect(try readBinary(bplist([0x4F, 0x11, 0x01, 0x2C] + long)) == .data(Data(long)))
        #expect(try readBinary(bplist([0x4F, 0x10, 15] + long.prefix(15))) == .data(Data(long.prefix(15))))
        // A length in 8 bytes is fine too.
        #expect(try readBinary(bplist([0x4F, 0x13] + BinaryPlistBuilder.bigEndian(2, size: 8) + [9, 8])) == .data(Data([9, 8])))
    }

    @Test func asciiStrings() throws {
        #expect(try readBinary(bplist([0x55] + Array("hello".utf8))) == "hello")
        #expect(try readBinary(bplist([0x50])) == "")
        let text = String(repeating: "abcdefghij", count: 10)
        #expect(try readBinary(bplist([0x5F, 0x10, 100] + Array(text.utf8))) == .string(text))
        let high = try #require(binaryError(bplist([0x5A] + Array("abcdefghi".utf8) + [0xE9])))
        #expect(high.code == .invalidString)
        #expect(high.location == .byteOffset(18, objectIndex: 0))
    }

    @Test func utf16Strings() throws {
        // "é😀" = U+00E9, U+1F600 (D83D DE00).
        #expect(try readBinary(bplist([0x63, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00])) == "é😀")
        #expect(try readBinary(bplist([0x60])) == "")
        // Non-canonical but legal: ASCII text stored as UTF-16.
        #expect(try readBinary(bplist([0x62, 0x00, 0x41, 0x00, 0x42])) == "AB")
    }

    @Test func uidsOfEveryWidth() throws {
        #expect(try readBinary(bplist([0x80, 7])) == .uid(7))
        #expect(try readBinary(bplist([0x81, 1, 0])) == .uid(256))
        #expect(try readBinary(bplist([0x82, 1, 0, 0])) == .uid(65536))
        #expect(try readBinary(bplist(object(0x83, 0xDEAD_BEEF, size: 4))) == .uid(0xDEAD_BEEF))
        #expect(try readBinary(bplist(object(0x87, UInt64.max, size: 8))) == .uid(UInt64.max))
        #expect(try readBinary(bplist([0x8F] + [UInt8](repeating: 0, count: 15) + [42])) == .uid(42))
        let big = try #require(binaryError(bplist([0x88, 1] + [UInt8](repeating: 0, count: 8))))
        #expect(big.code == .integerOverflow)
        #expect(big.location == .byteOffset(9, objectIndex: 0))
    }

    // MARK: Containers

    @Test func arraysSetsAndDictionaries() throws {
        let array = BinaryPlistBuilder([[0xA3, 1, 2, 1], [0x10, 5], [0x51, 0x78]]).data
        #expect(try readBinary(array) == [5, "x", 5])
        let set = BinaryPlistBuilder([[0xC2, 1, 2], [0x10, 5], [0x51, 0x78]]).data
        #expect(try readBinary(set) == .set([5, "x"]))
        let dictionary = BinaryPlistBuilder([[0xD2, 1, 2, 3, 4], [0x51, 0x62], [0x51, 0x61], [0x09], [0x80, 3]]).data
        let value = try readBinary(dictionary)
        #expect(value == ["b": true, "a": .uid(3)])
        #expect(value.dictionaryValue?.keys == ["b", "a"])
        #expect(try readBinary(bplist([0xA0])) == [])
        #expect(try readBinary(bplist([0xD0])) == .dictionary([:]))
    }

    @Test func longContainerCounts() throws {
        var objects: [[UInt8]] = [[0xAF, 0x10, 20] + (0 ..< 20).map { _ in UInt8(1) }, [0x10, 9]]
        #expect(try readBinary(BinaryPlistBuilder(objects).data) == .array(Array(repeating: 9, count: 20)))
        objects[0] = [0xDF, 0x10, 1, 1, 1]
        let error = try #require(binaryError(BinaryPlistBuilder(objects).data))
        #expect(error.code == .invalidKey)
    }

    @Test func referenceAndOffsetSizesOneToEight() throws {
        for size in 1 ... 8 {
            let reference = { (index: UInt64) in BinaryPlistBuilder.bigEndian(index, size: size) }
            var builder = BinaryPlistBuilder([[0xD1] + reference(1) + reference(2), [0x51, 0x41], [0x51, 0x42]])
            builder.referenceSize = size
            builder.offsetSize = size
            #expect(try readBinary(builder.data) == ["A": "B"], "size \(size)")
        }
    }

    @Test func sharedObjectsAreDecodedOnce() throws {
        // Forty arrays, each holding the next twice: 2^40 paths to the last one. Without reuse of
        // decoded objects this would never finish.
        var objects: [[UInt8]] = (0 ..< 40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x10, 1])
        var value = try readBinary(BinaryPlistBuilder(objects).data)
        for _ in 0 ..< 40 {
            let elements = try #require(value.arrayValue)
            #expect(elements.count == 2)
            #expect(elements[0] == elements[1])
            value = elements[0]
        }
        #expect(value == 1)
    }

    @Test func keysMustBeStrings() throws {
        let error = try #require(binaryError(BinaryPlistBuilder([[0xD1, 1, 2], [0x10, 1], [0x09]]).data))
        #expect(error.code == .invalidKey)
        #expect(error.location == .byteOffset(9, objectIndex: 0))
        #expect(error.reason == "key 0 is an integer (object 1), not a string")
    }

    @Test func duplicateKeysAreErrorsWhenStrict() throws {
        let error = try #require(binaryError(BinaryPlistBuilder([[0xD2, 1, 1, 2, 2], [0x51, 0x6B], [0x09]]).data, options: .strict))
        #expect(error.code == .duplicateKey)
        #expect(error.reason == "key \"k\" appears twice")
        #expect(error.location == .byteOffset(10, objectIndex: 0))
    }

    @Test func duplicateKeysKeepTheLastValueWithAWarning() throws {
        // {"k": 1, "k": 2} as CoreFoundation reads it.
        let data = BinaryPlistBuilder([[0xD2, 1, 1, 2, 3], [0x51, 0x6B], [0x10, 1], [0x10, 2]]).data
        let read = try BinaryPropertyListReader(options: .default).readReportingWarnings(data)
        #expect(read.value == ["k": 2])
        #expect(read.warnings.map(\.description) == ["byte 0xa: object 0: k: key \"k\" appears twice; the last value is kept"])
    }

    @Test func duplicateKeysInsideCarryTheirPath() throws {
        // {"a": [true, {"k": 1, "k": 2}], "b": {"a": 1, "a": 2}}: the warnings name where they are,
        // through an array, a dictionary read the usual way and one whose keys repeat.
        let data = BinaryPlistBuilder([
            [0xD2, 1, 2, 3, 4], [0x51, 0x61], [0x51, 0x62], [0xA2, 5, 6], [0xD2, 1, 1, 7, 8],
            [0x09], [0xD2, 9, 9, 7, 8], [0x10, 1], [0x10, 2], [0x51, 0x6B],
        ]).data
        let read = try BinaryPropertyListReader(options: .default).readReportingWarnings(data)
        #expect(read.value == ["a": [true, ["k": 2]], "b": ["a": 2]])
        #expect(read.warnings.map(\.keyPath) == ["a[1].k", "b.a"])
        #expect(read.warnings.map(\.location) == [.byteOffset(0x1c, objectIndex: 6), .byteOffset(0x16, objectIndex: 4)])
    }

    /// [{"a": 1, "b": 2}, {"a": 3, "b": 4}, {"b": 5, "a": 6}, {"a": 7, "b": <last>}], every
    /// dictionary naming the same two key objects.
    static func recordsWithSharedKeys(last: [UInt8]) -> BinaryPlistBuilder {
        BinaryPlistBuilder([
            [0xA4, 1, 2, 3, 4],
            [0xD2, 5, 6, 7, 8], [0xD2, 5, 6, 9, 10], [0xD2, 6, 5, 11, 12], [0xD2, 5, 6, 13, 14],
            [0x51, 0x61], [0x51, 0x62],
            [0x10, 1], [0x10, 2], [0x10, 3], [0x10, 4], [0x10, 5], [0x10, 6], [0x10, 7], last,
        ])
    }

    @Test func dictionariesWithTheSameKeyObjectsReadAlike() throws {
        let value = try readBinary(Self.recordsWithSharedKeys(last: [0x10, 8]).data)
        #expect(value == [["a": 1, "b": 2], ["a": 3, "b": 4], ["b": 5, "a": 6], ["a": 7, "b": 8]])
        let records = try #require(value.arrayValue).compactMap(\.dictionaryValue)
        #expect(records.map(\.keys) == [["a", "b"], ["a", "b"], ["b", "a"], ["a", "b"]])
        #expect(records[1]["b"] == 4)
        #expect(records[3][1].value == 8)
        // Each is still its own value.
        var changed = records[1]
        changed["c"] = true
        changed["a"] = nil
        #expect(changed.keys == ["b", "c"])
        #expect(records[1].keys == ["a", "b"] && records[3].keys == ["a", "b"])
    }

    @Test func errorsInDictionariesWithSharedKeysCarryTheKey() throws {
        let builder = Self.recordsWithSharedKeys(last: [0x61, 0xD8, 0x00])
        let error = try #require(binaryError(builder.data))
        #expect(error.code == .invalidString)
        #expect(error.keyPath == "[3].b")
        #expect(error.location == .byteOffset(builder.offsets[14] + 1, objectIndex: 14))
    }

    @Test func dictionariesAfterOneWithDuplicateKeysReadAlike() throws {
        // [{"k": 1, "k": 2}, {"k": 3, "k": 4}] with .keepLast, then the same keys without repeats.
        let data = BinaryPlistBuilder([
            [0xA3, 1, 2, 3], [0xD2, 4, 4, 5, 6], [0xD2, 4, 4, 7, 8], [0xD1, 4, 5],
            [0x51, 0x6B], [0x10, 1], [0x10, 2], [0x10, 3], [0x10, 4],
        ]).data
        let value = try BinaryPropertyListReader(options: .init(duplicateKeys: .keepLast)).read(data)
        #expect(value == [["k": 2], ["k": 4], ["k": 1]])
        #expect(binaryError(data, options: .strict)?.code == .duplicateKey)
    }

    @Test func manyDifferentKeyListsReadAlike() throws {
        // More key lists than the reader remembers, interleaved, so they replace each other.
        let value: PropertyListValue = .array((0 ..< 200).map { index in
            var record = PropertyListDictionary()
            record["k\(index % 37)"] = .integer(PropertyListInteger(index))
            record["x"] = .integer(PropertyListInteger(index % 3))
            if index % 5 == 0 { record["y"] = true }
            return .dictionary(record)
        })
        let read = try readBinary(BinaryPropertyListWriter().write(value))
        #expect(read == value)
        #expect(read.arrayValue?.compactMap { $0.dictionaryValue?.keys } == value.arrayValue?.compactMap { $0.dictionaryValue?.keys })
    }

    @Test func errorsInsideContainersCarryTheKeyPath() throws {
        // {"a": [1, {"b": <lone surrogate>}]}
        let objects: [[UInt8]] = [
            [0xD1, 1, 2], [0x51, 0x61], [0xA2, 3, 4], [0x10, 1], [0xD1, 5, 6], [0x51, 0x62], [0x61, 0xD8, 0x00],
        ]
        let builder = BinaryPlistBuilder(objects)
        let error = try #require(binaryError(builder.data))
        #expect(error.code == .invalidString)
        #expect(error.keyPath == "a[1].b")
        #expect(error.location == .byteOffset(builder.offsets[6] + 1, objectIndex: 6))
        #expect(error.description.hasPrefix("byte 0x\(String(builder.offsets[6] + 1, radix: 16)): object 6: a[1].b: lead surrogate 0xd800"))
    }

    @Test func topObjectNeedNotBeFirst() throws {
        var builder = BinaryPlistBuilder([[0x51, 0x41], [0xA1, 0]])
        builder.topObject = 1
        #expect(try readBinary(builder.data) == ["A"])
    }

    // MARK: libplist fixtures

    @Test(arguments: ["dictref1byte", "dictref2bytes", "dictref3bytes", "dictref4bytes", "dictref5bytes", "dictref6bytes", "dictref7bytes", "dictref8bytes",
                      "off1byte", "off2bytes", "off3bytes", "off4bytes", "off5bytes", "off6bytes", "off7bytes", "off8bytes"])
    func referenceAndOffsetSizeFixtures(name: String) throws {
        let value = try readBinary(fixture("libplist/\(name).bplist"))
        #expect(value == ["A": "B"])
        // offxml.plist spells the same value.
        let xml = try #require(String(data: fixture("libplist/offxml.plist"), encoding: .utf8))
        #expect(xml.contains("<key>A</key>\n\t<string>B</string>"))
    }

    @Test func orderFixtureSharesObjects() throws {
        let value = try readBinary(fixture("libplist/order.bplist"))
        let expected: PropertyListValue = ["test": [1, 1], "foo": [[1], ["test": "foo"], [1], [1]]]
        #expect(value == expected)
        #expect(value.dictionaryValue?.keys == ["test", "foo"])
    }

    @Test func signedAndUnsignedFixtures() throws {
        #expect(try readBinary(fixture("libplist/signed.bplist")) == -1)
        #expect(try readBinary(fixture("libplist/unsigned.bplist")) == .integer(PropertyListInteger(UInt64.max)))
        let mixed = try readBinary(fixture("libplist/signedunsigned.bplist"))
        let expected: PropertyListValue = [
            -1, .integer(PropertyListInteger(UInt64.max)), .integer(PropertyListInteger(Int64.max)),
            .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64(1) << 63)),
        ]
        #expect(mixed == expected)
        // The XML twins spell the same numbers.
        let xml = try #require(String(data: fixture("libplist/signedunsigned.plist"), encoding: .utf8))
        let numbers = xml.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.range(of: "<integer>"), let close = line.range(of: "</integer>") else { return nil }
            return String(line[open.upperBound ..< close.lowerBound])
        }
        #expect(numbers == (mixed.arrayValue ?? []).map { value in
            if case .integer(let integer) = value { return integer.description }
            return "?"
        })
        #expect(try String(data: fixture("libplist/signed.plist"), encoding: .utf8)?.contains("<integer>-1</integer>") == true)
        #expect(try String(data: fixture("libplist/unsigned.plist"), encoding: .utf8)?.contains("<integer>18446744073709551615</integer>") == true)
    }

    @Test func dataAndUIDFixtures() throws {
        let data = try readBinary(fixture("libplist/data.bplist"))
        let bytes = try #require(data.dictionaryValue?["Some Data"]?.dataValue)
        #expect(bytes.count == 3655)
        #expect(bytes.prefix(14) == Data("0123456789TEST".utf8))
        #expect(try readBinary(fixture("libplist/uid.bplist")) == .uid(7))
    }

    @Test func malformedDictFixtureIsRejected() throws {
        let error = try #require(binaryError(fixture("libplist/malformed_dict.bplist")))
        #expect(error.code == .invalidKey)
        #expect(error.location == .byteOffset(0x23, objectIndex: 7))
        #expect(error.reason == "key 0 is an array (object 2), not a string")
    }

    @Test func recursionFixtureIsACycle() throws {
        let error = try #require(binaryError(fixture("libplist/recursion.bplist")))
        #expect(error.code == .cycle)
        // The top object is 1, {"B": object 0, …}, and object 0 is {"A": object 1}.
        #expect(error.location == .byteOffset(0x0a, objectIndex: 0))
        #expect(error.reason == "object 1 contains itself (reference cycle through object 0)")
        #expect(error.keyPath == "B.A")
    }

    // MARK: Real Apple archives

    @Test func currentRequestArchive() throws {
        let value = try readBinary(fixture("real/ios10.1-current-request.bplist"))
        let archive = try #require(value.dictionaryValue)
        #expect(archive.keys == ["$version", "$objects", "$archiver", "$top"])
        #expect(archive["$version"] == 100000)
        #expect(archive["$archiver"] == "NSKeyedArchiver")
        #expect(archive["$top"] == ["NSKeyedArchiveRootObjectKey": .uid(1)])
        let objects = try #require(archive["$objects"]?.arrayValue)
        #expect(objects.count == 25)
        #expect(objects[0] == "$null")
        #expect(objects[2] == false)
        #expect(objects[3] == ["NS.base": .uid(0), "$class": .uid(5), "NS.relative": .uid(4)])
        #expect(objects[4] == "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg")
        #expect(objects[5] == ["$classname": "NSURL", "$classes": ["NSURL", "NSObject"]])
        #expect(objects[6] == 60.0)
        #expect(objects[11] == -1)
        #expect(objects[13] == "GET")
        #expect(objects[14] == ["NS.keys": [.uid(15), .uid(16), .uid(17), .uid(18)], "NS.objects": [.uid(19), .uid(20), .uid(21), .uid(22)], "$class": .uid(23)])
        #expect(objects[19] == "DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0")
        #expect(objects[23] == ["$classname": "NSMutableDictionary", "$classes": ["NSMutableDictionary", "NSDictionary", "NSObject"]])
        let request = try #require(objects[1].dictionaryValue)
        #expect(request.count == 31)
        #expect(request.keys.prefix(4) == ["$1", "__nsurlrequest_proto_prop_obj_20", "__nsurlrequest_proto_prop_obj_21", "startTimeoutTime"])
        #expect(request["$0"] == 2)
        #expect(request["$1"] == 9)
        #expect(request["$2"] == 22)
        #expect(request["$class"] == .uid(24))
        #expect(request["__nsurlrequest_proto_prop_obj_19"] == .uid(14))
        #expect(request["requiresShortConnectionTimeout"] == false)
        #expect(request["payloadTransmissionTimeout"] == 0.0)
    }

    @Test func originalRequestArchive() throws {
        let value = try readBinary(fixture("real/ios10.1-original-request.bplist"))
        let objects = try #require(value.dictionaryValue?["$objects"]?.arrayValue)
        #expect(objects.count == 12)
        #expect(objects[10] == -1)
        #expect(objects[11] == ["$classname": "NSURLRequest", "$classes": ["NSURLRequest", "NSObject"]])
        #expect(objects[1].dictionaryValue?["$class"] == .uid(11))
    }

    @Test func archivesMatchTheHexInTheNSLogDump() throws {
        // The NSLog text prints the current request archive as `<62706c69 …>`; the fixture is
        // those bytes.
        let text = try #require(String(data: fixture("real/ios10.1-resume-dictionary-nslog.txt"), encoding: .utf8))
        let marker = try #require(text.range(of: "NSURLSessionResumeCurrentRequest = <"))
        let end = try #require(text[marker.upperBound...].firstIndex(of: ">"))
        let hex = text[marker.upperBound ..< end].filter { !$0.isWhitespace }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[index ..< next], radix: 16)))
            index = next
        }
        #expect(Data(bytes) == (try fixture("real/ios10.1-current-request.bplist")))
    }

    @Test func facadeReadsBinary() throws {
        let (value, format) = try PropertyListReader().read(fixture("libplist/uid.bplist"))
        #expect(value == .uid(7))
        #expect(format == .binary)
    }
}
