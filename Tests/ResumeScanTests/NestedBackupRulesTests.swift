import Foundation
import Testing
@testable import ResumeScan

/// Which folder is a backup, value by value (one answer for a root and for a folder met in the
/// walk), and what the walk does with one: hands it over once, walks none of its files, follows
/// no link where a backup would be.
@Suite struct NestedBackupRulesTests {
    @Test func aFolderIsABackupByARegularManifest() {
        let cases: [(Set<String>, BackupScan.RootKind)] = [
            ([], .folder),
            (["Info.plist", "Manifest.plist", "Status.plist"], .folder),
            (["Manifest.db"], .backup),
            (["Manifest.mbdb"], .mbdbBackup),
            (["Manifest.db", "Manifest.mbdb"], .backup),
            (["manifest.db"], .folder),
            (["Manifest.db-wal"], .folder),
            (["Manifest.dbx", "Manifest"], .folder),
        ]
        for (names, kind) in cases {
            #expect(BackupScan.kind(holdingRegularFile: names.contains) == kind, "\(names)")
        }
    }

    @Test func linksWhereABackupWouldBe() {
        let cases: [(String, String, BackupScan.LinkInPlaceOfBackup?)] = [
            ("Manifest.db", "anything", .list),
            ("Manifest.mbdb", "home/x", .list),
            ("Backup", "home/Library/Application Support/MobileSync", .backupsFolder),
            ("Backup", "MobileSync", .backupsFolder),
            ("00008140-001A2B3C4D5E6F70", "home/Library/Application Support/MobileSync/Backup", .backupFolder),
            ("anything", "MobileSync/Backup", .backupFolder),
            ("Backup", "home/Documents", nil),
            ("Info.plist", "home/MobileSync", nil),
            ("Manifest.plist", "home/Backup", nil),
            ("x", "home/Other/Backup", nil),
            ("x", "Backup", nil),
            ("manifest.db", "home", nil),
        ]
        for (name, folder, kind) in cases {
            #expect(BackupScan.linkInPlaceOfBackup(name: name, folder: folder) == kind, "\(folder)/\(name)")
        }
    }

    /// A tree with a backup of each kind below it, and a folder whose `Manifest.db` is a link.
    @Test func theWalkHandsOverBackupsAndWalksNoneOfTheirFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nested-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ text: String = "x") throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write("a/one.txt")
        try write("Backup/new/Manifest.db")
        try write("Backup/new/Info.plist")
        try write("Backup/new/ab/ab00000000000000000000000000000000000000")
        try write("Backup/new/ab/inner/Manifest.db")
        try write("Backup/old/Manifest.mbdb")
        try write("Backup/old/0000000000000000000000000000000000000000")
        try write("linked/Info.plist")
        try write("outside/real.db")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("linked/Manifest.db").path,
                                                   withDestinationPath: "../outside/real.db")
        try write("z/two.txt")

        var walker = TreeWalker()
        var files: [String] = []
        var backups: [(String, BackupScan.RootKind)] = []
        let read = walker.walk(root: root.path, visit: { files += $0.map(\.path) }, backup: { backups.append(($0.path, $0.kind)) })
        #expect(read)
        let prefix = root.path + "/"
        #expect(files.map { String($0.dropFirst(prefix.count)) } == ["a/one.txt", "linked/Info.plist", "outside/real.db", "z/two.txt"])
        #expect(backups.map { String($0.0.dropFirst(prefix.count)) } == ["Backup/new", "Backup/old"])
        #expect(backups.map(\.1) == [.backup, .mbdbBackup])
        #expect(walker.fileCount == 4)
        #expect(walker.errors.map { String($0.path.dropFirst(prefix.count)) } == ["linked/Manifest.db"])
        #expect(walker.errors.map(\.message) == [
            "skipped: a symbolic link, not followed: the folder is not read as a backup (its Manifest.db must be a regular file)",
        ])
        // The root triage gives the same answers.
        #expect(BackupScan.kind(of: root.appendingPathComponent("Backup/new").path) == .backup)
        #expect(BackupScan.kind(of: root.appendingPathComponent("Backup/old").path) == .mbdbBackup)
        #expect(BackupScan.kind(of: root.appendingPathComponent("linked").path) == .folder)
    }
}
