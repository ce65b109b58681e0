import Foundation
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `-o -` for `download` and `resume`: the engine needs a file to checkpoint, verify and rename,
/// so the download goes to a ``PrivateTemporaryFolder`` and the finished file is copied
/// to standard output, then the folder is removed, whatever the outcome. Unlike `-o FILE`,
/// nothing is left to continue after a failure or a pause.
struct StagedOutput {
    let folder: PrivateTemporaryFolder

    /// The file the download is written to.
    var destination: String { BytePath(folder.path).appending("payload").text }

    /// Makes the folder, refusing first a terminal as standard output, as for any binary output.
    static func make() throws(Diagnostic) -> StagedOutput {
        try OutputFile(nil).checkCanReceive(binary: true)
        return StagedOutput(folder: try PrivateTemporaryFolder.make(for: "-o -"))
    }

    /// Copies the finished file to standard output; a short write (a full disk, a closed pipe)
    /// is a diagnostic.
    func send() throws(Diagnostic) {
        guard let handle = FileHandle(forReadingAtPath: destination) else {
            throw Diagnostic(file: destination, message: "cannot read the finished download")
        }
        defer { try? handle.close() }
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw Diagnostic(file: destination, message: "cannot read the finished download: \(error)")
            }
            if chunk.isEmpty { return }
            let written = chunk.withUnsafeBytes { StandardStream.write($0, to: STDOUT_FILENO, calls: .system) }
            guard written == chunk.count else {
                throw Diagnostic(file: "<stdout>", message: "cannot write: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Removes the folder and everything the download left in it.
    func remove() {
        folder.remove()
    }
}
