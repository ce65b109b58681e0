/// What is said of a file that evidence is read from by its name (a bundle's `Info.plist`,
/// `Downloads.plist`) when it is not a regular file: `scan`'s problem and `inspect`'s error word
/// it alike (a link in the place of a backup's manifest or folder is ``BackupScan``'s to word).
/// Neither ever follows a link below the folder it was given, nor opens a FIFO or a device, so
/// the file is left unread and the reason named.
enum UnreadableEntry {
    /// A link's reason, after its name.
    static let symbolicLink = "is a symbolic link, which is never followed inside evidence"
    /// A FIFO's, a socket's or a device's reason, after its name.
    static let notRegularFile = "is not a regular file (a FIFO, socket or device)"

    /// Whether a file of this name in a folder of that name is read by its name, so that a link
    /// or a FIFO in its place means a bundle or a history the scan cannot read.
    static func isReadByName(_ name: String, parentName: String) -> Bool {
        SafariEvidence.Role(name: name, parentName: parentName) != nil
    }
}
