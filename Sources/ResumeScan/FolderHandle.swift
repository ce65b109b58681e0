#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open folder that `scan` opens files and subfolders relative to, so no path is resolved
/// twice and no link can be slipped into it; closed when the last file or subfolder that needs
/// it is done.
package final class FolderHandle: Sendable {
    package let descriptor: Int32

    package init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
