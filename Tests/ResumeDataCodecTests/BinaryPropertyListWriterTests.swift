import Foundation
import Testing
@testable import ResumeDataCodec

func writeBinary(_ value: PropertyListValue) throws -> [UInt8] {
    Array(try BinaryPropertyListWriter().write(value))
}

/// The header and trailer around a single object `body`, as the writer lays them out.
func singleObjectFile(_ body: [UInt8]) -> [UInt8] {
    var bytes = Array("bplist00".utf8) + body
    let tableOffset = bytes.count
    bytes.append(8)
    bytes += [0, 0, 0, 0, 0, 0, 1, 1]
    bytes += BinaryPlistBuilder.bigEndian(1, size: 8) + BinaryPlistBuilder.bigEndian(0, size: 8) + BinaryPlistBuilder.bigEndian(UInt64(tableOffset), size: 8)
    return bytes
}

/// A seeded SplitMix64, so the random values are the same on every run.
/// SplitMix64: a seeded generator, so random tests fail the same way every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random property-list values: every type, nested, with repeats so that sharing is exercised.
struct RandomPropertyList {
    var generator: SeededGenerator
    /// Leave out what plistlib cannot hold the same way (sets, 32-bit reals, -0.0 and nan, dates
    /// off whole seconds).
    var pythonCompatible = false

    init(seed: UInt64, pythonCompatible: Bool = false) {
        generator = SeededGenerator(state: seed)
        self.pythonCompatible = pythonCompatible
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    static let words = ["", "a", "key", "NS.keys", "$objects", "é", "e\u{301}", "日本語", "😀", "tab\there", "line\nbreak", "quote\"", "\u{7f}", "\u{80}", "ÿ", "a longer string that needs a length object"]

    mutating func string() -> String {
        switch int(0 ... 3) {
        case 0: return Self.words[int(0 ... Self.words.count - 1)]
        case 1: return String((0 ..< int(0 ... 40)).map { _ in Character(UnicodeScalar(UInt8(int(0x20 ... 0x7e)))) })
        case 2:
            let scalars = (0 ..< int(1 ... 20)).compactMap { _ in UnicodeScalar(UInt32(int(0 ... 3) == 0 ? int(0x1_0000 ... 0x10_FFFF) : int(0x20 ... 0xD7FF))) }
            return String(String.UnicodeScalarView(scalars))
        default: return "k\(int(0 ... 9))"
        }
    }

    mutating func scalar() -> PropertyListValue {
        switch int(0 ... 9) {
        case 0: return .string(string())
        case 1:
            let choices: [PropertyListInteger] = [
                0, 1, 255, 256, 65535, 65536, PropertyListInteger(Int64(UInt32.max)), PropertyListInteger(Int64(UInt32.max) + 1),
                -1, PropertyListInteger(Int64.min), PropertyListInteger(Int64.max), PropertyListInteger(UInt64.max), PropertyListInteger(UInt64(1) << 63),
                PropertyListInteger(Int64(int(-1_000_000 ... 1_000_000))),
                PropertyListInteger(Int64.random(in: .min ... .max, using: &generator)),
            ]
            return .integer(choices[int(0 ... choices.count - 1)])
        case 2:
            if !pythonCompatible, int(0 ... 3) == 0 { return .real(PropertyListReal(Float(int(-1000 ... 1000)) / 8)) }
            var choices: [Double] = [0, 1, 1.5, -2.25, 0.1, 1e300, -1e-300, .infinity, -.infinity, Double(int(-1_000_000 ... 1_000_000)) / 3]
            if !pythonCompatible { choices += [-0.0, .nan] }
            return .real(PropertyListReal(choices[int(0 ... choices.count - 1)]))
        case 3: return .boolean(int(0 ... 1) == 1)
        case 4:
            let seconds = Double(int(-2_000_000_000 ... 2_000_000_000))
            return .date(Date(timeIntervalSinceReferenceDate: pythonCompatible ? seconds : seconds + Double(int(0 ... 3)) / 4))
        case 5: return .data(Data((0 ..< int(0 ... 40)).map { _ in UInt8(int(0 ... 255)) }))
        case 6:
            let choices: [UInt64] = [0, 1, 255, 256, 65535, 65536, UInt64(UInt32.max), UInt64(UInt32.max) + 1, UInt64.max]
            return .uid(choices[int(0 ... choices.count - 1)])
        case 7: return .integer(PropertyListInteger(int(0 ... 3)))
        case 8: return .string("k\(int(0 ... 3))")
        default: return .boolean(true)
        }
    }

    mutating func value(depth: Int = 0) -> PropertyListValue {
        guard depth < 5, int(0 ... 2) == 0 || depth == 0 else { return scalar() }
        let count = int(0 ... (int(0 ... 9) == 0 ? 20 : 5))
        switch int(0 ... (pythonCompatible ? 1 : 2)) {
        case 0: return .array((0 ..< count).map { _ in value(depth: depth + 1) })
        case 1:
            var dictionary = PropertyListDictionary()
            for _ in 0 ..< count { dictionary[string()] = value(depth: depth + 1) }
            return .dictionary(dictionary)
        default: return .set((0 ..< count).map { _ in value(depth: depth + 1) })
        }
    }
}

@Suite struct BinaryPropertyListWriterTests {
    // MARK: Exact bytes of every object type

