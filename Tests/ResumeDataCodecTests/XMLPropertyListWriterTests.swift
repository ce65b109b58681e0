import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct XMLPropertyListWriterTests {
    typealias T = XMLTestSupport

    @Test func writesEveryElementInApplesLayout() throws {
        let value: PropertyListValue = [
            "string": "a & b < c > d \"e\" 'f' é",
            "integer": -42,
            "big": .integer(PropertyListInteger(UInt64.max)),
            "real": 60.0,
            "true": true,
            "false": false,
            "date": T.date(1_429_517_149),
            "data": .data(Data([0, 1, 2, 0xFF])),
            "empty data": .data(Data()),
            "array": ["x", [], .dictionary([:])],
            "uid": .uid(7),
            "set": .set([1, 2]),
        ]
        let expected = T.header + """
            <dict>
            \t<key>string</key>
            \t<string>a &amp; b &lt; c &gt; d "e" 'f' é</string>
            \t<key>integer</key>
            \t<integer>-42</integer>
            \t<key>big</key>
            \t<integer>18446744073709551615</integer>
            \t<key>real</key>
            \t<real>60</real>
            \t<key>true</key>
            \t<true/>
            \t<key>false</key>
            \t<false/>
            \t<key>date</key>
            \t<date>2015-04-20T08:05:49Z</date>
            \t<key>data</key>
            \t<data>
            \tAAEC/w==
            \t</data>
            \t<key>empty data</key>
            \t<data>
            \t</data>
            \t<key>array</key>
            \t<array>
            \t\t<string>x</string>
            \t\t<array/>
            \t\t<dict/>
            \t</array>
            \t<key>uid</key>
            \t<dict>
            \t\t<key>CF$UID</key>
            \t\t<integer>7</integer>
            \t</dict>
            \t<key>set</key>
            \t<array>
            \t\t<integer>1</integer>
            \t\t<integer>2</integer>
            \t</array>
            </dict>
            </plist>

            """
        #expect(try T.write(value) == expected)
    }

    @Test func writesTopLevelScalarsAtIndentZero() throws {
        #expect(try T.write("x") == T.header + "<string>x</string>\n</plist>\n")
        #expect(try T.write(true) == T.header + "<true/>\n</plist>\n")
        #expect(try T.write([]) == T.header + "<array/>\n</plist>\n")
        #expect(try T.write(.dictionary([:])) == T.header + "<dict/>\n</plist>\n")
        #expect(try T.write(.uid(0)) == T.header + "<dict>\n\t<key>CF$UID</key>\n\t<integer>0</integer>\n</dict>\n</plist>\n")
        #expect(try T.write(.data(Data([1]))) == T.header + "<data>\nAQ==\n</data>\n</plist>\n")
    }

    @Test func writesRealsAsCoreFoundationDoes() throws {
        let cases: [(Double, String)] = [
            (.nan, "nan"), (.infinity, "+infinity"), (-.infinity, "-infinity"), (0, "0.0"), (-0.0, "0.0"),
            (60, "60"), (0.1, "0.10000000000000001"), (-2.5, "-2.5"), (1e300, "1.0000000000000001e+300"),
            (Double.leastNonzeroMagnitude, "4.9406564584124654e-324"), (Double(Float(1.1)), "1.1000000238418579"), (123_456_789_012_345_683_968, "1.2345678901234568e+20"),
        ]
        for (number, text) in cases {
            #expect(try T.write(.real(PropertyListReal(number))) == T.header + "<real>\(text)</real>\n</plist>\n", "\(number)")
        }
        #expect(try T.write(.real(PropertyListReal(Float(0.5)))) == T.header + "<real>0.5</real>\n</plist>\n")
    }

    @Test func writesIntegersAndDates() throws {
        #expect(try T.write(.integer(PropertyListInteger(Int64.min))) == T.header + "<integer>-9223372036854775808</integer>\n</plist>\n")
        #expect(try T.write(0) == T.header + "<integer>0</integer>\n</plist>\n")
        let dates: [(TimeInterval, String)] = [
            (0, "1970-01-01T00:00:00Z"), (1_429_517_149.9, "2015-04-20T08:05:49Z"), (-3_786_825_600.5, "1849-12-31T23:59:59Z"),
            (-3_187_007_008, "1869-01-03T08:16:32Z"), (7_246_545_011, "2199-08-20T01:10:11Z"), (951_868_799, "2000-02-29T23:59:59Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"), (-62_135_596_800, "0001-01-01T00:00:00Z"),
        ]
        for (seconds, text) in dates {
            #expect(try T.write(.date(Date(timeIntervalSince1970: seconds))) == T.header + "<date>\(text)</date>\n</plist>\n", "\(seconds)")
        }
    }

    /// CoreFoundation flushes a base64 line when it reaches `76 - 8 * indent` characters, with the
    /// indent capped at 8; these are the lines Foundation's own writer produced for 100 bytes.
    @Test func breaksDataLinesWhereCoreFoundationDoes() throws {
        let bytes = Data((0..<100).map { UInt8($0) })
        var value: PropertyListValue = .data(bytes)
        for _ in 0..<10 { value = [value] }
        let text = try T.write(value)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let dataLines = lines.drop { !$0.hasSuffix("<data>") }.dropFirst().prefix { !$0.hasSuffix("</data>") }
        let eightTabs = String(repeating: "\t", count: 8)
        #expect(Array(dataLines) == [
            "AAECAwQFBgcI", "CQoLDA0ODxAR", "EhMUFRYXGBka", "GxwdHh8gISIj", "JCUmJygpKiss", "LS4vMDEyMzQ1",
            "Njc4OTo7PD0+", "P0BBQkNERUZH", "SElKS0xNTk9Q", "UVJTVFVWV1hZ", "WltcXV5fYGFi", "Yw==",
        ].map { Substring(eightTabs + $0) })
        #expect(lines.contains(Substring(String(repeating: "\t", count: 10) + "<data>")))
        #expect(lines.contains(Substring(String(repeating: "\t", count: 10) + "</data>")))

        let atOne = try T.write([.data(bytes)])
        #expect(atOne == T.header + """
            <array>
            \t<data>
            \tAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEy
            \tMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiYw==
            \t</data>
            </array>
            </plist>

            """)
        let atZero = try T.write(.data(Data(repeating: 0xFF, count: 60)))
        #expect(atZero == T.header + "<data>\n" + String(repeating: "/", count: 76) + "\n////\n</data>\n</plist>\n")
    }

    @Test func escapesCarriageReturnsAndRefusesWhatXMLCannotHold() throws {
        #expect(try T.write("a\r\nb\tc") == T.header + "<string>a&#13;\nb\tc</string>\n</plist>\n")
        #expect(try T.read(try T.write("a\r\nb")) == "a\r\nb")
        let control = try #require(throwsError { try T.write(["list": ["ok", "bad\u{1}"]]) })
        #expect(control.code == .unrepresentable)
        #expect(control.description == "root.list[1]: XML 1.0 cannot hold the control character U+0001 in a string (use a binary property list)")
        let inKey = try #require(throwsError { try T.write(["a": ["k\u{0}": 1]]) })
        #expect(inKey.description == "root.a.k\u{0}: XML 1.0 cannot hold the control character U+0000 in a string (use a binary property list)")
        let nonCharacter = try #require(throwsError { try T.write("\u{FFFF}") })
        #expect(nonCharacter.description == "XML 1.0 cannot hold the noncharacter U+FFFF in a string (use a binary property list)")
        #expect(throwsError { try T.write("\u{FFFE}") }?.code == .unrepresentable)
        #expect(try T.write("\u{FFFD}\u{10FFFF}") == T.header + "<string>\u{FFFD}\u{10FFFF}</string>\n</plist>\n")
    }

    @Test func keyOrderIsPreservedOrSortedByUTF16() throws {
        let value: PropertyListValue = ["b": 1, "a": 2, "B": 3, "é": 4, "e": 5, "\u{1F600}": 6, "\u{FF21}": 7]
        let preserved = try T.write(value)
        #expect(preserved.components(separatedBy: "<key>").dropFirst().map { $0.prefix { $0 != "<" } }
            == ["b", "a", "B", "é", "e", "\u{1F600}", "\u{FF21}"])
        let sorted = try T.write(value, keyOrder: .sorted)
        // UTF-16 order puts the surrogate pair of U+1F600 (D83D) before U+FF21.
        #expect(sorted.components(separatedBy: "<key>").dropFirst().map { $0.prefix { $0 != "<" } }
            == ["B", "a", "b", "e", "é", "\u{1F600}", "\u{FF21}"])
    }

    @Test func reEncodingOurOwnOutputIsByteIdentical() throws {
        let value: PropertyListValue = [
            "s": "x\r\n&<>", "i": .integer(PropertyListInteger(UInt64.max)), "r": 0.1, "n": .real(PropertyListReal(Double.nan)),
            "d": .data(Data((0..<300).map { UInt8(truncatingIfNeeded: $0 * 31) })), "t": T.date(-1), "u": .uid(3),
            "nested": [[["k": [.data(Data([1, 2, 3])), false]]]], "empty": [], "emptyDict": .dictionary([:]),
        ]
        let first = try XMLPropertyListWriter(keyOrder: .preserved).write(value)
        let reread = try XMLPropertyListReader(options: .default).read(first)
        #expect(reread == value)
        let second = try XMLPropertyListWriter(keyOrder: .preserved).write(reread)
        #expect(second == first)
    }

    @Test(arguments: XMLTestSupport.roundTripFixtures)
    func libplistFixturesRoundTrip(name: String) throws {
        let value = try XMLPropertyListReader(options: .default).read(try T.fixture(name))
        let written = try XMLPropertyListWriter(keyOrder: .preserved).write(value)
        let reread = try XMLPropertyListReader(options: .default).read(written)
        #expect(reread == value)
        #expect(try XMLPropertyListWriter(keyOrder: .preserved).write(reread) == written)
        let sorted = try XMLPropertyListWriter(keyOrder: .sorted).write(value)
        #expect(try XMLPropertyListReader(options: .default).read(sorted) == value)
    }

    /// Python's plistlib writes Apple's layout too (except for reals, UIDs and data nested more
    /// than 7 deep), so a corpus without those must come out byte for byte the same.
    @Test func matchesPythonPlistlibByteForByte() throws {
        let script = #"""
            import plistlib, sys, datetime
            value = {
                "string": "a & b < c > d \"q\" é 😀",
                "ints": [0, -1, 9223372036854775807, -9223372036854775808, 18446744073709551615],
                "bools": [True, False],
                "date": datetime.datetime(2015, 4, 20, 8, 5, 49),
                "old": datetime.datetime(1869, 1, 3, 8, 16, 32),
                "data": [bytes(range(256)), b"", b"\x01", b"ab", b"abc"],
                "deep": [[[[[[bytes(range(100))]]]]]],
                "empty": [[], {}],
                "zkeys": {"b": 1, "a": 2, "B": 3},
            }
            sys.stdout.buffer.write(plistlib.dumps(value, sort_keys=False))
            """#
        guard let expected = try Self.runPython(script) else {
            Issue.record("python3 is not available")
            return
        }
        let value: PropertyListValue = [
            "string": "a & b < c > d \"q\" é 😀",
            "ints": [0, -1, .integer(PropertyListInteger(Int64.max)), .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64.max))],
            "bools": [true, false],
            "date": T.date(1_429_517_149),
            "old": T.date(-3_187_007_008),
            "data": [.data(Data(0...255)), .data(Data()), .data(Data([1])), .data(Data("ab".utf8)), .data(Data("abc".utf8))],
            "deep": [[[[[[.data(Data(0..<100))]]]]]],
            "empty": [[], .dictionary([:])],
            "zkeys": ["b": 1, "a": 2, "B": 3],
        ]
        let ours = try XMLPropertyListWriter(keyOrder: .preserved).write(value)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(try XMLPropertyListReader(options: .default).read(expected) == value)
    }

    /// Random values (every kind XML can hold exactly) survive writing and reading, and the
    /// second writing is byte-identical to the first.
    @Test func randomValuesRoundTrip() throws {
        var generator = SeededGenerator(state: 0x5EED)
        for _ in 0..<200 {
            let value = Self.randomValue(using: &generator, depth: 0, carriageReturns: true)
            let written = try XMLPropertyListWriter(keyOrder: .preserved).write(value)
            let reread = try XMLPropertyListReader(options: .default).read(written)
            #expect(reread == value)
            #expect(try XMLPropertyListWriter(keyOrder: .preserved).write(reread) == written)
        }
    }

    /// Python's plistlib reads what we write to the same value: it writes it back (its own way for
    /// reals) and we read that to the value we started from.
    @Test func plistlibReadsWhatWeWrite() throws {
        var generator = SeededGenerator(state: 42)
        // plistlib writes a carriage return as a line feed, so leave them out.
        let value: PropertyListValue = .array((0..<40).map { _ in Self.randomValue(using: &generator, depth: 0, carriageReturns: false) })
        let ours = try XMLPropertyListWriter(keyOrder: .preserved).write(value)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plistlib-\(UInt64.random(in: 0...UInt64.max)).plist")
        try ours.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let script = """
            import plistlib, sys
            with open(sys.argv[1], "rb") as f:
                value = plistlib.load(f)
            sys.stdout.buffer.write(plistlib.dumps(value, sort_keys=False))
            """
        guard let theirs = try Self.runPython(script, arguments: [url.path]) else {
            Issue.record("python3 failed")
            return
        }
        #expect(try XMLPropertyListReader(options: .default).read(theirs) == value)
    }

    private static func randomValue(using generator: inout SeededGenerator, depth: Int, carriageReturns: Bool) -> PropertyListValue {
        let kinds = depth >= 3 ? 8 : 11
        switch Int.random(in: 0..<kinds, using: &generator) {
        case 0: return .string(randomString(using: &generator, carriageReturns: carriageReturns))
        case 1: return .integer(PropertyListInteger(Int64.random(in: .min ... .max, using: &generator)))
        case 2: return .integer(PropertyListInteger(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &generator)))
        case 3:
            // Any finite bit pattern but -0.0 (XML spells both zeros 0.0), or a special value.
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: return .real(PropertyListReal(Double.nan))
            case 1: return .real(PropertyListReal(Double.infinity))
            case 2: return .real(PropertyListReal(-Double.infinity))
            default:
                var number = Double(bitPattern: generator.next())
                if !number.isFinite || number == 0 { number = 1.5 }
                return .real(PropertyListReal(number))
            }
        case 4: return .boolean(Bool.random(using: &generator))
        case 5: return .date(Date(timeIntervalSince1970: TimeInterval(Int64.random(in: -62_135_596_800...253_402_300_799, using: &generator))))
        case 6: return .data(Data((0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case 7: return .uid(UInt64.random(in: 0...UInt64.max, using: &generator))
        case 8: return .array((0..<Int.random(in: 0..<5, using: &generator)).map { _ in randomValue(using: &generator, depth: depth + 1, carriageReturns: carriageReturns) })
        default:
            var dictionary = PropertyListDictionary()
            for _ in 0..<Int.random(in: 0..<5, using: &generator) {
                dictionary[randomString(using: &generator, carriageReturns: carriageReturns)] = randomValue(using: &generator, depth: depth + 1, carriageReturns: carriageReturns)
            }
            return .dictionary(dictionary)
        }
    }

    private static let characters: [Character] = ["a", "Z", "0", " ", "\t", "\n", "\r", "&", "<", ">", "\"", "'", "é", "ß", "中", "😀", "\u{FFFD}", "$"]

    private static func randomString(using generator: inout SeededGenerator, carriageReturns: Bool) -> String {
        let pool = carriageReturns ? characters : characters.filter { $0 != "\r" }
        return String((0..<Int.random(in: 0..<12, using: &generator)).map { _ in pool[Int.random(in: 0..<pool.count, using: &generator)] })
    }

    private static func runPython(_ script: String, arguments: [String] = []) throws -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }

    private func throwsError(_ body: () throws -> Any) -> PropertyListError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? PropertyListError
        }
    }
}
