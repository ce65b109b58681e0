import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command's input: a named file, or standard input when the name is `-`.
struct InputFile {
    /// The name as given, used in diagnostics (`<stdin>` for `-`).
    let displayName: String
    let path: String?
    /// The system's calls; a failing wrapper in tests.
    var calls: FileSystemCalls = .system

    init(_ argument: String) {
        if argument == "-" {
            displayName = "<stdin>"
            path = nil
        } else {
            displayName = argument
            path = argument
        }
    }

    /// A named file, read as a file even when it is named `-` (an option's file, such as
    /// `explain --file`, is never standard input).
    init(path: String) {
        displayName = path
        self.path = path
    }

    /// Reads everything, refusing inputs above `limit` bytes without reading them whole; any
    /// failure ends the command with status 2.
    func read(limit: Int = 256 << 20) throws(Diagnostic) -> Data {
        do {
            return try readOrFail(limit: limit)
        } catch {
            throw error.unreadableInput
        }
    }

    private func readOrFail(limit: Int) throws(Diagnostic) -> Data {
        guard let path else { return try readToEnd(STDIN_FILENO, sizeHint: 0, limit: limit) }
        // One open, one fstat, reads into the final buffer: inspecting thousands of blobs spent
        // more time in FileManager's existence and attribute lookups than in decoding.
        // O_NONBLOCK: a FIFO with no writer must not hang the open (regular files ignore it).
        let descriptor: Int32
        switch calls.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw failure(error.code)
        }
        defer { _ = calls.close(descriptor) }
        let status: FileSystemCalls.Status
        switch calls.fstat(descriptor) {
        case .success(let found): status = found
        case .failure(let error): throw failure(error.code)
        }
        // A pipe is an input (`<(cmd)`, a named FIFO), read to its end as standard input is,
        // blocking again; a folder, a device or a socket is none, said as `explain --file` says it.
        let isPipe = status.kind == .other && status.mode & UInt32(S_IFMT) == UInt32(S_IFIFO)
        if status.kind != .regular, !isPipe, case .other(let kind) = PartialFileResolution.entry(status) {
            throw Diagnostic(file: displayName, message: "it is \(kind), not a regular file")
        }
        if isPipe, case .failure(let error) = calls.clearNonBlocking(descriptor) { throw failure(error.code) }
        let size = Int(status.size)
        if size > limit {
            throw Diagnostic(file: displayName, message: "file is \(size) bytes, larger than the limit of \(limit)")
        }
        return try readToEnd(descriptor, sizeHint: size, limit: limit)
    }

    /// Reads until end of file, failing as soon as more than `limit` bytes arrived. The size of a
    /// FIFO, a pipe or a file that grows while read is only a hint.
    private func readToEnd(_ descriptor: Int32, sizeHint: Int, limit: Int) throws(Diagnostic) -> Data {
        // One byte more than the size, so the read that finds the end of a regular file does not
        // first double the buffer.
        var data = Data(count: max(sizeHint + 1, 4096))
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count < limit + 1 else { break }
                data.count = min(data.count * 2, limit + 1)
            }
            let got: Int
            switch data.withUnsafeMutableBytes({ buffer in calls.read(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) }) {
            case .success(let count): got = count
            case .failure(let error): throw failure(error.code)
            }
            if got == 0 { break }
            filled += got
        }
        guard filled <= limit else { throw Diagnostic(file: displayName, message: "input is larger than \(limit) bytes") }
        data.count = filled
        return data
    }

    private func failure(_ code: Int32) -> Diagnostic {
        switch code {
        case ENOENT: Diagnostic(file: displayName, message: "no such file")
        // Standard input redirected from a folder: fstat is not checked there.
        case EISDIR: Diagnostic(file: displayName, message: "it is a folder, not a regular file")
        default: Diagnostic(file: displayName, message: "cannot read: \(String(cString: strerror(code)))")
        }
    }
}

extension InputFile {
    /// Reads and parses a property list in either format; a parse failure becomes a diagnostic
    /// with the position of the fault, and what reading let through (a key given twice) a
    /// warning on standard error.
    func readPropertyList(options: PropertyListReadOptions = .default) throws(Diagnostic) -> PropertyListValue {
        let data = try read()
        do {
            let document = try PropertyListReader(options: options).readDocument(data)
            for warning in Diagnostic.warnings(document.warnings, file: displayName) { warning.emit() }
            return document.value
        } catch let error as PropertyListError {
            throw Diagnostic(file: displayName, error).unreadableInput
        } catch {
            throw Diagnostic(file: displayName, message: "\(error)").unreadableInput
        }
    }
}
