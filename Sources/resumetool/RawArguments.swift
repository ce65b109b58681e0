import ResumeDataCodec
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
/// to the parser spelled as scan spells paths (``EvidenceName``, `caf\x{e9}`), and the parser
/// turns a DIR back into its bytes (``ScanRoot``). Any other argument that is not UTF-8 is
/// refused, saying which and where, and what to give instead. Nothing is kept between the calls:
/// each is a function of the command line it is given.
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

    /// Why a command line cannot be parsed as it is: an argument that is not UTF-8 outside `scan`.
    enum Refusal: Error, Equatable {
        case notUTF8(NotUTF8)

        var message: String {
            switch self {
            case .notUTF8(let refused): refused.message
            }
        }
    }

    /// The command line for the parser: every argument as text. Of `scan`'s, one that is not
    /// UTF-8 or holds `\x{` is given spelled (``EvidenceName``, `caf\x{e9}`), which a DIR
    /// (``ScanRoot``) reads back to its bytes: the spelling is one-to-one, and only a spelled
    /// argument holds `\x{`, so no two arguments reach the parser as one text. Any other command
    /// with an argument that is not UTF-8 is refused.
    static func forParser(_ arguments: [[UInt8]]) -> Result<[String], Refusal> {
        guard arguments.first == Array("scan".utf8) else {
            if let first = firstNotUTF8(arguments) { return .failure(.notUTF8(first)) }
            return .success(arguments.map { String(decoding: $0, as: UTF8.self) })
        }
        return .success(arguments.map { EvidenceName.text(ofPath: $0) })
    }

    /// The first of `arguments` that is not UTF-8 and is not among `accepted` (`scan`'s DIRs, by
    /// their bytes): one given more often than it is among them was also taken as something else
    /// (an option's value, which is refused).
    static func notUTF8(in arguments: [[UInt8]], outside accepted: [[UInt8]]) -> NotUTF8? {
        var left = Dictionary(accepted.map { ($0, 1) }, uniquingKeysWith: +)
        for (index, bytes) in arguments.enumerated() {
            guard let refused = notUTF8(bytes, position: index + 1) else { continue }
            if let count = left[bytes], count > 0 {
                left[bytes] = count - 1
                continue
            }
            return refused
        }
        return nil
    }

    /// The first of `arguments` (without the program's name) that is not UTF-8, nil when all are.
    static func firstNotUTF8(_ arguments: [[UInt8]]) -> NotUTF8? {
        notUTF8(in: arguments, outside: [])
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
