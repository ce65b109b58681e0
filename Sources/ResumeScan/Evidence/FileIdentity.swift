import ResumeSystemCalls

/// What makes two names one file on this machine: the device and inode `fstat` gives. The one
/// answer to "met before?" for a folder the walk lists and an archive given both as a root and
/// again inside a folder root.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ status: FileSystemCalls.Status) {
        device = status.device
        inode = status.inode
    }

    /// The identity of the file `path` names, a final link followed as a root's is (the user
    /// named it); nil when it cannot be opened or stated.
    static func of(rootAt path: String, calls: FileSystemCalls) -> FileIdentity? {
        guard case .success(let descriptor) = calls.openEvidenceRoot(BytePath(spelled: path)) else { return nil }
        defer { _ = calls.close(descriptor) }
        guard case .success(let status) = calls.fstat(descriptor) else { return nil }
        return FileIdentity(status)
    }
}
