import Foundation

/// Where a command writes its result: a file replaced atomically, or standard output for `-`
/// or when no file is named.
struct OutputFile {
    let path: String?

    init(_ argument: String?) {
        path = (argument == nil || argument == "-") ? nil : argument
    }

    var displayName: String { path ?? "<stdout>" }

    /// Refuses to send binary bytes to a terminal, where they would garble the screen.
    func checkCanReceive(binary: Bool) throws(Diagnostic) {
        if binary, path == nil, isatty(STDOUT_FILENO) != 0 {
            throw Diagnostic(file: "<stdout>", message: "refusing to write binary output to a terminal; use -o FILE or a pipe")
        }
    }

    /// Writes all the bytes: to a temporary file in the destination's folder, flushed to disk,
    /// then renamed over the destination, so readers see the old file or the whole new one.
    func write(_ data: Data) throws(Diagnostic) {
        guard let path else {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            throw Diagnostic(file: path, message: "cannot write: \(error)")
        }
    }
}

/// Replaces a file atomically: temp file in the same folder, fsync, rename, fsync of the folder.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    static func write(_ data: Data, to path: String) throws(Failure) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(operation: "open", code: errno) }
        var failure: Failure?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, failure == nil {
                let written = Foundation.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno != EINTR { failure = Failure(operation: "write", code: errno) }
                } else {
                    offset += written
                }
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Failure(operation: "fsync", code: errno) }
        if close(descriptor) != 0, failure == nil { failure = Failure(operation: "close", code: errno) }
        if failure == nil, rename(temporary, path) != 0 { failure = Failure(operation: "rename", code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
