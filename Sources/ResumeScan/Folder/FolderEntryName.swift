import ResumeSystemCalls

/// A name in a walked folder as the scan shows, keys and pairs it, and the bytes that open it
/// when the two differ: a name that is not UTF-8 (Latin-1 from a Linux copy, say) is shown
/// escaped in `VisibleText`'s notation by the rule an archive's member names follow
/// (``EvidenceName/text(of:)``), so two names get the same text only when they are the same
/// bytes, and the file is still opened, never skipped.
struct FolderEntryName {
    /// The name as reports show it.
    let text: String
    /// The name's bytes when ``text`` is not them; nil for the usual name.
    let bytes: [UInt8]?

    /// The name of a listed entry; nil for an entry with no name at all.
    init?(_ entry: FileSystemCalls.FolderEntry) {
        if let name = entry.name {
            // A UTF-8 name that spells the escape itself is escaped too, to keep the rule one-to-one.
            guard EvidenceName.containsEscapeOpener(name.utf8) else {
                text = name
                bytes = nil
                return
            }
            bytes = Array(name.utf8)
        } else if let raw = entry.rawName {
            bytes = raw
        } else {
            return nil
        }
        text = EvidenceName.text(of: bytes ?? [])
    }
}
