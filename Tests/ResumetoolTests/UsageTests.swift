import Foundation
import Testing

/// `--help` of every command, and the usage errors shared by all of them.
@Suite struct UsageTests {
    static let commands: [[String]] = [
        [], ["inspect"], ["validate"], ["convert"], ["repair"], ["rebuild"], ["relocate"], ["discard"],
        ["edit"], ["explain"], ["plist"], ["plist", "print"], ["plist", "convert"], ["download"], ["resume"], ["recover"], ["tasks"],
    ]

    @Test(arguments: commands)
    func helpHasAnExampleAndTheExitStatus(_ command: [String]) throws {
        let result = try EndToEnd.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("\nExample:\n  resumetool \(command.first ?? "")"))
        #expect(result.stdout.contains("USAGE: resumetool\(command.map { " " + $0 }.joined())"))
        if command != ["plist"] {
            let unwrapped = result.stdout.replacingOccurrences(of: "\n", with: " ")
            #expect(unwrapped.contains("Exit status: 0 "))
            #expect(unwrapped.contains("64 usage error"))
        }
        // No hard line break inside prose: ArgumentParser wraps greedily below 80 columns, so when
        // the next line's first word would have fitted on this one, the source broke the line
        // and the paragraph comes out ragged.
        let overview = result.stdout.components(separatedBy: "\nUSAGE:").first ?? ""
        let lines = overview.split(separator: "\n", omittingEmptySubsequences: false)
        for (line, next) in zip(lines, lines.dropFirst())
        where !line.isEmpty && !next.isEmpty && !line.hasPrefix(" ") && !next.hasPrefix(" ") {
            let firstWord = next.prefix { $0 != " " }
            #expect(line.count + 1 + firstWord.count >= 80, "ragged break after \"\(line)\"")
        }
    }

    @Test func helpSubcommandMatchesDashDashHelp() throws {
        let viaHelp = try EndToEnd.run(["help", "rebuild"])
        #expect(viaHelp == (try EndToEnd.run(["rebuild", "--help"])))
    }

    @Test func theTopCommandListsEverySubcommand() throws {
        let result = try EndToEnd.run(["--help"])
        for name in ["inspect", "validate", "explain", "convert", "repair", "rebuild", "relocate", "edit", "discard", "plist"] {
            #expect(result.stdout.contains("\n  \(name) "), "\(name) is not listed")
        }
    }

    @Test(arguments: [["inspect"], ["validate"], ["convert"], ["repair"], ["relocate"], ["discard"], ["edit"], ["explain"]])
    func missingBlobIsAUsageError(_ command: [String]) throws {
        let result = try EndToEnd.run(command)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        // inspect and validate also take --files-from, so their arguments are optional.
        let message = ["inspect", "validate"].contains(command[0])
            ? "Error: give at least one BLOB, or --files-from\n" : "Error: Missing expected argument '<blob"
        #expect(result.stderr.hasPrefix(message))
        #expect(result.stderr.contains("\nUsage: resumetool \(command[0]) "))
        #expect(result.stderr.hasSuffix("  See 'resumetool \(command[0]) --help' for more information.\n"))
    }

    @Test func unknownSubcommandAndOption() throws {
        let subcommand = try EndToEnd.run(["frobnicate"])
        #expect(subcommand.status == 64)
        #expect(subcommand.stdout == "")
        #expect(subcommand.stderr.hasPrefix("Error: Unexpected argument 'frobnicate'\n"))
        let option = try EndToEnd.run(["inspect", "--yaml", "ios9-xml.plist"])
        #expect(option.status == 64)
        #expect(option.stderr.hasPrefix("Error: Unknown option '--yaml'\n"))
    }
}
