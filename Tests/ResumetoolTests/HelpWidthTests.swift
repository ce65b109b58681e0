import Foundation
import Testing

/// Every command's examples fit an 80-column terminal: swift-argument-parser wraps the help at
/// the terminal's width, and a command cut in the middle cannot be copied. Each example line
/// (and each continuation after a `\`) starts indented; a wrapped line would start at column 0.
@Suite struct HelpWidthTests {
    static let commands = [
        ["inspect"], ["validate"], ["explain"], ["edit"], ["convert"], ["repair"], ["rebuild"], ["relocate"],
        ["discard"], ["plist", "print"], ["plist", "convert"], ["archive"], ["scan"], ["tasks"], ["download"],
        ["resume"], ["recover"],
    ]

    @Test(arguments: commands)
    func examplesFitEightyColumns(_ command: [String]) throws {
        let output = try ToolRunner.capture(
            URL(fileURLWithPath: "/usr/bin/env"), ["COLUMNS=80", ToolRunner.executable.path] + command + ["--help"])
        #expect(output.status == 0)
        let lines = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Example") }) else {
            Issue.record("\(command): no examples in the help")
            return
        }
        let examples = lines[(start + 1)...].prefix { !$0.isEmpty }
        #expect(!examples.isEmpty)
        for line in examples {
            #expect(line.hasPrefix("  "), "\(command): a wrapped example line: \(line)")
            #expect(line.count <= 80, "\(command): \(line.count) columns: \(line)")
        }
    }
}
