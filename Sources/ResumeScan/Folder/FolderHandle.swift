import ResumeSystemCalls

/// An open folder that `scan` opens files and subfolders relative to, so no path is resolved
/// twice and no link can be slipped into it; closed when the last file or subfolder that needs
/// it is done.
final class FolderHandle: Sendable {
    let descriptor: Int32
    private let calls: FileSystemCalls

    init(_ descriptor: Int32, calls: FileSystemCalls = .system) {
        self.descriptor = descriptor
        self.calls = calls
    }

    deinit { _ = calls.close(descriptor) }
}
