import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct XMLHostileInputTests {
    typealias T = XMLTestSupport

    @Test func billionLaughsIsRefusedUnexpanded() throws {
        var document = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY lol \"lol\">\n"
        document += "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
        for level in 2...9 {
            let previous = "&lol\(level - 1);"
            document += "<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        document += "]>\n<plist><array><string>&lol9;</string><string attr=\"&lol9;\">x</string></array></plist>\n"
        let error = try #require(T.readError(document))
        #expect(error.code == .malformedXML)
        #expect(error.description == "2:17: an internal DTD subset (<!DOCTYPE plist [...]>) is not allowed: Apple's property-list readers refuse it")
        // Same in an attribute value, which libxml2 would otherwise expand even without XML_PARSE_NOENT.
        let inAttribute = document.replacingOccurrences(of: "<string>&lol9;</string>", with: "")
        #expect(T.readError(inAttribute)?.code == .malformedXML)
    }

    @Test func externalEntityNamingALocalFileIsNeverRead() throws {
        let secret = "resumetool-secret-\(UInt64.random(in: 0...UInt64.max))"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("xxe-\(secret).txt")
        try Data(secret.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let documents = [
            "<!DOCTYPE plist [<!ENTITY xxe SYSTEM \"\(url.absoluteString)\">]><string>&xxe;</string>",
            "<!DOCTYPE plist [<!ENTITY xxe SYSTEM \"\(url.path)\">]><string>&xxe;</string>",
            "<!DOCTYPE plist [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><string>&xxe;</string>",
            "<!DOCTYPE plist [<!ENTITY % pe SYSTEM \"\(url.absoluteString)\"> %pe;]><string>x</string>",
            "<!DOCTYPE plist SYSTEM \"\(url.absoluteString)\"><string>&xxe;</string>",
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"\(url.absoluteString)\"><string>a</string>",
        ]
        for document in documents {
            let outcome: String
            do {
                outcome = "\(try T.read(document))"
            } catch {
                outcome = "\(error)"
            }
            #expect(!outcome.contains(secret), "\(document)")
            #expect(!outcome.contains("root:x:0:0"), "\(document)")
        }
        // Refused at the internal subset, before its declarations; the reference without one is
        // refused as a reference.
        let error = try #require(T.readError(documents[0]))
        #expect(error.reason == "an internal DTD subset (<!DOCTYPE plist [...]>) is not allowed: Apple's property-list readers refuse it")
        #expect(error.location == .lineColumn(line: 1, column: 17))
        let reference = try #require(T.readError(documents[4]))
        #expect(reference.reason == "Entity 'xxe' not defined: a property list may use only &amp; &lt; &gt; &apos; &quot; and character references")
        #expect(reference.location == .lineColumn(line: 1, column: documents[4].utf8.count - 13))
        #expect(T.readError(documents[2])?.code == .malformedXML)
        // An external DTD is never loaded, so the document reads as if it had none.
        #expect(try T.read(documents[5]) == "a")
    }

    /// `depth` nested arrays or dictionaries (each dictionary's key is `k`).
    private static func nested(_ element: String, depth: Int) -> String {
        let open = element == "array" ? "<array>" : "<dict><key>k</key>"
        let empty = element == "array" ? "<array/>" : "<dict/>"
        let close = element == "array" ? "</array>" : "</dict>"
        return String(repeating: open, count: depth - 1) + empty + String(repeating: close, count: depth - 1)
    }

    @Test(arguments: ["array", "dict"])
    func tenThousandDeepNestingFailsCleanly(element: String) throws {
        let document = "<plist>" + Self.nested(element, depth: 10_000) + "</plist>"
        let error = try #require(T.readError(document))
        #expect(error.code == .tooDeep)
        #expect(error.reason == "containers nested deeper than the limit of 256")
        let openLength = element == "array" ? 7 : 18
        #expect(error.location == .lineColumn(line: 1, column: 8 + 256 * openLength))
        #expect(error.keyPath == "root" + String(repeating: element == "array" ? "[0]" : ".k", count: 256))
        // The limit is the caller's: exactly `depth` levels read, one more is refused. (Kept under
        // 256, the limit newer libxml2 versions apply on their own.)
        let depth = 200
        let shallower = Self.nested(element, depth: depth)
        var expected: PropertyListValue = element == "array" ? [] : .dictionary([:])
        for _ in 1..<depth { expected = element == "array" ? [expected] : ["k": expected] }
        let value = try T.read(shallower, options: PropertyListReadOptions(maximumDepth: depth))
        #expect(value == expected)
        #expect(T.readError(shallower, options: PropertyListReadOptions(maximumDepth: depth - 1))?.code == .tooDeep)
    }

    @Test func badUTF8IsAnError() throws {
        let cases: [[UInt8]] = [
            Array("<string>a".utf8) + [0xFF] + Array("</string>".utf8),
            Array("<string>".utf8) + [0xC3] + Array("</string>".utf8),
            Array("<string>".utf8) + [0xED, 0xA0, 0x80] + Array("</string>".utf8), // a UTF-16 surrogate
            Array("<key".utf8) + [0xC0, 0x80],
        ]
        for bytes in cases {
            let error = try #require(T.readError(bytes: bytes))
            #expect(error.code == .invalidString || error.code == .malformedXML, "\(bytes)")
        }
        let error = try #require(T.readError(bytes: cases[0]))
        #expect(error.description == "1:10: the text is not valid UTF-8 (Bytes: 0xFF 0x3C 0x2F 0x73)")
        #expect(T.readError("<string>\u{1}</string>")?.description == "1:9: invalid text: PCDATA invalid Char value 1")
        #expect(T.readError("<string>&#0;</string>")?.code == .invalidString)
    }

    @Test func hostileScalarsAreRefused() throws {
        #expect(T.readError("<integer>99999999999999999999</integer>")?.code == .integerOverflow)
        #expect(T.readError("<integer>\(String(repeating: "9", count: 100_000))</integer>")?.code == .integerOverflow)
        #expect(T.readError("<data>!!!!</data>")?.code == .invalidValue)
        #expect(T.readError("<data>\(String(repeating: "A", count: 99_997))</data>")?.code == .invalidValue)
        // Every field at 99 rolls over as Apple's reader rolls it (month 99 of 99999 is March
        // 100007), with no overflow.
        #expect(try T.read("<date>99999-99-99T99:99:99Z</date>") == .date(Date(timeIntervalSince1970: 3_093_762_832_839)))
        #expect(T.readError("<date>9999999999-01-01T00:00:00Z</date>")?.code == .invalidValue)
        #expect(T.readError("<real>\(String(repeating: "1", count: 5_000))</real>")?.code == .invalidValue)
    }

    @Test func largeValuesCrossSliceBoundaries() throws {
        // Larger than the reader's 256 KiB slices and libxml2's 10 MB text-node limit for trees.
        let bytes = Data((0..<(12 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let text = try T.write(.array([.data(bytes), .string(String(repeating: "é", count: 300_000))]))
        let value = try T.read(text)
        #expect(value == .array([.data(bytes), .string(String(repeating: "é", count: 300_000))]))
    }

    /// Every prefix fails cleanly or parses. Fixtures up to 8 KB are cut at every byte; larger ones
    /// (3.plist, 4.plist, 6.plist: 31 KB to 390 KB, where every prefix in a debug build would take
    /// many minutes) at every byte of their first KB and last 64 bytes and at 100 evenly spread
    /// points between.
    @Test(arguments: XMLTestSupport.allXMLFixtures)
    func everyPrefixFailsCleanlyOrParses(name: String) throws {
        let bytes = Array(try T.fixture(name))
        var cuts: [Int]
        if bytes.count <= 8_192 {
            cuts = Array(0..<bytes.count)
        } else {
            cuts = Array(0..<1_024) + Array((bytes.count - 64)..<bytes.count)
            cuts += stride(from: 1_024, to: bytes.count - 64, by: (bytes.count - 1_088) / 100)
        }
        var parsed = 0
        for cut in cuts {
            do {
                _ = try XMLPropertyListReader(options: .default).read(Data(bytes[..<cut]))
                parsed += 1
            } catch let error as PropertyListError {
                if error.locationDescription == nil {
                    Issue.record("\(name)[..<\(cut)]: error without a position: \(error)")
                }
            }
        }
        // Only a cut in the trailing whitespace after </plist> can parse.
        let trailing = bytes.reversed().prefix { $0 == 0x0A || $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }.count
        #expect(parsed <= trailing)
    }

    @Test func nullBytesAndGarbageFailCleanly() throws {
        #expect(T.readError(bytes: [0, 0, 0, 0])?.code != nil)
        #expect(T.readError(bytes: Array(repeating: 0xFF, count: 64))?.code != nil)
        #expect(T.readError(bytes: [0x3C])?.code != nil)
        #expect(T.readError("<plist><array>" + String(repeating: "<true/>", count: 10) + "</array>")?.code == .truncated)
    }
}
