import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool repair`: the change lines, where they go, and what the output holds.
@Suite struct RepairCommandTests {
    static let toLegacy = [
        "NSURLSessionResumeCurrentRequest: request archive from the secure layout to the legacy layout",
        "NSURLSessionResumeOriginalRequest: request archive from the secure layout to the legacy layout",
    ]
    static let toSecure = [
        "NSURLSessionResumeCurrentRequest: request archive from the legacy layout to the secure layout",
        "NSURLSessionResumeOriginalRequest: request archive from the legacy layout to the secure layout",
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        var sample: String
        var target: String?
        var changes: [String]
        var container: ResumeDataContainer
        var layout: URLRequestArchive.Layout?
        var testDescription: String { "\(sample) \(target ?? "default")" }
    }

    static let cases: [Case] = [
        Case(sample: "ios10-corrupted-requests.plist", target: nil, changes: toLegacy, container: .xml, layout: .legacy),
        Case(sample: "ios11-byte-range.plist", target: nil, changes: ["removed NSURLSessionResumeByteRange"], container: .xml, layout: .secure),
        Case(sample: "ios9-xml.plist", target: nil, changes: ["nothing to repair"], container: .xml, layout: .legacy),
        Case(sample: "ios12-keyed-archive.resumedata", target: nil, changes: ["nothing to repair"], container: .keyedArchive, layout: .secure),
        Case(sample: "ios10-corrupted-requests.plist", target: "ios10", changes: toLegacy, container: .xml, layout: .legacy),
        Case(sample: "ios11-byte-range.plist", target: "ios10", changes: toLegacy, container: .xml, layout: .legacy),
        Case(sample: "ios12-keyed-archive.resumedata", target: "ios10",
             changes: toLegacy + ["container: keyed-archive → xml"], container: .xml, layout: .legacy),
        Case(sample: "ios9-xml.plist", target: "ios10", changes: ["nothing to repair"], container: .xml, layout: .legacy),
        Case(sample: "ios11-byte-range.plist", target: "ios11", changes: ["removed NSURLSessionResumeByteRange"], container: .xml, layout: .secure),
        Case(sample: "ios10-corrupted-requests.plist", target: "ios11", changes: ["nothing to repair"], container: .xml, layout: .secure),
        Case(sample: "webkit-keyed-archive.plist", target: "ios11",
             changes: ["container: keyed-archive-xml → xml"], container: .xml, layout: .secure),
        Case(sample: "ios9-xml.plist", target: "modern", changes: toSecure + ["container: xml → keyed-archive"], container: .keyedArchive, layout: .secure),
        Case(sample: "ios10-corrupted-requests.plist", target: "modern", changes: ["container: xml → keyed-archive"], container: .keyedArchive, layout: .secure),
        Case(sample: "binary-dictionary.bplist", target: "modern", changes: toSecure + ["container: binary → keyed-archive"], container: .keyedArchive, layout: .secure),
        Case(sample: "ios12-keyed-archive.resumedata", target: "modern", changes: ["nothing to repair"], container: .keyedArchive, layout: .secure),
    ]

    /// The kinds of finding each target mends.
    static func mended(by target: String?) -> [ResumeDataFinding.Code] {
        switch target {
        case "ios10": [.ios10RequestArchive]
        case "ios11": [.ios11ByteRange]
        case "modern": []
        default: [.ios10RequestArchive, .ios11ByteRange]
        }
    }

    @Test(arguments: cases)
    func toAFile(_ test: Case) throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("repaired")
        let target = test.target.map { ["--target", $0] } ?? []
        let result = try EndToEnd.run(["repair", test.sample] + target + ["-o", output])
        // Written to a file: the change lines are the command's output.
        let lines = test.changes.map { "\(test.sample): \($0)\n" }.joined()
        #expect(result == ToolRunner.Result(status: 0, stdout: lines, stderr: ""))

        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        let repaired = try ResumeData(data: bytes)
        #expect(repaired.container == test.container)
        #expect(try repaired.request(.current)?.layout == test.layout)
        #expect(try repaired.request(.original)?.layout == test.layout)
        let findings = ResumeDataValidator(blobSize: bytes.count).findings(for: repaired).map(\.code)
        for code in Self.mended(by: test.target) { #expect(!findings.contains(code), "\(code) is still found") }
        if test.target == "ios11" || (test.target == nil && test.sample == "ios11-byte-range.plist") {
            #expect(repaired.byteRange == nil)
        }
        // Every other key survives.
        let original = try ResumeData(data: try EndToEnd.sample(test.sample))
        for key in original.entries.keys where !key.hasSuffix("Request") && key != "NSURLSessionResumeByteRange" {
            #expect(repaired.entries[key] == original.entries[key], "\(key) changed")
        }
        #expect(try folder.contents() == ["repaired"])
    }

    @Test func toStandardOutputTheChangesGoToStandardError() throws {
        let result = try EndToEnd.run(["repair", "ios10-corrupted-requests.plist"])
        #expect(result.status == 0)
        #expect(result.stderr == Self.toLegacy.map { "ios10-corrupted-requests.plist: \($0)\n" }.joined())
        let repaired = try ResumeData(data: Data(result.stdout.utf8))
        #expect(repaired.container == .xml)
        #expect(ResumeDataValidator().findings(for: repaired).isEmpty)

        let nothing = try EndToEnd.run(["repair", "-", "-o", "-"], stdin: try EndToEnd.sample("ios9-xml.plist"))
        #expect(nothing == ToolRunner.Result(
            status: 0, stdout: String(decoding: try EndToEnd.sample("ios9-xml.plist"), as: UTF8.self),
            stderr: "<stdin>: nothing to repair\n"))
    }

    @Test func mendedOutputValidatesClean() throws {
        let folder = try TemporaryDirectory()
        for (sample, target) in [("ios10-corrupted-requests.plist", "ios10"), ("ios11-byte-range.plist", "ios11")] {
            let output = folder.path(sample)
            #expect(try EndToEnd.run(["repair", sample, "--target", target, "-o", output]).status == 0)
            let validated = try EndToEnd.run(["validate", output])
            #expect(validated == ToolRunner.Result(status: 0, stdout: "\(output): ok\n", stderr: ""))
        }
    }

    @Test func rejectedInputWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let existing = folder.path("existing")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        for (sample, diagnostic) in EndToEnd.unreadableSamples {
            let result = try EndToEnd.run(["repair", sample, "--target", "ios10", "-o", existing])
            #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: diagnostic + "\n"))
            let fresh = try EndToEnd.run(["repair", sample, "-o", folder.path("fresh")])
            #expect(fresh.status == 2)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("keep me".utf8))
        #expect(try folder.contents() == ["existing"])
    }

    @Test func unknownTargetIsAUsageError() throws {
        let result = try EndToEnd.run(["repair", "ios9-xml.plist", "--target", "ios7"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: The value 'ios7' is invalid for '--target <target>'"))
    }
}
