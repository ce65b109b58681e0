import ArgumentParser
import ResumeDataCodec
import ResumeSystemCalls

/// A `scan` DIR as the parser gives it: the path it names, read back from the text
/// ``RawArguments`` gave the parser (the argument as it is, or its spelling when it is not
/// UTF-8 or holds `\x{`). A text that is no path's spelling is refused by the parser, as any
/// value of the wrong form is.
struct ScanRoot: ExpressibleByArgument, Equatable {
    /// The path, by the bytes the kernel gave.
    let path: BytePath

    init?(argument: String) {
        guard let bytes = EvidenceName.bytes(ofPath: argument) else { return nil }
        self.path = BytePath(bytes: bytes)
    }
}
