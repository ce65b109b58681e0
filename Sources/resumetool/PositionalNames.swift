import Synchronization

/// The blob names of `inspect` and `validate`, taken out of the command line before
/// swift-argument-parser sees it.
///
/// The parser's cost grows with the square of the positional arguments (3.5 s for 10,000 names,
/// measured), and a shell glob easily gives that many. Options stay for the parser, which still
/// reports every usage error; only plain names (and everything after `--`) are taken, in order.
enum PositionalNames {
    /// Subcommands whose positional arguments are blob names, with their options that take a value.
    private static let commands: [String: Set<String>] = [
        "inspect": ["--files-from"],
        "validate": ["--files-from", "--tmp-dir"],
    ]

    /// Options swift-argument-parser answers itself on any subcommand's line, with their value:
    /// `inspect --generate-completion-script zsh` must not lose `zsh` to the names.
    private static let parserValued: Set<String> = ["--generate-completion-script"]

    private static let taken = Mutex<[String]>([])

    /// The arguments for the parser; the names taken are kept for ``BlobArguments``.
    static func split(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, let valued = commands[command] else { return arguments }
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
                if valued.contains(argument) || parserValued.contains(argument), index + 1 < arguments.count {
                    kept.append(arguments[index + 1])
                    index += 1
                }
            } else {
                names.append(argument)
            }
            index += 1
        }
        taken.withLock { $0 = names }
        return kept
    }

    /// The names taken from the command line (empty when none were).
    static var names: [String] { taken.withLock { $0 } }
}
