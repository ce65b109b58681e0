import ArgumentParser
import Foundation

/// The blob names of `inspect` and `validate`, taken out of the command line before
/// swift-argument-parser sees it, and handed to the parsed command (``BlobArguments/taken``).
///
/// The parser's cost grows with the square of the positional arguments (3.5 s for 10,000 names,
/// measured), and a shell glob easily gives that many. Options stay for the parser, which still
/// reports every usage error; only plain names (and everything after `--`) are taken, in order.
/// The parser keeps a stand-in for them after `--`: the first name, and `-` when it is among
/// them, so that its own validation (at least one BLOB; `-` not both a BLOB and the
/// `--files-from` list) says what it said of the whole list.
struct PositionalNames: Equatable {
    /// The arguments for the parser.
    var parserArguments: [String]
    /// The names taken, in order; nil when none were (another command, or no name given).
    var taken: [String]?

    /// Subcommands whose positional arguments are blob names.
    private static let commands: [String: any ParsableCommand.Type] = [
        "inspect": InspectCommand.self,
        "validate": ValidateCommand.self,
    ]

    /// Options swift-argument-parser answers itself on any subcommand's line, with their value:
    /// `inspect --generate-completion-script zsh` must not lose `zsh` to the names.
    private static let parserValued: Set<String> = ["--generate-completion-script"]

    /// `arguments` split into the parser's and the names.
    init(splitting arguments: [String]) {
        guard let command = arguments.first, let type = Self.commands[command] else {
            self.init(parserArguments: arguments, taken: nil)
            return
        }
        let valued = Self.valuedOptions(of: type)
        var kept = [command]
        var names: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                names += arguments[(index + 1)...]
                break
            }
            if argument.hasPrefix("-"), argument != "-" {
                kept.append(argument)
                if valued.contains(argument) || Self.parserValued.contains(argument), index + 1 < arguments.count {
                    kept.append(arguments[index + 1])
                    index += 1
                }
            } else {
                names.append(argument)
            }
            index += 1
        }
        guard let first = names.first else {
            self.init(parserArguments: kept, taken: nil)
            return
        }
        let standIns = [first] + (first != "-" && names.contains("-") ? ["-"] : [])
        self.init(parserArguments: kept + ["--"] + standIns, taken: names)
    }

    /// The options of `command` that take a value, as its declarations say them to the parser:
    /// read from the parser's own description of the command (the JSON of
    /// `--experimental-dump-help`), so that an option added to `inspect` or `validate` is never
    /// mistaken here for a flag whose next argument is a blob name.
    static func valuedOptions(of command: any ParsableCommand.Type) -> Set<String> {
        guard let description = try? JSONDecoder().decode(HelpDescription.self, from: Data(command._dumpHelp().utf8)) else { return [] }
        var valued: Set<String> = []
        for argument in description.command.arguments ?? [] where argument.kind == "option" {
            for name in argument.names ?? [] {
                valued.insert(name.kind == "long" ? "--" + name.name : "-" + name.name)
            }
        }
        return valued
    }

    /// The part of the parser's description read here (ArgumentParser's `ToolInfoV0`, whose
    /// module is not a product of the package).
    private struct HelpDescription: Decodable {
        struct Command: Decodable {
            var arguments: [Argument]?
        }

        struct Argument: Decodable {
            var kind: String
            var names: [Name]?
        }

        struct Name: Decodable {
            /// `long`, `short` or `longWithSingleDash`.
            var kind: String
            var name: String
        }

        var command: Command
    }

    private init(parserArguments: [String], taken: [String]?) {
        self.parserArguments = parserArguments
        self.taken = taken
    }
}
