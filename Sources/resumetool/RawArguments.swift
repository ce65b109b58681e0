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
/// file" for a file that is there. Every argument is text to the commands, so one that is not
/// UTF-8 is refused up front, saying which and where, and what to give instead.
enum RawArguments {
    /// The first argument that is not UTF-8.
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
                + "paths are given as UTF-8: name a folder above it (scan reads the names below a folder by their bytes), "
                + "or a link to it whose name is UTF-8"
        }
    }

    /// The first of `arguments` (without the program's name) that is not UTF-8, nil when all are.
    static func firstNotUTF8(_ arguments: [[UInt8]]) -> NotUTF8? {
        for (index, bytes) in arguments.enumerated() {
            if let offset = firstInvalidOffset(bytes) {
                return NotUTF8(position: index + 1, offset: offset, byte: bytes[offset], shown: VisibleText.escaping(utf8: bytes))
            }
        }
        return nil
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
