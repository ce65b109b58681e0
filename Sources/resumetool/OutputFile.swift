import Foundation
import ResumeSystemCalls
import ResumeTransfer
import ResumeSupport

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
        if binary, path == nil, Terminal.isTerminal(STDOUT_FILENO) {
            throw Diagnostic(file: "<stdout>", message: "refusing to write binary output to a terminal; use -o FILE or a pipe")
        }
    }

    /// Writes all the bytes: to a temporary file in the destination's folder, flushed to disk,
    /// then renamed over the destination, so readers see the old file or the whole new one.
    /// New files are readable by the owner only (blobs may hold credentials) unless
    /// `permissions` says otherwise.
    func write(_ data: Data, permissions: mode_t = 0o600) throws(Diagnostic) {
        guard let path else {
            StandardStream.write(data, to: STDOUT_FILENO)
            return
        }
        do {
            try AtomicFile.write(data, to: path, permissions: permissions)
        } catch where error.afterRename {
            // The output is whole and in place; saying "cannot write" would be untrue.
            StandardStream.write("\(path): warning: written, but its folder could not be flushed to disk (\(error)); a power loss may undo it\n", to: STDERR_FILENO)
        } catch {
            throw Diagnostic(file: path, message: "cannot write: \(error)")
        }
        // What an earlier run killed before its rename left beside the file.
        AtomicFile.removeStaleTemporaries(in: BytePath(path).folder.text, for: BytePath(path).lastName.text)
    }
}
