import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct XMLPropertyListReaderTests {
    typealias T = XMLTestSupport

    // MARK: Every element

    @Test func readsEveryElement() throws {
        let value = try T.read(T.header + """
            <dict>
            \t<key>string</key>
            \t<string>héllo wörld</string>
            \t<key>integer</key>
            \t<integer>42</integer>
            \t<key>real</key>
            \t<real>0.5</real>
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
            \t<key>array</key>
            \t<array>
            \t\t<string>a</string>
            \t\t<array/>
            \t\t<dict/>
            \t</array>
            \t<key>uid</key>
            \t<dict>
            \t\t<key>CF$UID</key>
            \t\t<integer>7</integer>
            \t</dict>
            </dict>
            </plist>
            """)
        let expected: PropertyListValue = [
            "string": "héllo wörld",
            "integer": 42,
            "real": 0.5,
            "true": true,
            "false": false,
            "date": T.date(1_429_517_149),
            "data": .data(Data([0, 1, 2, 0xFF])),
            "array": ["a", [], .dictionary([:])],
            "uid": .uid(7),
        ]
        #expect(value == expected)
        #expect(value.dictionaryValue?.keys == ["string", "integer", "real", "true", "false", "date", "data", "array", "uid"])
    }

    @Test func readsWithoutPlistWrapperOrDeclaration() throws {
        #expect(try T.read("<string>bare</string>") == "bare")
        #expect(try T.read("<array><integer>1</integer></array>") == [1])
        #expect(try T.read("<plist><true/></plist>") == true)
        #expect(try T.read("<?xml version=\"1.0\"?>\n<false/>") == false)
    }

    @Test func acceptsOtherDoctypesAndAttributes() throws {
        let old = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple Computer//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><string>x</string></plist>
            """
        #expect(try T.read(old) == "x")
        #expect(try T.read("<!DOCTYPE plist><plist version=\"0.9\" other='1'><integer>3</integer></plist>") == 3)
        // Apple's readers refuse an internal subset, however harmless.
        #expect(T.readError("<!DOCTYPE plist [<!ELEMENT plist ANY>]><plist><integer>3</integer></plist>")?.description
            == "1:17: an internal DTD subset (<!DOCTYPE plist [...]>) is not allowed: Apple's property-list readers refuse it")
    }

    @Test func readsCDATAEntitiesAndSkipsComments() throws {
        let value = try T.read("""
            <plist><!-- top --><array>
            <string><![CDATA[<a & b>]]></string>
            <string>&lt;&gt;&amp;&apos;&quot;</string>
            <string>&#169;&#x2F20;&#65;&#x1F600;</string>
            <string>a<!-- inside -->b</string>
            <string>x<![CDATA[]]>y</string>
            <string>  spaced\tout\n</string>
            <?pi ignored?>
            </array></plist>
            """)
        #expect(value == ["<a & b>", "<>&'\"", "©⼠A😀", "ab", "xy", "  spaced\tout\n"])
    }

    @Test func readsEmptyStringsAndKeys() throws {
        let value = try T.read("<dict><key></key><string/><key> </key><string></string></dict>")
        #expect(value == ["": "", " ": ""])
    }

    @Test func readsDataWithWhitespaceAnywhereAndWithoutPadding() throws {
        #expect(try T.read("<data>\n\tAA\nEC\r\n /w = =\n</data>") == .data(Data([0, 1, 2, 0xFF])))
        #expect(try T.read("<data>AAEC/w</data>") == .data(Data([0, 1, 2, 0xFF])))
        #expect(try T.read("<data>AAE</data>") == .data(Data([0, 1])))
        #expect(try T.read("<data></data>") == .data(Data()))
        #expect(try T.read("<data/>") == .data(Data()))
        #expect(try T.read("<data>+/+/</data>") == .data(Data([0xFB, 0xFF, 0xBF])))
    }

    @Test func readsIntegersInEveryForm() throws {
        let value = try T.read("""
            <array>
            <integer>0</integer><integer>-0</integer><integer>+17</integer><integer>\n 42</integer>
            <integer>-9223372036854775808</integer><integer>9223372036854775807</integer>
            <integer>9223372036854775808</integer><integer>18446744073709551615</integer>
            <integer>0x1F</integer><integer>0XfF</integer><integer>-0x10</integer><integer>0xFFFFFFFFFFFFFFFF</integer>
            <integer>007</integer>
            </array>
            """)
        #expect(value == .array([
            0, 0, 17, 42, .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(Int64.max)),
            .integer(PropertyListInteger(UInt64(1) << 63)), .integer(PropertyListInteger(UInt64.max)),
            31, 255, -16, .integer(PropertyListInteger(UInt64.max)), 7,
        ]))
    }

    @Test func readsRealsInEveryForm() throws {
        let value = try T.read("""
            <array>
            <real>0.5</real><real>-2</real><real>1e4</real><real>60</real><real>\n 0.10000000000000001</real>
            <real>+infinity</real><real>-infinity</real><real>infinity</real><real>inf</real><real>-inf</real>
            <real>+inf</real><real>INF</real><real>-0.0</real><real>.5</real><real>1E-3</real>
            </array>
            """)
        let reals = try #require(value.arrayValue).compactMap(\.doubleValue)
        #expect(reals == [0.5, -2, 10_000, 60, 0.1, .infinity, -.infinity, .infinity, .infinity, -.infinity, .infinity, .infinity, -0.0, 0.5, 0.001])
        #expect(reals[12].sign == .minus)
        for text in ["nan", "NaN", "+nan"] {
            let nan = try #require(try T.read("<real>\(text)</real>").doubleValue)
            #expect(nan.isNaN)
        }
    }

    @Test func readsDates() throws {
        #expect(try T.read("<date>2015-04-20T08:05:49Z</date>") == T.date(1_429_517_149))
        #expect(try T.read("<date>1970-01-01T00:00:00Z</date>") == T.date(0))
        #expect(try T.read("<date>2001-01-01T00:00:00Z</date>") == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(try T.read("<date>1869-01-03T08:16:32Z</date>") == T.date(-3_187_007_008))
        #expect(try T.read("<date>2000-02-29T23:59:59Z</date>") == T.date(951_868_799))
        #expect(try T.read("<date>-001-01-01T00:00:00Z</date>") == T.date(-62_198_755_200))
    }

    @Test func uidNeedsExactlyOneIntegerEntry() throws {
        #expect(try T.read("<dict><key>CF$UID</key><integer>0</integer></dict>") == .uid(0))
        #expect(try T.read("<dict><key>CF$UID</key><integer>4294967296</integer></dict>") == .uid(4_294_967_296))
        #expect(try T.read("<dict><key>CF$UID</key><string>1</string></dict>") == ["CF$UID": "1"])
        #expect(try T.read("<dict><key>CF$UID</key><integer>-1</integer></dict>") == ["CF$UID": -1])
        #expect(try T.read("<dict><key>CF$UID</key><integer>1</integer><key>x</key><true/></dict>") == ["CF$UID": 1, "x": true])
    }

    @Test func keepsKeyOrder() throws {
        let value = try T.read("<dict><key>z</key><true/><key>a</key><true/><key>m</key><true/></dict>")
        #expect(value.dictionaryValue?.keys == ["z", "a", "m"])
    }

    @Test func readsOtherEncodings() throws {
        var latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><string>caf".utf8)
        latin1 += [0xE9] + Array("</string>".utf8)
        #expect(try T.read(bytes: latin1) == "café")
        let utf16: [UInt8] = [0xFF, 0xFE] + "<string>é</string>".utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try T.read(bytes: utf16) == "é")
    }

    // MARK: Errors

    @Test func duplicateKeysKeepTheLastValueWithAWarningUnlessStrict() throws {
        let text = "<plist>\n<dict>\n  <key>a</key><true/>\n  <key>a</key><false/>\n</dict>\n</plist>"
        let error = try #require(T.readError(text, options: .strict))
        #expect(error.code == .duplicateKey)
        #expect(error.description == "4:3: root.a: duplicate key \"a\" in <dict>: each key may appear once")
        let read = try XMLPropertyListReader(options: .default).readReportingWarnings(Data(text.utf8))
        #expect(read.value == ["a": false])
        #expect(read.warnings.map(\.description) == ["4:3: root.a: duplicate key \"a\" in <dict>; the last value is kept"])
    }

    @Test func duplicateKeysDeepInsideAreWarnedWithTheirPath() throws {
        let text = """
            <plist><dict><key>list</key><array><true/><dict>
            <key>b</key><integer>1</integer><key>c</key><integer>2</integer><key>b</key><integer>3</integer>
            <key>c</key><integer>4</integer></dict></array><key>list</key><string>x</string></dict></plist>
            """
        let read = try XMLPropertyListReader(options: .default).readReportingWarnings(Data(text.utf8))
        #expect(read.value == ["list": "x"])
        #expect(read.warnings.map(\.description) == [
            "2:65: root.list[1].b: duplicate key \"b\" in <dict>; the last value is kept",
            "3:1: root.list[1].c: duplicate key \"c\" in <dict>; the last value is kept",
            "3:48: root.list: duplicate key \"list\" in <dict>; the last value is kept",
        ])
    }

    @Test func keyWithoutValueIsAnError() throws {
        let error = try #require(T.readError("<dict>\n<key>a</key>\n</dict>"))
        #expect(error.code == .unexpectedElement)
        #expect(error.description == "3:1: root.a: expected a value for key \"a\", found </dict>")
        let twoKeys = try #require(T.readError("<dict><key>a</key><key>b</key><true/></dict>"))
        #expect(twoKeys.description == "1:19: root.a: expected a value for key \"a\", found <key>")
    }

    @Test func valueWithoutKeyIsAnError() throws {
        let error = try #require(T.readError("<dict>\n  <string>x</string>\n</dict>"))
        #expect(error.code == .unexpectedElement)
        #expect(error.description == "2:3: root: expected <key> or </dict>, found <string>")
        let keyInArray = try #require(T.readError("<array><key>k</key></array>"))
        #expect(keyInArray.description == "1:8: root[0]: expected a value or </array>, found <key>")
        let topKey = try #require(T.readError("<plist><key>k</key></plist>"))
        #expect(topKey.description == "1:8: expected a value inside <plist>, found <key>")
    }

    @Test func strayTextIsAnError() throws {
        let error = try #require(T.readError("<plist>\n<array>\n  hello <true/>\n</array>\n</plist>"))
        #expect(error.code == .unexpectedElement)
        #expect(error.description == "3:9: root[0]: expected an element, found text \"hello\" before <true>")
        let beforeEnd = try #require(T.readError("<dict><key>a</key><true/>x</dict>"))
        #expect(beforeEnd.description == "1:27: root: expected an element, found text \"x\" before </dict>")
        let inPlist = try #require(T.readError("<plist>text<true/></plist>"))
        #expect(inPlist.description == "1:12: expected an element, found text \"text\" before <true>")
    }

    @Test func unknownElementsAreErrors() throws {
        let error = try #require(T.readError("<plist>\n<dict>\n\t<key>a</key>\n\t<float>1</float>\n</dict>\n</plist>"))
        #expect(error.code == .unexpectedElement)
        #expect(error.description == "4:2: root.a: unknown element <float>: expected a value for key \"a\"")
        let prefixed = try #require(T.readError("<array xmlns:x=\"urn:x\"><x:string>a</x:string></array>"))
        #expect(prefixed.description == "1:24: root[0]: unknown element <x:string>: expected a value or </array>")
        let nested = try #require(T.readError("<string>a<b/></string>"))
        #expect(nested.description == "1:10: expected </string>, found <b>")
        let elementInLeaf = try #require(T.readError("<integer><integer>1</integer></integer>"))
        #expect(elementInLeaf.description == "1:10: expected </integer>, found <integer>")
    }

    @Test func misplacedPlistElementsAreErrors() throws {
        #expect(T.readError("<plist></plist>")?.description == "1:8: expected a value inside <plist>, found </plist>")
        #expect(T.readError("<plist><true/><false/></plist>")?.description == "1:15: expected </plist>, found a second top-level value <false>")
        #expect(T.readError("<plist><plist><true/></plist></plist>")?.description == "1:8: expected a value inside <plist>, found <plist>")
        #expect(T.readError("<array><plist/></array>")?.description == "1:8: root[0]: expected a value or </array>, found <plist>")
    }

    @Test func libplistRejectsAreRejectedWithPositions() throws {
        let amp = try #require(T.readError(bytes: Array(try T.fixture("amp.plist"))))
        #expect(amp.code == .malformedXML)
        #expect(amp.description == "3:18: expected ';' to end the entity reference (write a literal '&' as &amp;)")
        let invalidTag = try #require(T.readError(bytes: Array(try T.fixture("invalid_tag.plist"))))
        #expect(invalidTag.code == .malformedXML)
        #expect(invalidTag.locationDescription == "3:14")
    }

    @Test func mismatchedTagsNameBoth() throws {
        let error = try #require(T.readError("<plist>\n<dict>\n\t<key>a</key>\n\t<string>x</key>\n</dict>\n</plist>"))
        #expect(error.code == .malformedXML)
        #expect(error.description == "4:11: expected </string> (opened on line 4), found </key>")
    }

    @Test func truncatedDocumentsSayWhereTheyEnd() throws {
        let error = try #require(T.readError("<plist>\n<dict>\n<key>a</key>\n<string>abc"))
        #expect(error.code == .truncated)
        #expect(error.description.hasSuffix("the input ends inside <string> opened on line 4"))
        #expect(T.readError("")?.description == "1:1: the document is empty: expected <plist> or a value")
        #expect(T.readError("   ")?.code == .truncated)
        #expect(T.readError("<?xml version=\"1.0\"?>")?.code == .truncated)
        #expect(T.readError("x<plist/>")?.description == "1:1: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00")
        #expect(T.readError("x<plist/>")?.code == .unknownFormat)
    }

    @Test func badScalarsNameTheElementAndText() throws {
        #expect(T.readError("<array>\n<integer>12a</integer></array>")?.description
            == "2:1: root[0]: expected a decimal or 0x-prefixed hexadecimal integer in <integer>, found \"12a\"")
        #expect(T.readError("<integer></integer>")?.code == .invalidValue)
        #expect(T.readError("<integer>-</integer>")?.code == .invalidValue)
        #expect(T.readError("<integer>0x</integer>")?.code == .invalidValue)
        #expect(T.readError("<integer>1 2</integer>")?.code == .invalidValue)
        #expect(T.readError("<integer>1.5</integer>")?.code == .invalidValue)
        #expect(T.readError("<real>abc</real>")?.description == "1:1: expected a decimal number, nan or [+-]infinity in <real>, found \"abc\"")
        #expect(T.readError("<real></real>")?.code == .invalidValue)
        #expect(T.readError("<real>nan(1)</real>")?.code == .invalidValue)
        #expect(T.readError("<real> 1 2</real>")?.code == .invalidValue)
        #expect(T.readError("<date>2015-02-29T00:00Z</date>")?.description
            == "1:1: expected a date like 2015-04-20T08:05:49Z in <date>, found \"2015-02-29T00:00Z\"")
        for bad in ["2015-04-20", "2015-04-20T08:05:49", "2015-04-20T08:05:49.5Z", "15-04-20T08:05:49Z", "2015-4-20T08:05:49Z",
                    "2015-04-20T08:05:49Zx", "2015-04-20T08:05:4Z", "1234567890-01-01T00:00:00Z", "-01-01-01T00:00:00Z", ""] {
            #expect(T.readError("<date>\(bad)</date>")?.code == .invalidValue, "\(bad)")
        }
        #expect(T.readError("<true>yes</true>")?.description == "1:1: expected <true/> to be empty, found text \"yes\"")
        #expect(T.readError("<false>0</false>")?.code == .invalidValue)
        #expect(try T.read("<true> </true>") == true)
    }

    @Test func integerOverflowIsItsOwnError() throws {
        let error = try #require(T.readError("<integer>99999999999999999999</integer>"))
        #expect(error.code == .integerOverflow)
        #expect(error.description == "1:1: <integer> 99999999999999999999 is outside the 64-bit range (-9223372036854775808 to 18446744073709551615)")
        #expect(T.readError("<integer>18446744073709551616</integer>")?.code == .integerOverflow)
        #expect(T.readError("<integer>-9223372036854775809</integer>")?.code == .integerOverflow)
        #expect(T.readError("<integer>0x10000000000000000</integer>")?.code == .integerOverflow)
    }

    @Test func badBase64SaysWhatAndWhere() throws {
        #expect(T.readError("<data>AA*A</data>")?.description == "1:1: invalid base64 in <data>: '*' is not a base64 character (character 3)")
        #expect(T.readError("<data>AAA=A</data>")?.description == "1:1: invalid base64 in <data>: base64 character 'A' after '=' padding (character 5)")
        #expect(T.readError("<data>A===</data>")?.code == .invalidValue)
        #expect(T.readError("<data>=</data>")?.code == .invalidValue)
        #expect(T.readError("<data>AAAA=</data>")?.code == .invalidValue)
        #expect(T.readError("<data>AAAAA</data>")?.description == "1:1: invalid base64 in <data>: base64 ends with a lone character: 5 characters is not a whole number of bytes")
    }

    /// Whole groups of four go a faster way than single characters; whitespace anywhere, even
    /// inside a group, and padding must give the same bytes, and errors the same position.
    @Test(arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003] as [UInt64])
    func base64WithWhitespaceAnywhereDecodesExactly(seed: UInt64) throws {
        // Seeded, so that a failure repeats; the message names the seed and the text.
        var generator = SeededGenerator(state: seed)
        for length in [0, 1, 2, 3, 4, 5, 56, 57, 58, 100, 1000] {
            let bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let encoded = Array(Data(bytes).base64EncodedString().utf8)
            for _ in 0 ..< 20 {
                var text: [UInt8] = []
                for byte in encoded {
                    if Int.random(in: 0 ..< 7, using: &generator) == 0 {
                        text.append([0x20, 0x09, 0x0A, 0x0D][Int.random(in: 0 ..< 4, using: &generator)])
                    }
                    text.append(byte)
                }
                #expect(try T.read(bytes: Array("<data>".utf8) + text + Array("</data>".utf8)) == .data(Data(bytes)),
                        "seed \(seed), \(length) bytes: <data>\(String(decoding: text, as: UTF8.self).debugDescription)</data>")
            }
        }
        #expect(try T.read("<data>QUJD REVG\nR0g=</data>") == .data(Data("ABCDEFGH".utf8)))
        #expect(try T.read("<data>QUJDREVGR0g</data>") == .data(Data("ABCDEFGH".utf8)))
        #expect(T.readError("<data>QUJDREVGR0*=</data>")?.description == "1:1: invalid base64 in <data>: '*' is not a base64 character (character 11)")
        #expect(T.readError("<data>QUJD\tRE*G</data>")?.description == "1:1: invalid base64 in <data>: '*' is not a base64 character (character 8)")
    }

    @Test func keyPathsPointIntoNestedValues() throws {
        let error = try #require(T.readError("""
            <dict><key>items</key><array><true/><true/><dict><key>name</key><integer>x</integer></dict></array></dict>
            """))
        #expect(error.keyPath == "root.items[2].name")
    }

    // MARK: Limits

    @Test func enforcesMaximumDepth() throws {
        let options = PropertyListReadOptions(maximumDepth: 3)
        #expect(try T.read("<array><array><array/></array></array>", options: options) == [[[]]])
        let error = try #require(T.readError("<array><dict><key>k</key><array><array/></array></dict></array>", options: options))
        #expect(error.code == .tooDeep)
        #expect(error.description == "1:33: root[0].k[0]: containers nested deeper than the limit of 3")
    }

    @Test func enforcesMaximumObjectCount() throws {
        // Every element but <plist> counts, keys included: here 5.
        let options = PropertyListReadOptions(maximumObjectCount: 5)
        #expect(try T.read("<plist><array><true/><dict><key>k</key><false/></dict></array></plist>", options: options) == [true, ["k": false]])
        let error = try #require(T.readError("<array><true/><true/><true/><true/><true/></array>", options: options))
        #expect(error.code == .tooManyObjects)
        #expect(error.description == "1:36: root[4]: more than 5 elements")
        let keys = try #require(T.readError("<dict><key>a</key><true/><key>b</key><true/></dict>", options: PropertyListReadOptions(maximumObjectCount: 3)))
        #expect(keys.description == "1:26: root: more than 3 elements")
    }

    @Test func enforcesMaximumInputSize() throws {
        let options = PropertyListReadOptions(maximumInputSize: 10)
        #expect(try T.read("<true/>", options: options) == true)
        let error = try #require(T.readError("<string>long</string>", options: options))
        #expect(error.code == .tooLarge)
        #expect(error.description == "input is 21 bytes, more than the limit of 10")
    }

    // MARK: libplist fixtures

    @Test func libplistFixturesHaveTheirValues() throws {
        let hex = try XMLPropertyListReader(options: .default).read(try T.fixture("hex.plist"))
        #expect(hex == .integer(PropertyListInteger(Int64(0x73709551615))))
        let mixed = try XMLPropertyListReader(options: .default).read(try T.fixture("signedunsigned.plist"))
        #expect(mixed == [-1, .integer(PropertyListInteger(UInt64.max)), .integer(PropertyListInteger(Int64.max)),
                          .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64(1) << 63))])
        #expect(try XMLPropertyListReader(options: .default).read(try T.fixture("signed.plist")) == -1)
        #expect(try XMLPropertyListReader(options: .default).read(try T.fixture("unsigned.plist")) == .integer(PropertyListInteger(UInt64.max)))
        #expect(try XMLPropertyListReader(options: .default).read(try T.fixture("offxml.plist")) == ["A": "B"])
        let dates = try XMLPropertyListReader(options: .default).read(try T.fixture("7.plist"))
        #expect(dates == ["Time1": T.date(1_289_567_655), "Time2": T.date(1_215_320_643), "Time3": T.date(-3_187_007_008), "Time4": T.date(7_246_545_011)])
        let cdata = try XMLPropertyListReader(options: .default).read(try T.fixture("cdata.plist"))
        #expect(cdata == ["cdata&key": "string with cdata content:  !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~ !!!"])
        let order = try XMLPropertyListReader(options: .default).read(try T.fixture("order.plist"))
        #expect(order.dictionaryValue?.keys == ["test", "foo"])
        let numbers = try XMLPropertyListReader(options: .default).read(try T.fixture("6.plist"))
        #expect(numbers.arrayValue?.isEmpty == false)
    }

    /// empty_keys.plist spells the empty key twice (once as `<key><!-- comment --></key>`):
    /// a duplicate, read last-wins by default, refused by strict reading.
    @Test func emptyKeysFixtureHasADuplicateKey() throws {
        let data = try T.fixture("empty_keys.plist")
        let error = try #require(T.readError(bytes: Array(data), options: .strict))
        #expect(error.code == .duplicateKey)
        #expect(error.description == "5:5: root.: duplicate key \"\" in <dict>: each key may appear once")
        #expect(try XMLPropertyListReader(options: .default).read(data) == ["": "empty key with comment"])
    }
}

/// Helpers shared by the XML reader, writer and hostile-input tests.
enum XMLTestSupport {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    static func read(_ text: String, options: PropertyListReadOptions = .default) throws -> PropertyListValue {
        try XMLPropertyListReader(options: options).read(Data(text.utf8))
    }

    static func read(bytes: [UInt8], options: PropertyListReadOptions = .default) throws -> PropertyListValue {
        try XMLPropertyListReader(options: options).read(Data(bytes))
    }

    /// The error reading `text` throws, or `nil` when it reads.
    static func readError(_ text: String, options: PropertyListReadOptions = .default) -> PropertyListError? {
        readError(bytes: Array(text.utf8), options: options)
    }

    static func readError(bytes: [UInt8], options: PropertyListReadOptions = .default) -> PropertyListError? {
        do {
            _ = try XMLPropertyListReader(options: options).read(Data(bytes))
            return nil
        } catch let error as PropertyListError {
            return error
        } catch {
            Issue.record("unexpected error type \(error)")
            return nil
        }
    }

    static func write(_ value: PropertyListValue, keyOrder: PropertyListWriter.KeyOrder = .preserved) throws -> String {
        String(decoding: try XMLPropertyListWriter(keyOrder: keyOrder).write(value), as: UTF8.self)
    }

    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/libplist/\(name)", withExtension: nil))
        return try Data(contentsOf: url)
    }

    /// The XML fixtures libplist's README says must round-trip.
    static let roundTripFixtures = [
        "1.plist", "2.plist", "3.plist", "4.plist", "6.plist", "7.plist", "cdata.plist",
        "empty_keys.plist", "entities.plist", "hex.plist",
    ]

    /// Every XML fixture, the ones that must be rejected included.
    static let allXMLFixtures = roundTripFixtures + [
        "amp.plist", "invalid_tag.plist", "offxml.plist", "order.plist", "signed.plist",
        "unsigned.plist", "signedunsigned.plist",
    ]

    static func date(_ secondsSince1970: Int) -> PropertyListValue {
        .date(Date(timeIntervalSince1970: TimeInterval(secondsSince1970)))
    }
}
