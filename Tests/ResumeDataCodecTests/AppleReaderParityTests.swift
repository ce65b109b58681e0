import Foundation
import Testing
@testable import ResumeDataCodec

/// Where the XML reader follows Apple's (CoreFoundation's, and swift-foundation's port of it) to
/// the letter: blanks in numbers, hexadecimal reals, dates past the end of a field, UTF-32
/// documents. docs/formats.md, "The property-list reader: where we follow Apple", gives the reasons.
@Suite struct AppleReaderParityTests {
    typealias T = XMLTestSupport

    static func since2001(_ seconds: TimeInterval) -> PropertyListValue {
        .date(Date(timeIntervalSinceReferenceDate: seconds))
    }

    @Test func integersTakeBlanksBeforeAndAfterTheSignButNotAfterTheDigits() throws {
        // swift-foundation's xmlIntegerWhitespace vector, and Unicode blanks its
        // _skipIntegerWhitespace skips (U+3000, U+00A0).
        #expect(try T.read("<array><integer> +\t42</integer><integer>\t-   99</integer><integer> -\t0xFACE</integer></array>")
            == [42, -99, -0xFACE])
        #expect(try T.read("<integer>\u{3000}42</integer>") == 42)
        #expect(try T.read("<integer>-\u{A0}7</integer>") == -7)
        #expect(try T.read("<integer>+\n0x10</integer>") == 16)
        let trailing = try #require(T.readError("<integer>42 </integer>"))
        #expect(trailing.code == .invalidValue)
        #expect(trailing.description
            == "1:1: expected a decimal or 0x-prefixed hexadecimal integer in <integer>, found \"42\" (Apple's reader allows no blanks after the number)")
        for bad in ["4 2", "+ ", "- 0x", "0x 1", "42\u{3000}", "\u{3000}", "+-1", "- -1"] {
            #expect(T.readError("<integer>\(bad)</integer>")?.code == .invalidValue, "\(bad)")
        }
    }

    @Test func realsRefuseHexadecimalAndBlanksAfterTheNumber() throws {
        #expect(try T.read("<real> 1.5</real>") == 1.5)
        #expect(try T.read("<real>\n\t-3.14</real>") == -3.14)
        let hex = try #require(T.readError("<real>0x10</real>"))
        #expect(hex.code == .invalidValue)
        #expect(hex.description == "1:1: expected a decimal number, nan or [+-]infinity in <real>, found \"0x10\" (Apple's reader refuses hexadecimal reals)")
        for bad in ["0x1p4", "-0X1", " 0x10", "00x1", "+0x0p0", "0x"] {
            #expect(T.readError("<real>\(bad)</real>")?.code == .invalidValue, "\(bad)")
        }
        let blanks = try #require(T.readError("<real>1.5  </real>"))
        #expect(blanks.description
            == "1:1: expected a decimal number, nan or [+-]infinity in <real>, found \"1.5\" (Apple's reader allows no blanks after the number)")
        #expect(T.readError("<real>inf\n</real>")?.code == .invalidValue)
        // 10 and 0 are not hexadecimal: an x after other digits is only a bad decimal.
        #expect(T.readError("<real>10x</real>")?.description == "1:1: expected a decimal number, nan or [+-]infinity in <real>, found \"10x\"")
    }

    /// swift-foundation's decodingCompatibility_122065123: its writer once wrote 2024-02-01 as
    /// 2024-01-32, and its reader rolls every field over, as a lenient calendar does.
    @Test func datesRollOverEveryFieldAsAppleDoes() throws {
        #expect(try T.read("<date>2024-01-32T20:43:14Z</date>") == Self.since2001(728_512_994))
        #expect(try T.read("<date>2024-01-60T00:00:00Z</date>") == Self.since2001(730_857_600))
        #expect(try T.read("<date>2015-02-29T00:00:00Z</date>") == Self.since2001(446_860_800))
        #expect(try T.read("<date>2015-04-20T24:00:00Z</date>") == Self.since2001(451_267_200))
        #expect(try T.read("<date>2015-13-01T00:00:00Z</date>") == Self.since2001(473_299_200))
        #expect(try T.read("<date>2015-00-10T00:00:00Z</date>") == Self.since2001(439_862_400))
        #expect(try T.read("<date>2024-00-01T00:00:00Z</date>") == Self.since2001(723_081_600))
        #expect(try T.read("<date>2015-04-00T00:00:00Z</date>") == Self.since2001(449_452_800))
        #expect(try T.read("<date>2015-04-20T08:05:60Z</date>") == Self.since2001(451_209_960))
        #expect(try T.read("<date>2015-04-99T99:99:99Z</date>") == Self.since2001(458_368_839))
        // Year 0 and before roll over the same way (month 00 of year 0 is December of year -1).
        #expect(try T.read("<date>0000-00-31T00:00:00Z</date>") == (try T.read("<date>-001-12-31T00:00:00Z</date>")))
    }

    @Test func datesTakeNoBlanks() throws {
        for text in [" 2015-04-20T08:05:49Z", "2015-04-20T08:05:49Z\n", "\t2015-04-20T08:05:49Z "] {
            let error = try #require(T.readError("<date>\(text)</date>"), "\(text)")
            #expect(error.description
                == "1:1: expected a date like 2015-04-20T08:05:49Z in <date>, found \"2015-04-20T08:05:49Z\" (Apple's reader allows no blanks around a date)")
        }
    }

    /// swift-foundation's dataWithBOM_utf32be, and the little-endian twin.
    static func utf32(_ text: String, bigEndian: Bool) -> [UInt8] {
        (bigEndian ? [0x00, 0x00, 0xFE, 0xFF] : [0xFF, 0xFE, 0x00, 0x00]) + text.unicodeScalars.flatMap { scalar -> [UInt8] in
            (0 ..< 4).map { UInt8(truncatingIfNeeded: scalar.value >> UInt32(bigEndian ? 24 - 8 * $0 : 8 * $0)) }
        }
    }

    @Test func utf32WithAByteOrderMarkReads() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-32BE"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <string>hello é 😀</string>
            </plist>
            """
        let big = Self.utf32(xml, bigEndian: true)
        #expect(try T.read(bytes: big) == "hello é 😀")
        let littleXML = xml.replacingOccurrences(of: "UTF-32BE", with: "UTF-32LE")
        let little = Self.utf32(littleXML, bigEndian: false)
        #expect(try T.read(bytes: little) == "hello é 😀")
        #expect(try PropertyListReader().readDocument(Data(little)).format == .xml)
        // Positions count characters, as in any other encoding.
        let broken = Self.utf32("<plist>\n<string>a</strin>", bigEndian: true)
        #expect(T.readError(bytes: broken)?.description == "2:10: expected </string> (opened on line 2), found </strin>")
    }

    @Test func brokenUTF32IsRefusedAtItsByte() throws {
        let surrogate = try #require(T.readError(bytes: [0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0xD8, 0x00]))
        #expect(surrogate.code == .invalidString)
        #expect(surrogate.description == "byte 0x4: invalid UTF-32: 0xd800 is not a Unicode character")
        let tooLarge = try #require(T.readError(bytes: [0xFF, 0xFE, 0x00, 0x00, 0x00, 0x00, 0x11, 0x00]))
        #expect(tooLarge.description == "byte 0x4: invalid UTF-32: 0x110000 is not a Unicode character")
        let odd = try #require(T.readError(bytes: [0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00]))
        #expect(odd.description == "byte 0x4: UTF-32 input (it starts with a UTF-32 byte-order mark) is 7 bytes, not a multiple of 4")
        #expect(T.readError(bytes: [0x00, 0x00, 0xFE, 0xFF])?.code == .truncated)
    }
}
