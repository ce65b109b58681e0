import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool plist print` and `plist convert`, on libplist's fixtures and the real archives.
@Suite struct PlistCommandTests {
    static let fixtures = EndToEnd.fixtures

    /// Runs with the fixtures folder as the working folder, so diagnostics name `libplist/…`.
    static func run(_ arguments: [String], stdin: Data? = nil) throws -> ToolRunner.Result {
        try EndToEnd.run(arguments, stdin: stdin, in: fixtures)
    }

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    @Test func printDates() throws {
        let result = try Self.run(["plist", "print", "libplist/7.plist"])
        #expect(result == ToolRunner.Result(status: 0, stdout: """
            dictionary (4 entries)
              Time1: date 2010-11-12T13:14:15Z
              Time2: date 2008-07-06T05:04:03Z
              Time3: date 1869-01-03T08:16:32Z
              Time4: date 2199-08-20T01:10:11Z

            """, stderr: ""))
    }

    @Test func printDataIntegersAndUID() throws {
        let data = try Self.run(["plist", "print", "libplist/data.bplist"])
        #expect(data == ToolRunner.Result(status: 0, stdout: """
            dictionary (1 entry)
              "Some Data": data (3655 bytes) <30313233343536373839544553543031…>

            """, stderr: ""))
        let integers = try Self.run(["plist", "print", "libplist/signedunsigned.bplist"])
        #expect(integers == ToolRunner.Result(status: 0, stdout: """
            array (5 items)
              [0]: integer -1
              [1]: integer 18446744073709551615
              [2]: integer 9223372036854775807
              [3]: integer -9223372036854775808
              [4]: integer 9223372036854775808

            """, stderr: ""))
        let uid = try Self.run(["plist", "print", "libplist/uid.bplist"])
        #expect(uid == ToolRunner.Result(status: 0, stdout: "UID(7)\n", stderr: ""))
    }

    @Test func printARealRequestArchive() throws {
        let result = try Self.run(["plist", "print", "real/ios10.1-current-request.bplist"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        try EndToEnd.checkExpected(result.stdout, "plist/ios10.1-current-request.txt")
        let stdin = try Self.run(["plist", "print", "-"], stdin: try Self.fixture("real/ios10.1-current-request.bplist"))
        #expect(stdin == result)
    }

    @Test(arguments: ["libplist/7.plist", "libplist/hex.plist", "libplist/signedunsigned.plist", "libplist/cdata.plist",
                      "libplist/order.plist", "libplist/uid.bplist", "libplist/data.bplist", "real/ios10.1-original-request.bplist"])
    func convertBothWaysKeepsTheValue(_ name: String) throws {
        let folder = try TemporaryDirectory()
        let original = try PropertyListReader().read(try Self.fixture(name)).value
        for format in ["xml", "binary"] {
            let output = folder.path(format)
            let result = try Self.run(["plist", "convert", "--to", format, name, "-o", output])
            #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
            let (value, written) = try PropertyListReader().read(try Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(value == original, "\(name) → \(format)")
            #expect(written.rawValue == format)
            // Our own output converts to itself byte for byte.
            let again = folder.path(format + ".again")
            #expect(try Self.run(["plist", "convert", "--to", format, output, "-o", again]).status == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == (try Data(contentsOf: URL(fileURLWithPath: output))))
        }
        #expect(try folder.contents() == ["binary", "binary.again", "xml", "xml.again"])
    }

    @Test func binaryToAPipeIsWhatTheFileGets() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("out.bplist")
        #expect(try Self.run(["plist", "convert", "--to", "binary", "libplist/order.plist", "-o", output]).status == 0)
        let file = try Data(contentsOf: URL(fileURLWithPath: output))
        let piped = try EndToEnd.runForBytes(["plist", "convert", "--to", "binary", "-", "-o", "-"],
                                             stdin: try Self.fixture("libplist/order.plist"))
        #expect(piped == file)
        #expect(try PropertyListReader().read(piped).value == (try PropertyListReader().read(try Self.fixture("libplist/order.bplist")).value))
    }

    @Test func convertToXMLIsApplesLayout() throws {
        let bytes = try Self.fixture("libplist/7.plist")
        let result = try Self.run(["plist", "convert", "--to", "xml", "libplist/7.plist"])
        #expect(result == ToolRunner.Result(status: 0, stdout: String(decoding: bytes, as: UTF8.self), stderr: ""))
        let uid = try Self.run(["plist", "convert", "--to", "xml", "libplist/uid.bplist"])
        #expect(uid == ToolRunner.Result(status: 0, stdout: """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>CF$UID</key>
            \t<integer>7</integer>
            </dict>
            </plist>

            """, stderr: ""))
    }

    @Test func jsonRealsAndEscapes() throws {
        // Binary, because XML cannot hold most control characters.
        let value: PropertyListValue = .array([
            .real(PropertyListReal(60.0)), .real(PropertyListReal(-0.0)), .real(PropertyListReal(0.0)),
            .real(PropertyListReal(-3.0)), .real(PropertyListReal(1.5)), .real(PropertyListReal(1e20)),
            .real(PropertyListReal(Double.nan)), .real(PropertyListReal(-Double.infinity)),
            .string("q\"b\\n\nr\rt\tc\u{1}\u{1F}\u{7F}é😀"),
        ])
        let bytes = try PropertyListWriter().write(value, as: .binary)
        let result = try Self.run(["plist", "convert", "--to", "json", "-"], stdin: bytes)
        #expect(result == ToolRunner.Result(status: 0, stdout: """
            [
              60.0,
              -0.0,
              0.0,
              -3.0,
              1.5,
              1e+20,
              "nan",
              "-infinity",
              "q\\"b\\\\n\\nr\\rt\\tc\\u0001\\u001f\u{7F}é😀"
            ]

            """, stderr: "-: warning: [6]: real nan written as a string\n-: warning: [7]: real -inf written as a string\n"))
    }

    @Test func convertToJSON() throws {
        let dates = try Self.run(["plist", "convert", "--to", "json", "libplist/7.plist"])
        #expect(dates == ToolRunner.Result(status: 0, stdout: """
            {
              "Time1": "2010-11-12T13:14:15Z",
              "Time2": "2008-07-06T05:04:03Z",
              "Time3": "1869-01-03T08:16:32Z",
              "Time4": "2199-08-20T01:10:11Z"
            }

            """, stderr: ""))
        let uid = try Self.run(["plist", "convert", "--to", "json", "-"], stdin: try Self.fixture("libplist/uid.bplist"))
        #expect(uid == ToolRunner.Result(status: 0, stdout: "{\n  \"CF$UID\": 7\n}\n", stderr: ""))
        let integers = try Self.run(["plist", "convert", "--to", "json", "libplist/signedunsigned.bplist"])
        #expect(integers.stdout == "[\n  -1,\n  18446744073709551615,\n  9223372036854775807,\n  -9223372036854775808,\n  9223372036854775808\n]\n")
        let data = try Self.run(["plist", "convert", "--to", "json", "libplist/data.bplist"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data.stdout.utf8)) as? [String: String])
        let base64 = try #require(object["Some Data"])
        let decoded = try #require(Data(base64Encoded: base64))
        #expect(try PropertyListReader().read(try Self.fixture("libplist/data.bplist")).value == ["Some Data": .data(decoded)])
    }

    /// `plist print --json` prints what `plist convert --to json` writes, warnings included.
    @Test(arguments: ["libplist/7.plist", "libplist/uid.bplist", "libplist/signedunsigned.bplist", "libplist/data.bplist"])
    func printJSONIsConvertsJSON(_ name: String) throws {
        let printed = try Self.run(["plist", "print", "--json", name])
        let converted = try Self.run(["plist", "convert", "--to", "json", name])
        #expect(printed.status == 0)
        #expect(printed == converted)
    }

    @Test func printJSONOfDates() throws {
        let dates = try Self.run(["plist", "print", "--json", "libplist/7.plist"])
        #expect(dates == ToolRunner.Result(status: 0, stdout: "{\n  \"Time1\": \"2010-11-12T13:14:15Z\",\n  \"Time2\": \"2008-07-06T05:04:03Z\",\n  \"Time3\": \"1869-01-03T08:16:32Z\",\n  \"Time4\": \"2199-08-20T01:10:11Z\"\n}\n", stderr: ""))
    }

    @Test func sortKeys() throws {
        let result = try Self.run(["plist", "convert", "--to", "json", "--sort-keys", "libplist/order.plist"])
        #expect(result.status == 0)
        let foo = try #require(result.stdout.range(of: "\"foo\""))
        let test = try #require(result.stdout.range(of: "\"test\": ["))
        #expect(foo.lowerBound < test.lowerBound)
        let unsorted = try Self.run(["plist", "convert", "--to", "json", "libplist/order.plist"])
        let unsortedTest = try #require(unsorted.stdout.range(of: "\"test\": ["))
        let unsortedFoo = try #require(unsorted.stdout.range(of: "\"foo\""))
        #expect(unsortedTest.lowerBound < unsortedFoo.lowerBound)
    }

    static let rejected: [(name: String, diagnostic: String)] = [
        ("libplist/amp.plist", "libplist/amp.plist:3:18: error: expected ';' to end the entity reference (write a literal '&' as &amp;)"),
        ("libplist/invalid_tag.plist", "libplist/invalid_tag.plist:3:14: error: markup that is not well-formed XML: expected a tag, text, a comment or CDATA"),
        ("libplist/malformed_dict.bplist", "libplist/malformed_dict.bplist: byte 0x23: error: object 7: key 0 is an array (object 2), not a string"),
        ("libplist/recursion.bplist", "libplist/recursion.bplist: byte 0xa: error: object 0: B.A: object 1 contains itself (reference cycle through object 0)"),
        ("../../../Samples/broken-xml.plist", "../../../Samples/broken-xml.plist:6:66: error: expected </string> (opened on line 6), found </key>"),
        ("../../../Samples/broken-truncated.resumedata", "../../../Samples/broken-truncated.resumedata: byte 0x1183: error: object-reference size is 214; it must be 1 to 8 (the last 32 bytes are not a trailer: is the file truncated?)"),
        ("real/README.md", "real/README.md:1:1: error: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00"),
        ("no-such.plist", "no-such.plist: error: no such file"),
        ("libplist", "libplist: error: it is a folder, not a regular file"),
    ]

    @Test(arguments: rejected.map(\.name))
    func badInputIsOneLineExitTwoAndWritesNothing(_ name: String) throws {
        let diagnostic = try #require(Self.rejected.first { $0.name == name }?.diagnostic)
        let printed = try Self.run(["plist", "print", name])
        #expect(printed == ToolRunner.Result(status: 2, stdout: "", stderr: diagnostic + "\n"))
        let folder = try TemporaryDirectory()
        let existing = folder.path("existing")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        for format in ["xml", "binary", "json"] {
            let fresh = try Self.run(["plist", "convert", "--to", format, name, "-o", folder.path("fresh")])
            #expect(fresh == ToolRunner.Result(status: 2, stdout: "", stderr: diagnostic + "\n"))
            let over = try Self.run(["plist", "convert", "--to", format, name, "-o", existing])
            #expect(over.status == 2)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("keep me".utf8))
        #expect(try folder.contents() == ["existing"])
    }

    /// A binary plist's null object (marker 0x00, which CoreFoundation reads as kCFNull) is
    /// printed, kept in binary and JSON, and refused in XML with its key path and no output file.
    @Test func nullObject() throws {
        let blob = try PropertyListWriter().write(["a": [.null, 1]], as: .binary)
        let print = try Self.run(["plist", "print", "-"], stdin: blob)
        #expect(print == ToolRunner.Result(status: 0, stdout: """
            dictionary (1 entry)
              a: array (2 items)
                [0]: null
                [1]: integer 1

            """, stderr: ""))
        let folder = try TemporaryDirectory()
        let binary = try Self.run(["plist", "convert", "--to", "binary", "-", "-o", folder.path("out.bplist")], stdin: blob)
        #expect(binary == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("out.bplist"))) == blob)
        let json = try Self.run(["plist", "convert", "--to", "json", "-"], stdin: blob)
        #expect(json == ToolRunner.Result(status: 0, stdout: "{\n  \"a\": [\n    null,\n    1\n  ]\n}\n", stderr: ""))
        let xml = try Self.run(["plist", "convert", "--to", "xml", "-", "-o", folder.path("out.plist")], stdin: blob)
        #expect(xml == ToolRunner.Result(status: 1, stdout: "", stderr: folder.path("out.plist") + ": error: root.a[0]: a null object (binary marker 0x00) has no XML spelling\n"))
        #expect(try folder.contents() == ["out.bplist"])
    }

    @Test func badStandardInputIsNamedStdin() throws {
        let xml = try Self.run(["plist", "print", "-"], stdin: Data("<plist><dict><key>a</key><string>x</key></dict></plist>".utf8))
        #expect(xml == ToolRunner.Result(status: 2, stdout: "", stderr: "<stdin>:1:35: error: expected </string> (opened on line 1), found </key>\n"))
        let binary = try Self.run(["plist", "convert", "--to", "json", "-"], stdin: Data("bplist00".utf8))
        #expect(binary.status == 2)
        #expect(binary.stdout == "")
        #expect(binary.stderr.hasPrefix("<stdin>: byte 0x"))
        #expect(binary.stderr.contains(": error: "))
    }

    @Test func usageErrors() throws {
        let noFile = try Self.run(["plist", "print"])
        #expect(noFile.status == 64)
        #expect(noFile.stdout == "")
        #expect(noFile.stderr.hasPrefix("Error: Missing expected argument '<file>'"))
        let badFormat = try Self.run(["plist", "convert", "--to", "yaml", "libplist/7.plist"])
        #expect(badFormat.status == 64)
        #expect(badFormat.stderr.hasPrefix("Error: The value 'yaml' is invalid for '--to <to>'. Please provide one of 'xml', 'binary' or 'json'."))
        let noFormat = try Self.run(["plist", "convert", "libplist/7.plist"])
        #expect(noFormat.status == 64)
        #expect(noFormat.stderr.hasPrefix("Error: Missing expected argument '--to <to>'"))
        let unknown = try Self.run(["plist", "dump", "libplist/7.plist"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: 2 unexpected arguments: 'dump', 'libplist/7.plist'\nUsage: resumetool plist <subcommand>"))
    }
}
