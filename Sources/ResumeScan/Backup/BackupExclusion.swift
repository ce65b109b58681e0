import ResumeSystemCalls

/// What iTunes and Finder leave out of every backup (forensic-formats §2, "Exclusions"): a
/// domain's `tmp/` and `Library/Caches/`, where CFNetwork and nsurlsessiond keep partial
/// downloads. A partial file a blob or a ledger task names there is absent from any backup, as
/// expected; `scan` says so as a note, never as an error. One rule for blobs and ledger tasks.
enum BackupExclusion {
    /// The folders of a domain that a backup never holds, as their path components.
    static let leftOut: [[String]] = [["tmp"], ["Library", "Caches"]]

    /// The left-out folder (`tmp`, `Library/Caches`) that a backup path (`DOMAIN/relativePath`)
    /// lies in, nil when a backup may hold the file.
    static func leftOutFolder(of inner: String) -> String? {
        let relative = BytePath(inner).names(keepingEmpty: true).map(\.text).dropFirst()
        // The folder itself is no file in it: a path must go on below it.
        guard let folder = leftOut.first(where: { relative.count > $0.count && relative.starts(with: $0) }) else { return nil }
        return BytePath(joining: folder).text
    }

    /// Why a backup does not hold a file, when that is expected: `not in the backup (backups
    /// leave out tmp: expected, not an error)`; nil for a path a backup may hold.
    static func expectedAbsence(of inner: String) -> String? {
        leftOutFolder(of: inner).map { "not in the backup (backups leave out \($0): expected, not an error)" }
    }

    /// What a backup says of a file it does not hold: `not in the backup`, with why that is
    /// expected when the path lies in a left-out folder.
    static func absence(of inner: String) -> String {
        expectedAbsence(of: inner) ?? "not in the backup"
    }
}
