import Foundation
import Testing
@testable import ResumeDataCodec

/// The one-stop list of hostile inputs from issue 6. Each must fail with a clear error (code,
/// position, and a message naming the place), never crash, hang or allocate what the input claims.
///
/// Some of these also live, with more variants, in BinaryHostileInputTests and XMLHostileInputTests.
/// No test here is timed (project rule); the inputs are made big enough (a million levels, a
/// million objects, 2^31 claimed) that a non-linear or allocate-first reader would visibly hang or
/// run out of memory. Measured times are in FuzzTesting/README.md.
@Suite struct HostileInputTests {
    typealias XML = XMLTestSupport

    // MARK: XML

    @Test func billionLaughs() throws {
        var document = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "&lol;" : "&lol\(level - 1);"
            document += "<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        document += "]>\n<plist><string>&lol9;</string></plist>\n"
        // Refused at the internal subset's '[', before any declaration is parsed, as Apple refuses it.
        let error = try #require(XML.readError(document))
        #expect(error.code == .malformedXML)
        #expect(error.location == .lineColumn(line: 2, column: 17))
        #expect(error.reason == "an internal DTD subset (<!DOCTYPE plist [...]>) is not allowed: Apple's property-list readers refuse it")
        // Through the resume-data entry point too.
        let blobError = try #require(resumeDataError(Data(document.utf8)))
        #expect(blobError.code == .unreadable)
        #expect(blobError.location == .lineColumn(line: 2, column: 17))
        // A reference to an entity declared nowhere is refused, never looked up.
        let reference = try #require(XML.readError("<plist><string>&lol9;</string></plist>"))
        #expect(reference.code == .malformedXML)
        #expect(reference.reason == "Entity 'lol9' not defined: a property list may use only &amp; &lt; &gt; &apos; &quot; and character references")
    }

    @Test func externalEntityNamingALocalFile() throws {
        let secret = "resumetool-secret-\(UInt64.random(in: 0...UInt64.max))"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(secret).txt")
        try Data(secret.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let document = "<!DOCTYPE plist [<!ENTITY xxe SYSTEM \"\(url.absoluteString)\">]>\n<plist><string>&xxe;</string></plist>"
        let error = try #require(XML.readError(document))
        #expect(error.code == .malformedXML)
        #expect(error.location == .lineColumn(line: 1, column: 17))
        #expect(error.reason == "an internal DTD subset (<!DOCTYPE plist [...]>) is not allowed: Apple's property-list readers refuse it")
        #expect(!error.description.contains(secret))
    }

    /// `depth` nested `<array>` elements around an empty one, on one line.
    static func xmlNested(depth: Int) -> Data {
        var bytes = Array("<plist>".utf8)
        bytes.reserveCapacity(7 + 15 * depth + 8)
        for _ in 1..<depth { bytes += Array("<array>".utf8) }
        bytes += Array("<array/>".utf8)
        for _ in 1..<depth { bytes += Array("</array>".utf8) }
        bytes += Array("</plist>".utf8)
        return Data(bytes)
    }

    @Test func aMillionDeepXML() throws {
        let document = Self.xmlNested(depth: 1_000_000)
        #expect(document.count > 15_000_000)
        let error = try #require(XML.readError(bytes: Array(document)))
        #expect(error.code == .tooDeep)
        #expect(error.reason == "containers nested deeper than the limit of 256")
        #expect(error.location == .lineColumn(line: 1, column: 8 + 256 * 7))
        #expect(error.keyPath == "root" + String(repeating: "[0]", count: 256))
    }

    @Test func aMillionDeepXMLWithTheLimitLifted() throws {
        // A caller's limit above the ceiling acts as the ceiling: a million-deep value could be
        // built on the builder's explicit stack, but not freed or compared without overflowing
        // the call stack (this crashed before the ceiling existed).
        let document = Self.xmlNested(depth: 1_000_000)
        let error = try #require(XML.readError(bytes: Array(document), options: PropertyListReadOptions(maximumDepth: Int.max)))
        #expect(error.code == .tooDeep)
        #expect(PropertyListReadOptions.depthCeiling == 300)
        #expect(error.reason == "containers nested deeper than the limit of 300")
        #expect(error.location == .lineColumn(line: 1, column: 8 + 300 * 7))
        // At the ceiling itself, the value reads, compares and goes.
        let deepest = Self.xmlNested(depth: PropertyListReadOptions.depthCeiling)
        let value = try XML.read(bytes: Array(deepest), options: PropertyListReadOptions(maximumDepth: Int.max))
        #expect(value == (try XML.read(bytes: Array(deepest), options: PropertyListReadOptions(maximumDepth: 300))))
    }

    @Test func aHundredThousandElementsInOneXMLArrayAndDictionary() throws {
        // FuzzXMLPlist timed out on a 4,000-element array: the builder copied the array for every
        // element. At 100,000 elements a quadratic reader would run for hours.
        let count = 100_000
        let array = "<plist><array>" + (0 ..< count).map { "<integer>\($0)</integer>" }.joined() + "</array></plist>"
        let items = try #require(try XML.read(array).arrayValue)
        #expect(items.count == count)
        #expect(items.last == .integer(PropertyListInteger(count - 1)))
        let dictionary = "<plist><dict>" + (0 ..< count).map { "<key>k\($0)</key><true/>" }.joined() + "</dict></plist>"
        guard case .dictionary(let entries) = try XML.read(dictionary) else {
            Issue.record("not a dictionary")
            return
        }
        #expect(entries.count == count)
        #expect(entries["k99999"] == .boolean(true))
    }

    @Test func invalidUTF16SurrogatesInXML() throws {
        // A surrogate code point is no character: libxml2 refuses the reference.
        let error = try #require(XML.readError("<plist>\n<string>a&#xD800;b</string></plist>"))
        #expect(error.code == .invalidString)
        #expect(error.location == .lineColumn(line: 2, column: 18))
        #expect(error.reason == "invalid text: xmlParseCharRef: invalid xmlChar value 55296")
    }

    // MARK: Binary

    /// `depth` arrays, each holding the next, with 4-byte references and offsets: what
    /// `BinaryPlistBuilder` makes, written straight into one buffer because a million small
    /// arrays are slow to build in a debug build.
    static func binaryNested(depth: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        bytes.reserveCapacity(8 + 9 * depth + 32)
        for index in 0 ..< depth - 1 {
            bytes.append(0xA1)
            bytes += BinaryPlistBuilder.bigEndian(UInt64(index + 1), size: 4)
        }
        bytes.append(0xA0)
        let tableOffset = bytes.count
        for index in 0 ..< depth { bytes += BinaryPlistBuilder.bigEndian(UInt64(8 + 5 * index), size: 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4]
        bytes += BinaryPlistBuilder.bigEndian(UInt64(depth), size: 8)
        bytes += BinaryPlistBuilder.bigEndian(0, size: 8)
        bytes += BinaryPlistBuilder.bigEndian(UInt64(tableOffset), size: 8)
        return Data(bytes)
    }

    @Test func aMillionDeepBinary() throws {
        let file = Self.binaryNested(depth: 1_000_000)
        #expect(file.count > 5_000_000)
        let error = try #require(binaryError(file))
        #expect(error.code == .tooDeep)
        #expect(error.reason == "containers nested deeper than the limit of 256")
        #expect(error.location == .byteOffset(8 + 256 * 5, objectIndex: 256))
        #expect(error.keyPath == String(repeating: "[0]", count: 256))
        #expect(error.description == "byte 0x508: object 256: \(error.keyPath ?? ""): containers nested deeper than the limit of 256")
        // The small builder makes the same bytes, so the fast path above is the file it stands for.
        var small = BinaryPlistBuilder((0 ..< 2).map { [0xA1] + BinaryPlistBuilder.bigEndian(UInt64($0 + 1), size: 4) } + [[0xA0]])
        small.referenceSize = 4
        small.offsetSize = 4
        #expect(Self.binaryNested(depth: 3) == small.data)
    }

    @Test func aMillionDeepBinaryWithTheLimitLifted() throws {
        // The binary reader recurses once per level: above the ceiling it would overflow the stack.
        let error = try #require(binaryError(Self.binaryNested(depth: 1_000_000), options: PropertyListReadOptions(maximumDepth: Int.max)))
        #expect(error.code == .tooDeep)
        #expect(error.reason == "containers nested deeper than the limit of 300")
        #expect(error.location == .byteOffset(8 + 300 * 5, objectIndex: 300))
    }

    @Test func aDeepKeyedArchive() throws {
        // $objects[i] is an NSArray holding $objects[i + 1]: a flat plist, a deep object graph, as
        // deep as the default object limit (100,000) allows.
        let depth = 99_990
        let classUID = UInt64(depth + 1)
        var objects: [PropertyListValue] = ["$null"]
        objects.reserveCapacity(depth + 2)
        for index in 1...depth {
            let next: [PropertyListValue] = index < depth ? [.uid(UInt64(index + 1))] : []
            objects.append(.dictionary(["NS.objects": .array(next), "$class": .uid(classUID)]))
        }
        objects.append(KeyedArchiveTestSupport.classDescription("NSArray", "NSObject"))
        let data = try PropertyListWriter().write(KeyedArchiveTestSupport.archive(objects), as: .binary)
        let archive = try KeyedArchive(data: data)
        let error = try #require(throws: KeyedArchiveError.self) { try archive.decodeRoot() }
        #expect(error.code == .tooDeep)
        #expect(error.description == "$objects[128].NS.objects[0]: objects nested deeper than 128")
        // A lifted limit acts as the ceiling.
        let lifted = try KeyedArchive(data: data, options: KeyedArchiveOptions(maximumDepth: Int.max))
        let liftedError = try #require(throws: KeyedArchiveError.self) { try lifted.decodeRoot() }
        #expect(liftedError.code == .tooDeep)
        #expect(liftedError.description == "$objects[300].NS.objects[0]: objects nested deeper than 300")
    }

    @Test func aTrailerClaimingTwoToTheThirtyOneObjects() throws {
        var builder = BinaryPlistBuilder([[0xD1, 1, 2], [0x51, 0x41], [0x51, 0x42]])
        builder.claimedObjectCount = 1 << 31
        let error = try #require(binaryError(builder.data))
        #expect(error.code == .invalidTrailer)
        #expect(error.reason == "offset table of 2147483648 entries of 1 bytes at 0xf runs into the trailer at 0x12")
        #expect(error.location == .byteOffset(0x12 + 8, objectIndex: nil))
        // With offsets wide enough to leave no room either, and through the resume-data entry point.
        builder.offsetSize = 8
        let blobError = try #require(resumeDataError(builder.data))
        #expect(blobError.code == .unreadable)
        #expect(blobError.location == .byteOffset(builder.tableOffset + 3 * 8 + 8, objectIndex: nil))
    }

    @Test func anOffsetTablePointingIntoItself() throws {
        var builder = BinaryPlistBuilder([[0xD1, 1, 2], [0x51, 0x41], [0x51, 0x42]])
        builder.offsetOverrides[1] = UInt64(builder.tableOffset)
        let error = try #require(binaryError(builder.data))
        #expect(error.code == .referenceOutOfRange)
        #expect(error.location == .byteOffset(builder.tableOffset + 1, objectIndex: 1))
        #expect(error.reason == "object 1 is at 0xf, outside the object area 0x8..<0xf")
    }

    @Test func uidCycles() throws {
        let nsArray = KeyedArchiveTestSupport.classDescription("NSArray", "NSObject")
        // An array holding itself, and two arrays holding each other.
        let selfLoop = KeyedArchiveTestSupport.archive(["$null", .dictionary(["NS.objects": [.uid(1)], "$class": .uid(2)]), nsArray])
        let error = try #require(throws: KeyedArchiveError.self) {
            try KeyedArchive(data: PropertyListWriter().write(selfLoop, as: .binary)).decodeRoot()
        }
        #expect(error.code == .cycle)
        #expect(error.description == "$objects[1].NS.objects[0]: UID 1 refers back to $objects[1], which contains it (cycle)")
        let twoLoop = KeyedArchiveTestSupport.archive([
            "$null", .dictionary(["NS.objects": [.uid(3)], "$class": .uid(2)]), nsArray,
            .dictionary(["NS.objects": [.uid(1)], "$class": .uid(2)]),
        ])
        let twoError = try #require(throws: KeyedArchiveError.self) {
            try KeyedArchive(data: PropertyListWriter().write(twoLoop, as: .xml)).decodeRoot()
        }
        #expect(twoError.code == .cycle)
        #expect(twoError.description == "$objects[3].NS.objects[0]: UID 1 refers back to $objects[1], which contains it (cycle)")
        // A resume blob whose root dictionary holds itself.
        let nsDictionary = KeyedArchiveTestSupport.classDescription("NSMutableDictionary", "NSDictionary", "NSObject")
        let blob = KeyedArchiveTestSupport.archive([
            "$null", .dictionary(["NS.keys": [.uid(3)], "NS.objects": [.uid(1)], "$class": .uid(2)]), nsDictionary, "NSURLSessionDownloadURL",
        ])
        let blobError = try #require(resumeDataError(try PropertyListWriter().write(blob, as: .binary)))
        #expect(blobError.code == .invalidArchive)
        #expect(blobError.reason.contains("(cycle)"))
    }

    @Test func aDataObjectClaimingOneHundredMegabytesWithTenPresent() throws {
        let file = bplist([0x4F, 0x12] + BinaryPlistBuilder.bigEndian(100_000_000, size: 4) + [UInt8](repeating: 1, count: 10))
        let error = try #require(binaryError(file))
        #expect(error.code == .truncated)
        #expect(error.reason == "a data object of 100000000 bytes needs 100000000 bytes at 0xe but only 10 remain before the offset table")
        #expect(error.location == .byteOffset(0x0e, objectIndex: 0))
    }

    @Test func aTwoGigabyteLengthInAnObjectHeader() throws {
        let twoGB = BinaryPlistBuilder.bigEndian(1 << 31, size: 4)
        // Data, an ASCII string, and a UTF-16 string of 2^31 units (4 GiB).
        let cases: [(marker: UInt8, reason: String)] = [
            (0x4F, "a data object of 2147483648 bytes needs 2147483648 bytes at 0xe but only 3 remain before the offset table"),
            (0x5F, "an ASCII string of 2147483648 bytes needs 2147483648 bytes at 0xe but only 3 remain before the offset table"),
            (0x6F, "a UTF-16 string of 2147483648 code units needs 4294967296 bytes at 0xe but only 3 remain before the offset table"),
        ]
        for (marker, reason) in cases {
            let file = bplist([marker, 0x12] + twoGB + [0x41, 0x42, 0x43])
            let error = try #require(binaryError(file))
            #expect(error.code == .truncated)
            #expect(error.reason == reason)
            #expect(error.location == .byteOffset(0x0e, objectIndex: 0))
        }
        // The same claim as the resume blob's whole dictionary count.
        let dictionary = bplist([0xDF, 0x12] + twoGB)
        let blobError = try #require(resumeDataError(dictionary))
        #expect(blobError.code == .unreadable)
        #expect(blobError.location == .byteOffset(0x0e, objectIndex: 0))
    }

    @Test func invalidUTF16SurrogatesInBinary() throws {
        // "a", a lone lead surrogate, "b".
        let error = try #require(binaryError(bplist([0x63, 0x00, 0x61, 0xD8, 0x3D, 0x00, 0x62])))
        #expect(error.code == .invalidString)
        #expect(error.reason == "lead surrogate 0xd83d without a trail surrogate in a UTF-16 string")
        #expect(error.location == .byteOffset(11, objectIndex: 0))
        let trail = try #require(binaryError(bplist([0x61, 0xDC, 0x00])))
        #expect(trail.code == .invalidString)
        #expect(trail.reason == "trail surrogate 0xdc00 without a lead surrogate in a UTF-16 string")
        #expect(trail.location == .byteOffset(9, objectIndex: 0))
    }

    // MARK: Helpers

    /// The error `ResumeData(data:)` throws, recording an issue when it reads.
    func resumeDataError(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> ResumeDataError? {
        do {
            let blob = try ResumeData(data: data)
            Issue.record("expected an error, read \(blob)", sourceLocation: sourceLocation)
            return nil
        } catch let error as ResumeDataError {
            return error
        } catch {
            Issue.record("unexpected error type \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}
