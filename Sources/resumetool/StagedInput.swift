import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `upload -`: the engine reads the body at any offset, and again from the server's offset after
/// a dropped connection, which a pipe cannot give, so standard input is first copied whole into
/// a ``PrivateTemporaryFolder`` and uploaded from there, its checkpoint beside it. The folder goes when
/// the command ends: within the run the upload resumes as any other, but a killed run cannot be
/// continued (the bytes are gone with the pipe), unlike `upload FILE`.
///
/// Why not stream as `curl -T -` does: its chunked body cannot be resumed at all, and the draft's
/// appends need the bytes from the server's offset, which only a copy has. The copy is bounded
/// by the disk: a full one is an error, and the folder is removed.
struct StagedInput {
    let folder: PrivateTemporaryFolder

    /// The copy of standard input, uploaded as the file.
    var path: String { BytePath(folder.path).appending("stdin").text }

    /// Copies `descriptor` (standard input) to its end into a new private folder.
    static func make(from descriptor: Int32 = STDIN_FILENO, calls: FileSystemCalls = .system) throws(Diagnostic) -> StagedInput {
        let staged = StagedInput(folder: try PrivateTemporaryFolder.make(for: "upload -"))
        do throws(Diagnostic) {
            try staged.copy(from: descriptor, calls: calls)
        } catch {
            staged.remove()
            throw error
        }
        return staged
    }

    private func copy(from descriptor: Int32, calls: FileSystemCalls) throws(Diagnostic) {
        let output: Int32
        switch calls.open(self.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) {
        case .success(let opened): output = opened
        case .failure(let failure): throw Diagnostic(file: self.path, message: "cannot make the copy of standard input: \(failure)")
        }
        defer { _ = calls.close(output) }
        let outcome = calls.copyStream(from: descriptor, to: output)
        switch outcome.failure {
        case nil: break
        case (.read, let failure)?: throw Diagnostic(file: "<stdin>", message: "cannot read: \(failure)")
        case (.write, let failure)?:
            throw Diagnostic(file: "<stdin>", message: "cannot copy it to \(self.folder.path) after \(outcome.reached) bytes: \(failure)")
        }
    }

    /// Removes the copy, its checkpoint and the folder.
    func remove() {
        folder.remove()
    }
}
