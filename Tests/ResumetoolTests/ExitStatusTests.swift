import Foundation
import Testing

/// One table of exit statuses for every command: an input that cannot be read is 2 whichever
/// command was given it, and every command's help says so in the same words.
@Suite struct ExitStatusTests {
    /// Each command given an input that does not exist, with the diagnostic it prints.
    static let missingInputs: [(arguments: [String], stderr: String)] = [
        (["inspect", "missing.plist"], "missing.plist: error: no such file\n"),
        (["validate", "missing.plist"], "missing.plist: error: no such file\n"),
        (["explain", "missing.plist"], "missing.plist: error: no such file\n"),
        (["convert", "missing.plist", "--to", "xml"], "missing.plist: error: no such file\n"),
        (["repair", "missing.plist"], "missing.plist: error: no such file\n"),
        (["rebuild", "--partial", "missing.tmp", "--url", "https://example.com/a", "--etag", "\"e\""],
         "missing.tmp: error: no such file\n"),
        (["relocate", "missing.plist", "--temp-file", "CFNetworkDownload_x.tmp"], "missing.plist: error: no such file\n"),
        (["edit", "missing.plist", "--url", "https://example.com/a"], "missing.plist: error: no such file\n"),
        (["discard", "missing.plist"], "missing.plist: error: no such file\n"),
        (["plist", "print", "missing.plist"], "missing.plist: error: no such file\n"),
        (["plist", "convert", "--to", "xml", "missing.plist"], "missing.plist: error: no such file\n"),
        (["archive", "missing.plist"], "missing.plist: error: no such file\n"),
        (["download", "-i", "missing.txt"], "missing.txt: error: no such file\n"),
        (["resume", "missing.resume"], "missing.resume: error: no such file\n"),
        (["tasks", "missing.sqlite"], "missing.sqlite: error: cannot open: No such file or directory\n"),
    ]

    @Test(arguments: missingInputs.map(\.arguments))
    func aMissingInputIsTwo(_ arguments: [String]) throws {
        let folder = try TemporaryDirectory()
        let expected = try #require(Self.missingInputs.first { $0.arguments == arguments }?.stderr)
        let result = try ToolRunner.run(arguments, in: folder.url)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr == expected, "\(arguments)")
        #expect(try folder.contents() == [], "\(arguments) left a file")
    }

    /// The folder commands: the whole folder is the input.
    @Test func aMissingFolderIsTwo() throws {
        let folder = try TemporaryDirectory()
        let recover = try ToolRunner.run(["recover", "missing"], in: folder.url)
        #expect(recover.status == 2)
        #expect(recover.stderr.hasPrefix("missing: error: "))
        let scan = try ToolRunner.run(["scan", "missing"], in: folder.url)
        #expect(scan.status == 2)
    }

    /// Every command's help ends its discussion with the table's own words for 2 and 64.
    @Test(arguments: HelpWidthTests.commands)
    func theHelpNamesTheTable(_ command: [String]) throws {
        let help = try ToolRunner.capture(
            URL(fileURLWithPath: "/usr/bin/env"), ["COLUMNS=400", ToolRunner.executable.path] + command + ["--help"])
        #expect(help.status == 0)
        // The paragraph as one line, however the help wrapped it.
        let text = String(decoding: help.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let paragraph = try #require(text.range(of: "Exit status: 0 ").map { String(text[$0.lowerBound...]) }, "\(command)")
        #expect(paragraph.contains("; 2 an input could not be read (no such file, no permission, not what it must be)"), "\(command)")
        #expect(paragraph.contains("; 64 usage error"), "\(command)")
    }

    @Test func theTopHelpHasTheWholeTable() throws {
        let help = try ToolRunner.capture(
            URL(fileURLWithPath: "/usr/bin/env"), ["COLUMNS=400", ToolRunner.executable.path, "--help"])
        let text = String(decoding: help.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for status in ["0 success", "1 failure", "2 an input could not be read", "3 the server could not be asked",
                       "64 usage error", "130 stopped by Ctrl-C", "143 stopped by SIGTERM"] {
            #expect(text.contains(status), "\(status)")
        }
    }
}
