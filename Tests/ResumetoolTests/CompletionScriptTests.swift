import Foundation
import Testing

/// `--generate-completion-script` through the built binary, whose `main` takes the blob names of
/// `inspect` and `validate` out of the command line before the parser sees it. The bash script is
/// run by bash, as bash-completion runs it; zsh and fish are checked by what their scripts say.
@Suite struct CompletionScriptTests {
    static let subcommands = [
        "inspect", "validate", "explain", "convert", "repair", "rebuild", "relocate", "edit", "discard", "plist", "archive",
        "download", "resume", "recover", "scan", "tasks", "upload", "help",
    ]
    /// The package root: the file completions below are asked for in it, of `Samples/`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func script(_ shell: String) throws -> String {
        let result = try ToolRunner.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        return result.stdout
    }

    /// What bash offers for `words`, the cursor at the end of the last one: the script's `_resumetool`
    /// called as `complete -F` calls it, with `COMP_*` set as bash sets them.
    static func bashCompletions(_ script: URL, _ words: [String]) throws -> [String] {
        let driver = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            _resumetool resumetool "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try ToolRunner.capture(
            URL(fileURLWithPath: "/bin/bash"), ["-O", "extglob", "-c", driver, "bash", script.path] + words, in: root)
        #expect(output.status == 0)
        #expect(String(decoding: output.stderr, as: UTF8.self) == "")
        return String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesSubcommandsOptionsAndFiles() throws {
        let text = try Self.script("bash")
        #expect(text.hasPrefix("#!/bin/bash\n"))
        #expect(text.hasSuffix("\ncomplete -o filenames -F _resumetool resumetool\n"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("resumetool-\(UUID().uuidString).bash")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        // An empty word is offered the options, then the subcommands.
        #expect(try Self.bashCompletions(file, ["resumetool", ""]) == ["--version", "-h", "--help"] + Self.subcommands)
        #expect(try Self.bashCompletions(file, ["resumetool", "re"]) == ["repair", "rebuild", "relocate", "resume", "recover"])
        #expect(try Self.bashCompletions(file, ["resumetool", "download", "--sh"]) == ["--sha256"])
        #expect(try Self.bashCompletions(file, ["resumetool", "plist", ""]) == ["--version", "-h", "--help", "print", "convert"])
        #expect(try Self.bashCompletions(file, ["resumetool", "repair", "--target", ""]) == ["ios10", "ios11", "modern"])
        // After blob names (which the binary takes out of argv, not the shell), options still complete.
        #expect(try Self.bashCompletions(file, ["resumetool", "inspect", "a.resumedata", "b", "--st"]) == ["--strict"])
        // Blob arguments complete file names, `scan` folder names only.
        let ios = ["Samples/ios10-corrupted-requests.plist", "Samples/ios11-byte-range.plist", "Samples/ios12-keyed-archive.resumedata"]
        #expect(try Self.bashCompletions(file, ["resumetool", "inspect", "Samples/ios1"]).sorted() == ios)
        #expect(try Self.bashCompletions(file, ["resumetool", "validate", "--files-from", "Samples/ios1"]).sorted() == ios)
        #expect(try Self.bashCompletions(file, ["resumetool", "scan", "Sampl"]) == ["Samples"])
        #expect(try Self.bashCompletions(file, ["resumetool", "scan", "Samples/ios1"]) == [])
    }

    @Test func zshListsSubcommandsAndOptions() throws {
        let text = try Self.script("zsh")
        #expect(text.hasPrefix("#compdef resumetool\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains(Self.subcommands.joined(separator: "|") + ")"))
        #expect(lines.contains("'inspect:Show what a resume blob holds, and what is wrong with it.'"))
        // Each subcommand has its function; download's offers --sha256, inspect's completes files.
        let download = try #require(lines.firstIndex(of: "_resumetool_download() {"))
        let downloadEnd = try #require(lines[download...].firstIndex(of: "}"))
        #expect(lines[download..<downloadEnd].contains { $0.hasPrefix("'--sha256[") && $0.hasSuffix("]:sha256:'") })
        let inspect = try #require(lines.firstIndex(of: "_resumetool_inspect() {"))
        let inspectEnd = try #require(lines[inspect...].firstIndex(of: "}"))
        #expect(lines[inspect..<inspectEnd].contains("'*:blobs:_files'"))
    }

    @Test func fishListsSubcommandsAndOptions() throws {
        let text = try Self.script("fish")
        let lines = text.split(separator: "\n").map(String.init)
        // The subcommands offered as the first word, in order.
        let first = "complete -c 'resumetool' -n '__resumetool_should_offer_completions_for_positional \"resumetool\" -eq 1' -fa '"
        let offered = lines.filter { $0.hasPrefix(first) }.map { $0.dropFirst(first.count).prefix { $0 != "'" } }.map(String.init)
        #expect(offered == Self.subcommands)
        #expect(lines.contains { $0.hasPrefix("complete -c 'resumetool' -n '__resumetool_should_offer_completions_for_flags_or_options \"resumetool download\" sha256' -l 'sha256' -d '") })
        #expect(lines.contains("complete -c 'resumetool' -n '__resumetool_should_offer_completions_for_positional \"resumetool inspect\" -ge 1' -F"))
    }

    /// The shell named after a subcommand is the parser's too, not a blob name of `inspect`.
    @Test func requestAfterASubcommandKeepsItsShell() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try ToolRunner.run(["inspect", "--generate-completion-script", shell])
            #expect(result.status == 0)
            #expect(result.stdout == (try Self.script(shell)))
        }
    }

    @Test func unknownShellIsAUsageError() throws {
        let result = try ToolRunner.run(["--generate-completion-script", "tcsh"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: Can't generate completion scripts for 'tcsh'.\nPlease use --generate-completion-script=<shell> with one of:\n    zsh bash fish\n"))
    }
}
