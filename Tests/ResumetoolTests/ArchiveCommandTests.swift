import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool archive`: any keyed archive as a resolved tree, text and JSON; shared objects,
/// cycles, depth and broken UIDs.
@Suite struct ArchiveCommandTests {
    /// The samples that are keyed archives (the Network-framework ones once XOR-ed back).
    static let archives = [
        "broken-missing-validator.resumedata", "broken-too-small.resumedata", "ios12-keyed-archive.resumedata",
        "newer-obscured-format.resumedata", "nwurlsession-ios17.resumedata", "nwurlsession-ios26.resumedata",
        "nwurlsession-webkit.resumedata", "webkit-keyed-archive.plist",
    ]

    /// The other samples, with the diagnostic each gets.
    static let others: [(name: String, diagnostic: String)] = [
        ("binary-dictionary.bplist", "binary-dictionary.bplist: error: no $archiver key: not a keyed archive"),
        ("ios10-corrupted-requests.plist", "ios10-corrupted-requests.plist: error: no $archiver key: not a keyed archive"),
        ("ios11-byte-range.plist", "ios11-byte-range.plist: error: no $archiver key: not a keyed archive"),
        ("ios8-local-path.plist", "ios8-local-path.plist: error: no $archiver key: not a keyed archive"),
        ("ios9-xml.plist", "ios9-xml.plist: error: no $archiver key: not a keyed archive"),
        ("broken-truncated.resumedata",
         "broken-truncated.resumedata: byte 0x1183: error: object-reference size is 214; it must be 1 to 8 (the last 32 bytes are not a trailer: is the file truncated?)"),
        ("broken-xml.plist", "broken-xml.plist:6:66: error: expected </string> (opened on line 6), found </key>"),
        ("CFNetworkDownload_Occ2S2.tmp",
         "CFNetworkDownload_Occ2S2.tmp:1:1: error: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00"),
        ("README.md", "README.md:1:1: error: not a property list: expected XML (<plist> or a value) or binary data starting with bplist00"),
    ]

    @Test func everySampleIsCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: EndToEnd.samples.path).filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Set(Self.archives + Self.others.map(\.name)))
    }

    @Test(arguments: archives)
    func everyArchiveSampleAsTextAndJSON(_ sample: String) throws {
        let text = try EndToEnd.run(["archive", sample])
        #expect(text.status == 0)
        #expect(text.stderr == "")
        try EndToEnd.checkExpected(text.stdout, "archive/\(sample).txt")
        let json = try EndToEnd.run(["archive", "--json", sample])
        #expect(json.status == 0)
        #expect(json.stderr == "")
        try EndToEnd.checkExpected(json.stdout, "archive/\(sample).json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let obscured = ["newer-obscured-format.resumedata", "nwurlsession-ios17.resumedata", "nwurlsession-ios26.resumedata"].contains(sample)
        #expect(object["xorUndone"] as? Bool == obscured)
        #expect(object["archiver"] as? String == "NSKeyedArchiver")
    }

    @Test(arguments: others.map(\.name))
    func everyOtherSampleIsAnError(_ sample: String) throws {
        let diagnostic = try #require(Self.others.first { $0.name == sample }?.diagnostic)
        let result = try EndToEnd.run(["archive", sample])
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: diagnostic + "\n"))
    }

    @Test(arguments: ["response-2008-http-legacy.bplist", "response-2020-http-secure.bplist", "response-2023-file-secure.bplist"])
    func theRealResponses(_ fixture: String) throws {
        let bytes = try Data(contentsOf: EndToEnd.fixtures.appendingPathComponent("real/\(fixture)"))
        let result = try EndToEnd.run(["archive", "-"], stdin: bytes)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        try EndToEnd.checkExpected(result.stdout, "archive/\(fixture).txt")
    }

    static func classDescription(_ chain: String...) -> PropertyListValue {
        ["$classname": .string(chain[0]), "$classes": .array(chain.map(PropertyListValue.string))]
    }

    static func archive(_ objects: [PropertyListValue]) throws -> Data {
        try PropertyListWriter().write([
            "$version": 100_000, "$archiver": "NSKeyedArchiver", "$top": ["root": .uid(1)], "$objects": .array(objects),
        ], as: .binary)
    }

    @Test func sharedObjectsAndCyclesAreMarked() throws {
        let bytes = try Self.archive([
            "$null",
            ["$class": .uid(2), "next": .uid(3), "again": .uid(3), "list": [.uid(3), .uid(0)]],
            Self.classDescription("Node", "NSObject"),
            ["$class": .uid(2), "back": .uid(1), "value": "x"],
        ])
        let text = try EndToEnd.run(["archive", "-"], stdin: bytes)
        #expect(text == ToolRunner.Result(status: 0, stdout: """
            <stdin>: NSKeyedArchiver archive, version 100000, 4 objects, top key "root"
            $top.root: #1 Node
              next: #3 Node
                back: #1 Node (cycle: it contains this reference)
                value: string "x"
              again: #3 Node (shared: shown above)
              list: array (2 items)
                [0]: #3 Node (shared: shown above)
                [1]: nil

            """, stderr: ""))
        let json = try EndToEnd.run(["archive", "--json", "-"], stdin: bytes)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let root = try #require(object["root"] as? [String: Any])
        let fields = try #require(root["fields"] as? [String: Any])
        let next = try #require(fields["next"] as? [String: Any])
        let back = try #require((next["fields"] as? [String: Any])?["back"] as? [String: Any])
        #expect(back["uid"] as? Int == 1)
        #expect(back["shown"] as? String == "cycle")
        #expect((fields["again"] as? [String: Any])?["shown"] as? String == "above")
    }

    @Test func aDeepArchiveIsAnErrorWithItsKeyPath() throws {
        var objects: [PropertyListValue] = ["$null"]
        for index in 1...300 { objects.append(["$class": .uid(302), "child": .uid(UInt64(index + 1))]) }
        objects.append(["$class": .uid(302)])
        objects.append(Self.classDescription("Deep", "NSObject"))
        let result = try EndToEnd.run(["archive", "-"], stdin: try Self.archive(objects))
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: "<stdin>: error: $objects[128].child: objects nested deeper than 128\n"))
    }

    @Test func aUIDOutOfRangeNamesWhereItWasFound() throws {
        let bytes = try Self.archive([
            "$null",
            ["$class": .uid(2), "NS.keys": [.uid(3)], "NS.objects": [.uid(40)]],
            Self.classDescription("NSDictionary", "NSObject"),
            "key",
        ])
        let result = try EndToEnd.run(["archive", "-"], stdin: bytes)
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: "<stdin>: error: $objects[1].NS.objects[0]: UID 40 out of range (4 objects)\n"))
    }

    @Test func aClassThatIsNotADescriptionIsAnError() throws {
        let bytes = try Self.archive(["$null", ["$class": .uid(1)]])
        let result = try EndToEnd.run(["archive", "-"], stdin: bytes)
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: "<stdin>: error: $objects[1].$class: the class of $objects[1] is the object itself\n"))
    }
}