    @Test func booleans() throws {
        #expect(try writeBinary(true) == singleObjectFile([0x09]))
        #expect(try writeBinary(false) == singleObjectFile([0x08]))
    }

    @Test(arguments: [
        (PropertyListInteger(0), [0x10, 0] as [UInt8]),
        (255, [0x10, 0xFF]),
        (256, [0x11, 1, 0]),
        (65535, [0x11, 0xFF, 0xFF]),
        (65536, [0x12, 0, 1, 0, 0]),
        (PropertyListInteger(Int64(UInt32.max)), [0x12, 0xFF, 0xFF, 0xFF, 0xFF]),
        (PropertyListInteger(Int64(UInt32.max) + 1), [0x13, 0, 0, 0, 1, 0, 0, 0, 0]),
        (PropertyListInteger(Int64.max), [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        (-1, [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        (PropertyListInteger(Int64.min), [0x13, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        (PropertyListInteger(UInt64(1) << 63), [0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        (PropertyListInteger(UInt64.max), [0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
    ] as [(PropertyListInteger, [UInt8])])
    func integers(value: PropertyListInteger, body: [UInt8]) throws {
        let bytes = try writeBinary(.integer(value))
        #expect(bytes == singleObjectFile(body))
        #expect(try readBinary(Data(bytes)) == .integer(value))
    }

    @Test func reals() throws {
        #expect(try writeBinary(1.5) == singleObjectFile([0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]))
        let single = PropertyListValue.real(PropertyListReal(Float(1.5)))
        #expect(try writeBinary(single) == singleObjectFile([0x22, 0x3F, 0xC0, 0, 0]))
        #expect(try readBinary(Data(writeBinary(single))) == single)
        let nan = PropertyListValue.real(PropertyListReal(Double.nan))
        #expect(try readBinary(Data(writeBinary(nan))) == nan)
    }

    @Test func dates() throws {
        let date = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 1.5))
        #expect(try writeBinary(date) == singleObjectFile([0x33, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]))
        #expect(try readBinary(Data(writeBinary(date))) == date)
    }

    @Test func data() throws {
        #expect(try writeBinary(.data(Data([1, 2]))) == singleObjectFile([0x42, 1, 2]))
        #expect(try writeBinary(.data(Data())) == singleObjectFile([0x40]))
        let fifteen = Data(repeating: 7, count: 15)
        #expect(try writeBinary(.data(fifteen)) == singleObjectFile([0x4F, 0x10, 15] + fifteen))
        let long = Data(repeating: 9, count: 300)
        let bytes = try writeBinary(.data(long))
        #expect(bytes.prefix(12) == ArraySlice(Array("bplist00".utf8) + [0x4F, 0x11, 0x01, 0x2C]))
        #expect(try readBinary(Data(bytes)) == .data(long))
    }

    @Test func strings() throws {
        #expect(try writeBinary("AB") == singleObjectFile([0x52, 0x41, 0x42]))
        #expect(try writeBinary("") == singleObjectFile([0x50]))
        #expect(try writeBinary("\u{7f}") == singleObjectFile([0x51, 0x7F]))
        #expect(try writeBinary("é") == singleObjectFile([0x61, 0x00, 0xE9]))
        #expect(try writeBinary("a😀") == singleObjectFile([0x63, 0x00, 0x61, 0xD8, 0x3D, 0xDE, 0x00]))
        let long = String(repeating: "x", count: 20)
        #expect(try writeBinary(.string(long)) == singleObjectFile([0x5F, 0x10, 20] + Array(long.utf8)))
        for text in ["é", "e\u{301}", "日本語", "😀", String(repeating: "ü", count: 70)] {
            #expect(try readBinary(Data(writeBinary(.string(text)))) == .string(text))
        }
    }

    @Test(arguments: [
        (UInt64(0), [0x80, 0] as [UInt8]),
        (255, [0x80, 0xFF]),
        (256, [0x81, 1, 0]),
        (65536, [0x83, 0, 1, 0, 0]),
        (UInt64(UInt32.max) + 1, [0x87, 0, 0, 0, 1, 0, 0, 0, 0]),
        (UInt64.max, [0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
    ] as [(UInt64, [UInt8])])
    func uids(value: UInt64, body: [UInt8]) throws {
        #expect(try writeBinary(.uid(value)) == singleObjectFile(body))
        #expect(try readBinary(Data(writeBinary(.uid(value)))) == .uid(value))
    }

    @Test func containersAndTheirOrder() throws {
        // {"A": "B"} is exactly libplist's dictref1byte.bplist (and plistlib's output).
        #expect(try Data(writeBinary(["A": "B"])) == fixture("libplist/dictref1byte.bplist"))
        // Depth-first: the array, 1, the dict, its keys, then its values.
        let bytes = try writeBinary([1, ["k": "v", "j": [true]]])
        let objects: [UInt8] = [0xA2, 1, 2, 0x10, 1, 0xD2, 3, 4, 5, 6, 0x51, 0x6B, 0x51, 0x6A, 0x51, 0x76, 0xA1, 7, 0x09]
        #expect(Array(bytes.dropFirst(8).prefix(objects.count)) == objects)
        #expect(try readBinary(Data(bytes)) == [1, ["k": "v", "j": [true]]])
        let set = PropertyListValue.set(["a", 1])
        #expect(Array(try writeBinary(set).dropFirst(8).prefix(3)) == [0xC2, 1, 2])
        #expect(try readBinary(Data(writeBinary(set))) == set)
        #expect(try writeBinary([]) == singleObjectFile([0xA0]))
        #expect(try writeBinary(.dictionary([:])) == singleObjectFile([0xD0]))
    }

    @Test func dictionaryKeyOrderIsKept() throws {
        let value: PropertyListValue = ["z": 1, "a": 2, "m": 3]
        #expect(try readBinary(Data(writeBinary(value))).dictionaryValue?.keys == ["z", "a", "m"])
    }

    // MARK: Sharing

    /// The trailer's object count.
    func objectCount(_ bytes: [UInt8]) -> Int {
        Int(bytes[(bytes.count - 24) ..< (bytes.count - 16)].reduce(0) { $0 << 8 | UInt64($1) })
    }

    @Test func equalScalarsAreStoredOnceByTypeAndValue() throws {
        let value: PropertyListValue = [1, true, 1.0, "1", .uid(1), .data(Data([1])), .date(Date(timeIntervalSinceReferenceDate: 1)),
                                        1, true, 1.0, "1", .uid(1), .data(Data([1])), .date(Date(timeIntervalSinceReferenceDate: 1))]
        let bytes = try writeBinary(value)
        #expect(objectCount(bytes) == 8)
        #expect(Array(bytes[8 ..< 23]) == [0xAE, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7])
        #expect(try readBinary(Data(bytes)) == value)
    }

    @Test func keysAndValuesShareStrings() throws {
        // The dict, "a" (key and both values), "b", the array.
        let bytes = try writeBinary(["a": "a", "b": ["a"]])
        #expect(objectCount(bytes) == 4)
    }

    @Test func nearlyEqualScalarsStayApart() throws {
        // Canonically equivalent strings, 0.0 and -0.0, a 32- and a 64-bit 1.5.
        let value: PropertyListValue = ["é", "e\u{301}", 0.0, -0.0, .real(PropertyListReal(Float(1.5))), 1.5]
        let bytes = try writeBinary(value)
        #expect(objectCount(bytes) == 7)
        let read = try readBinary(Data(bytes))
        #expect(read == value)
        #expect(read.arrayValue?[1].stringValue?.unicodeScalars.count == 2)
        #expect(read.arrayValue?[3].doubleValue?.sign == .minus)
    }

    @Test func singleRealsShareByTheirExactValueNotTheirFourBytes() throws {
        // 1.1 marked single-precision is written as Float(1.1), the same four bytes as the exact
        // single Float(1.1); they are different values, so different objects.
        var inexact = PropertyListReal(1.1)
        inexact.isSinglePrecision = true
        let exact = PropertyListReal(Float(1.1))
        let value: PropertyListValue = [.real(inexact), .real(exact), .real(inexact), .real(exact), 1.1]
        let bytes = try writeBinary(value)
        #expect(objectCount(bytes) == 4)
        #expect(Array(bytes[8 ..< 14]) == [0xA5, 1, 2, 1, 2, 3])
        #expect(bytes[14 ..< 19] == bytes[19 ..< 24])
        #expect(try readBinary(Data(bytes)) == [.real(exact), .real(exact), .real(exact), .real(exact), 1.1])
    }

    @Test func containersAreNeverShared() throws {
        let bytes = try writeBinary([[], [], ["x": []], ["x": []]])
        #expect(objectCount(bytes) == 8)
    }

    // MARK: Reference and offset sizes

    @Test func smallestReferenceAndOffsetSizes() throws {
        func sizes(_ bytes: [UInt8]) -> (offset: UInt8, reference: UInt8) { (bytes[bytes.count - 26], bytes[bytes.count - 25]) }
        // 255 objects: 1-byte references; 256 objects: 2-byte.
        let small = try writeBinary(.array((0 ..< 254).map { .integer(PropertyListInteger($0)) }))
        #expect(objectCount(small) == 255)
        #expect(sizes(small).reference == 1)
        #expect(sizes(small).offset == 2)
        let large = try writeBinary(.array((0 ..< 255).map { .integer(PropertyListInteger($0)) }))
        #expect(objectCount(large) == 256)
        #expect(sizes(large).reference == 2)
        #expect(try readBinary(Data(large)).arrayValue?.count == 255)
        // The offset size follows the offset table's position: 1 byte up to 255, 4 past 65535.
        #expect(sizes(try writeBinary(.data(Data(count: 200)))).offset == 1)
        let big = try writeBinary(.data(Data(count: 70_000)))
        #expect(sizes(big).offset == 4)
        #expect(try readBinary(Data(big)) == .data(Data(count: 70_000)))
    }

    @Test func fourByteReferencesFrom65536Objects() throws {
        func referenceSize(_ bytes: [UInt8]) -> UInt8 { bytes[bytes.count - 25] }
        let below = try writeBinary(.array((0 ..< 65_534).map { .integer(PropertyListInteger($0)) }))
        #expect(objectCount(below) == 65_535)
        #expect(referenceSize(below) == 2)
        let at = try writeBinary(.array((0 ..< 65_535).map { .integer(PropertyListInteger($0)) }))
        #expect(objectCount(at) == 65_536)
        #expect(referenceSize(at) == 4)
        // The array's references: 4 bytes each, after its header (0xAF, then the count 65,535 as 0x11 + 2 bytes).
        #expect(Array(at[8 ..< 20]) == [0xAF, 0x11, 0xFF, 0xFF, 0, 0, 0, 1, 0, 0, 0, 2])
        #expect(try readBinary(Data(at)).arrayValue?.last == .integer(65_534))
    }

    // MARK: Narrowing references written wider

    /// Values whose references narrow: sharing leaves fewer objects than the bound counted.
    static var narrowingCases: [PropertyListValue] {
        let sharedStrings: PropertyListValue = .array((0 ..< 70_000).map { .string(["a", "bb", "ccc"][$0 % 3]) })
        var long = PropertyListDictionary()
        for index in 0 ..< 20 { long["key \(index)"] = index % 2 == 0 ? .set(["x", 1]) : .array(["x", [1, 2]]) }
        return [
            sharedStrings,
            .array((0 ..< 300).map { .integer(PropertyListInteger($0 % 10)) }),
            .dictionary(long),
            ["a": [[], .set([]), .dictionary([:])], "b": "a", "c": .data(Data(count: 20))],
            "a scalar on top",
        ]
    }

    @Test func referencesWrittenWiderAreNarrowedToTheSameBytes() throws {
        for value in Self.narrowingCases {
            let expected = try BinaryPropertyListWriter().write(value)
            for size in [2, 4, 8] {
                #expect(try BinaryPropertyListWriter(initialReferenceSize: size).write(value) == expected, "from \(size) bytes")
            }
        }
        var random = RandomPropertyList(seed: 0xA11_0C8)
        for _ in 0 ..< 200 {
            let value = random.value()
            let expected = try BinaryPropertyListWriter().write(value)
            #expect(try BinaryPropertyListWriter(initialReferenceSize: 8).write(value) == expected)
            #expect(try BinaryPropertyListWriter(initialReferenceSize: 2).write(value) == expected)
        }
    }

    @Test func seventyThousandReferencesToThreeStringsNarrowToOneByte() throws {
        let bytes = try writeBinary(Self.narrowingCases[0])
        #expect(objectCount(bytes) == 4)
        #expect(bytes[bytes.count - 25] == 1)
        // Header, 70,000 one-byte references, three strings, 4 two-byte offsets, trailer.
        #expect(bytes.count == 8 + 1 + 5 + 70_000 + 2 + 3 + 4 + 4 * 4 + 32)
        #expect(try readBinary(Data(bytes)) == Self.narrowingCases[0])
    }

    // MARK: Size bound

    @Test func sizeBoundHoldsAndIsExactWithoutSharing() throws {
        func bound(_ value: PropertyListValue) -> Int {
            var bound = BinaryPropertyListSizeBound()
            bound.add(value)
            return bound.fileSize(referenceSize: BinaryPropertyListTrailer.byteCount(toHold: bound.objectCount))
        }
        var random = RandomPropertyList(seed: 0xB0_0D)
        for _ in 0 ..< 200 {
            let value = random.value()
            #expect(try writeBinary(value).count <= bound(value))
        }
        let unshared: PropertyListValue = ["a": [1, 2.5, "é", .data(Data(count: 30)), .uid(300)], "b": .set([true])]
        #expect(try writeBinary(unshared).count == bound(unshared))
    }

    // MARK: Re-encoding

    @Test(arguments: ["libplist/data.bplist", "libplist/dictref1byte.bplist", "libplist/off1byte.bplist", "libplist/signed.bplist",
                      "libplist/unsigned.bplist", "libplist/signedunsigned.bplist", "libplist/uid.bplist"])
    func fixturesWrittenByPlistlibReEncodeByteForByte(name: String) throws {
        let original = try fixture(name)
        #expect(try BinaryPropertyListWriter().write(readBinary(original)) == original)
    }

    @Test(arguments: ["libplist/order.bplist", "libplist/dictref8bytes.bplist", "libplist/off8bytes.bplist",
                      "real/ios10.1-current-request.bplist", "real/ios10.1-original-request.bplist"])
    func otherFixturesRoundTrip(name: String) throws {
        let value = try readBinary(fixture(name))
        let bytes = try BinaryPropertyListWriter().write(value)
        #expect(try readBinary(bytes) == value)
        #expect(try BinaryPropertyListWriter().write(readBinary(bytes)) == bytes)
    }

    @Test func randomValuesRoundTripAndReEncodeIdentically() throws {
        var random = RandomPropertyList(seed: 0x5EED_B175)
        var containers = 0
        for _ in 0 ..< 300 {
            let value = random.value()
            let bytes = try BinaryPropertyListWriter().write(value)
            let read = try readBinary(bytes)
            #expect(read == value)
            #expect(try BinaryPropertyListWriter().write(read) == bytes)
            if case .dictionary(let dictionary) = value, let readDictionary = read.dictionaryValue {
                #expect(dictionary.keys == readDictionary.keys)
            }
            if value.arrayValue != nil || value.dictionaryValue != nil { containers += 1 }
        }
        #expect(containers > 100)
    }

    @Test func facadeWritesBinary() throws {
        let data = try PropertyListWriter().write(["k": .uid(3)], as: .binary)
        #expect(try PropertyListReader().read(data).value == ["k": .uid(3)])
    }
}
