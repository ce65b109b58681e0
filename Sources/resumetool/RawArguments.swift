import Synchronization
import ResumeDataCodec
import ResumeScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line as the kernel gave it, checked before it is parsed.
///
/// Swift decodes `argv` as UTF-8 and puts U+FFFD where a byte is not UTF-8, so a path holding
/// such a byte (a Latin-1 folder name) would name another file, and the error would be "no such
/// file" for a file that is there. `scan` reads its DIRs by their bytes: such an argument goes
/// to the parser spelled as scan spells paths (``EvidenceName``, `caf\x{e9}`), and the scan is
/// given its bytes. Any other argument that is not UTF-8 is refused, saying which and where, and
/// what to give instead.
enum RawArguments {
    /// An argument that is not UTF-8, where it may not be.
    struct NotUTF8: Equatable {
        /// The argument's position after the program's name, from 1.
        var position: Int
        /// The offset of the first byte that is not UTF-8.
        var offset: Int
        var byte: UInt8
        /// The argument as ``VisibleText`` shows bytes that are not UTF-8 (`\x{ff}`) and controls.
        var shown: String

        /// What `resumetool` prints.
        var message: String {
            "argument \(position) is not UTF-8 (byte 0x\(String(byte, radix: 16)) at offset \(offset)): \(shown); "
                + "only scan's DIR may be a path that is not UTF-8: give this one as UTF-8, or a link to it whose name is UTF-8"
        }
    }

    /// Why a command line cannot be parsed as it is.
    enum Refusal: Error, Equatable {
        /// An argument that is not UTF-8 outside `scan`.
        case notUTF8(NotUTF8)
        /// A `scan` argument that is not UTF-8 is spelled as another argument is written: the
        /// parser could not tell them apart.
        case ambiguous(position: Int, other: Int, spelled: String)

        var message: String {
            switch self {
            case .notUTF8(let refused): refused.message
            case .ambiguous(let position, let other, let spelled):
                "argument \(position) is not UTF-8 and is shown as \(VisibleText.escaping(spelled)), which is how argument \(other) "
                    + "is written: give one of them as a link whose name is UTF-8"
            }
        }
    }

    /// The arguments that were not UTF-8, by the text the parser was given for them (one text
    /// for one sequence of bytes): their bytes, the first where it stood, and how many there were.
    private static let spelled = Mutex<[String: Spelled]>([:])

    private struct Spelled {
        var bytes: [UInt8]
        var first: NotUTF8
        var count: Int
    }

    /// The command line for the parser: every argument as text, a `scan` argument that is not
    /// UTF-8 spelled (``EvidenceName``) and remembered for ``bytes(of:)``; a refusal when another
    /// command has one, or a spelling is also how another argument is written.
    static func forParser(_ arguments: [[UInt8]]) -> Result<[String], Refusal> {
        let verdicts = arguments.enumerated().map { notUTF8($1, position: $0 + 1) }
        guard let first = verdicts.lazy.compactMap({ $0 }).first else { return .success(arguments.map { String(decoding: $0, as: UTF8.self) }) }
        guard arguments.first == Array("scan".utf8) else { return .failure(.notUTF8(first)) }
        var texts: [String] = []
        var found: [String: Spelled] = [:]
        for (bytes, verdict) in zip(arguments, verdicts) {
            guard let verdict else {
                texts.append(String(decoding: bytes, as: UTF8.self))
                continue
            }
            // The spelling is one-to-one: the same text is the same bytes.
            let text = EvidenceName.text(ofPath: bytes)
            found[text, default: Spelled(bytes: bytes, first: verdict, count: 0)].count += 1
            texts.append(text)
        }
        for (index, text) in texts.enumerated() where verdicts[index] == nil {
            if let entry = found[text] {
                return .failure(.ambiguous(position: entry.first.position, other: index + 1, spelled: text))
            }
        }
        spelled.withLock { $0 = found }
        return .success(texts)
    }

    /// The bytes the parser's `argument` stands for: a spelled one's own bytes, any other's UTF-8.
    static func bytes(of argument: String) -> [UInt8] {
        spelled.withLock { $0[argument]?.bytes } ?? Array(argument.utf8)
    }

    /// The first argument that is not UTF-8 and was not taken as one of `accepted` (`scan`'s
    /// DIRs): one given more often than it is among them was also taken as something else.
    static func notUTF8(outside accepted: [String]) -> NotUTF8? {
        let taken = Dictionary(accepted.map { ($0, 1) }, uniquingKeysWith: +)
        return spelled.withLock { found in
            found.filter { $0.value.count > taken[$0.key, default: 0] }.map(\.value.first).min { $0.position < $1.position }
        }
    }

    /// The first of `arguments` (without the program's name) that is not UTF-8, nil when all are.
    static func firstNotUTF8(_ arguments: [[UInt8]]) -> NotUTF8? {
        for (index, bytes) in arguments.enumerated() {
            if let refused = notUTF8(bytes, position: index + 1) { return refused }
        }
        return nil
    }

    /// What is said of `bytes`, the argument at `position`, when they are not UTF-8.
    private static func notUTF8(_ bytes: [UInt8], position: Int) -> NotUTF8? {
        firstInvalidOffset(bytes).map { NotUTF8(position: position, offset: $0, byte: bytes[$0], shown: VisibleText.escaping(utf8: bytes)) }
    }

    /// Where the first sequence of `bytes` that is not UTF-8 starts, nil when there is none.
    private static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    /// This process's arguments after the program's name, as bytes.
    static func current() -> [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }
}
