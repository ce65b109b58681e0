import ArgumentParser
import Foundation
import Testing

@testable import resumetool

/// The docs cannot drift from the binary: every `resumetool …` command line in README.md and
/// docs/*.md names a command and options that exist (parsed by the tool's own parser: a value the
/// docs write as a placeholder, `URL` say, may be refused, an unknown option may not), and every
/// exit status a command's `--help` gives is in the one table docs/commands.md states.
@Suite struct DocumentedCommandLineTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The documents read: the README and every page of docs/.
    static func documents() throws -> [(name: String, text: String)] {
        let docs = root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return try [("README.md", String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))]
            + pages.map { ("docs/\($0)", try String(contentsOf: docs.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// Each command line of a document's code blocks (`sh`, or none), its `\` continuations
    /// joined, cut at a pipe, `;`, `&&` or a comment, with where it was.
    static func commandLines(in text: String) -> [(line: Int, text: String)] {
        var found: [(Int, String)] = []
        var inBlock = false
        var pending: (line: Int, text: String)?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inBlock = !inBlock && (trimmed == "```" || trimmed == "```sh" || trimmed == "```bash" || trimmed == "```console")
                pending = nil
                continue
            }
            guard inBlock else { continue }
            var current = trimmed.hasPrefix("$ ") ? String(trimmed.dropFirst(2)) : trimmed
            if let started = pending {
                current = started.text + " " + current
            } else if !current.hasPrefix("resumetool ") {
                continue
            }
            let start = pending?.line ?? index + 1
            if current.hasSuffix("\\") {
                pending = (start, String(current.dropLast()))
                continue
            }
            pending = nil
            found.append((start, current))
        }
        return found
    }

    /// A shell's words for `line` up to its first `|`, `;`, `&&`, `>` or `#` outside quotes;
    /// nil for a line with `$(…)` or a variable, whose words only a shell knows.
    static func words(_ line: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var characters = line.makeIterator()
        while let character = characters.next() {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                inWord = true
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "#" where !inWord:
                return Array(words.dropFirst())
            case "|", ";", "&", ">", "<":
                if inWord { words.append(word) }
                return Array(words.dropFirst())
            case "$", "`":
                return nil
            default:
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return Array(words.dropFirst())
    }

    @Test func everyDocumentedCommandLineNamesOptionsThatExist() throws {
        var checked = 0
        for document in try Self.documents() {
            for (line, text) in Self.commandLines(in: document.text) {
                if Self.isSynopsis(text) {
                    // `resumetool scan PATH... [--json | --csv]`: each option named must exist.
                    checked += 1
                    for problem in Self.unknownOptions(inSynopsis: text) {
                        Issue.record("\(document.name):\(line): \(text): \(problem)")
                    }
                    continue
                }
                guard let words = Self.words(text) else { continue }
                checked += 1
                do {
                    _ = try ResumeTool.parseAsRoot(words)
                } catch {
                    let message = ResumeTool.message(for: error)
                    // A placeholder value may be refused; a name the parser does not know may not.
                    let unknown = ["Unknown option", "Unexpected argument", "Missing value for", "Missing expected argument"]
                    #expect(!unknown.contains { message.hasPrefix($0) }, "\(document.name):\(line): resumetool \(words.joined(separator: " ")): \(message)")
                }
            }
        }
        // The README and docs hold dozens of examples: a parser that found none has broken.
        #expect(checked >= 30, "only \(checked) documented command lines found")
    }

    /// A usage line rather than a command: optional parts in brackets, alternatives with `|`.
    static func isSynopsis(_ text: String) -> Bool {
        text.contains(" [") || text.contains(" (") || text.contains("|") && !text.contains("| ")
    }

    /// The options a synopsis names that its command's `--help` does not list.
    static func unknownOptions(inSynopsis text: String) -> [String] {
        let tokens = text.split(whereSeparator: { " []()|".contains($0) }).map(String.init).dropFirst()
        let commands = ResumeTool.configuration.subcommands
        guard let first = tokens.first, let command = commands.first(where: { $0._commandName == first }) else {
            return ["no command \(tokens.first ?? "")"]
        }
        var target: any ParsableCommand.Type = command
        if tokens.count > 1, let sub = command.configuration.subcommands.first(where: { $0._commandName == tokens[tokens.startIndex + 1] }) {
            target = sub
        }
        let help = target.helpMessage(columns: 10_000)
        var problems: [String] = []
        for token in tokens where token.hasPrefix("-") && token != "-" && token != "--" {
            let option = token.split(separator: "=").first.map(String.init) ?? token
            let listed = help.contains(option + " ") || help.contains(option + ",") || help.contains(option + "\n")
            if !listed { problems.append("\(option) is not an option of \(target._commandName)") }
        }
        return problems
    }

    /// The exit statuses each command's `--help` gives are the table's, as docs/commands.md states it.
    @Test func everyCommandsExitStatusesAreTheDocumentedTable() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let section = try #require(page.range(of: "## Exit status\n"))
        let table = String(page[section.upperBound...].prefix { $0 != "#" })
        let documented = Set(table.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) })
        #expect(documented == Set(ExitStatus.allCases.map { Int($0.rawValue) }))
        // A command with subcommands (`plist`) has its table in each of them.
        let commands = ResumeTool.configuration.subcommands.flatMap { $0.configuration.subcommands.isEmpty ? [$0] : $0.configuration.subcommands }
        for command in commands {
            let help = command.helpMessage(columns: 10_000)
            let sentence = try #require(help.range(of: "Exit status: "), "\(command._commandName) --help says no exit status")
            let statuses = help[sentence.upperBound...].prefix { $0 != "." }
                .split(separator: ";").compactMap { Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) }
            #expect(!statuses.isEmpty, "\(command._commandName)")
            for status in statuses {
                #expect(documented.contains(status), "\(command._commandName) --help gives \(status), which docs/commands.md's table lacks")
            }
            #expect(statuses.contains(0) && statuses.contains(64), "\(command._commandName): \(statuses)")
        }
    }
}
