import Foundation
import Testing

/// The golden files in `Expected/` are the tool's own output: comparing with them proves only
/// that nothing changed. `golden_cross_check.py` checks what they say against the inputs they
/// were made from, read by Python's standard library (plistlib, json, csv, html.parser), so a
/// golden file rewritten with a wrong value fails here even after a review let it through.
@Suite struct GoldenCrossCheckTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("golden_cross_check.py")

    static func check(_ expected: URL = EndToEnd.expected) throws -> (status: Int32, text: String) {
        let output = try ToolRunner.capture(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "--expected", expected.path])
        return (output.status, String(decoding: output.stdout + output.stderr, as: UTF8.self))
    }

    @Test func everyGoldenFileAgreesWithAnIndependentReader() throws {
        let (status, text) = try Self.check()
        #expect(status == 0, "\(text)")
        #expect(text.contains(" 0 mismatches"), "\(text)")
        // Every golden file but scan/evidence's prose (10) is checked; a new kind of golden file
        // with no checker shows up as "not checked" and lowers nothing silently.
        let checked = text.split(separator: "\n").filter { $0.hasPrefix("ok   ") }.count
        let unchecked = text.split(separator: "\n").filter { $0.hasPrefix("not checked ") }
        #expect(checked >= 49, "\(text)")
        #expect(unchecked.allSatisfy { $0.contains("scan/evidence/") }, "\(unchecked)")
    }

    /// The checker can fail: a byte count, an object count and an unescaped `<script>` put into
    /// a copy of the golden files are each found.
    @Test func aWrongGoldenFileIsFound() throws {
        let folder = try TemporaryDirectory()
        let copy = folder.url.appendingPathComponent("Expected")
        try FileManager.default.copyItem(at: EndToEnd.expected, to: copy)
        func change(_ name: String, _ from: String, _ to: String) throws {
            let file = copy.appendingPathComponent(name)
            let text = try String(contentsOf: file, encoding: .utf8)
            try #require(text.contains(from), "\(name) no longer holds \(from)")
            try Data(text.replacingOccurrences(of: from, with: to).utf8).write(to: file)
        }
        try change("inspect/ios9-xml.plist.json", "\"bytesReceived\": 4096", "\"bytesReceived\": 4097")
        try change("archive/ios12-keyed-archive.resumedata.txt", "19 objects", "18 objects")
        try change("scan/renderers.html", "&lt;script&gt;", "<script>")
        let (status, text) = try Self.check(copy)
        #expect(status == 1, "\(text)")
        #expect(text.contains("inspect/ios9-xml.plist.json: bytesReceived is 4097, the blob's NSURLSessionResumeBytesReceived is 4096"), "\(text)")
        #expect(text.contains("FAIL archive/ios12-keyed-archive.resumedata.txt"), "\(text)")
        #expect(text.contains("renderers.html: a hostile <script> is markup"), "\(text)")
    }
}
