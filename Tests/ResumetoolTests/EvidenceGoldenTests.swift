import Foundation
import Testing

/// What `scan` prints for people on the backups and extractions the generators make, kept in
/// `Expected/scan/evidence/`: the evidence sources are being reshaped (issue 34), and each step
/// must leave this output byte for byte as it was unless it means to change it. The text report
/// holds no digest of a file the generators write with Python's plistlib, so it does not
/// depend on the Python version; its standard error and exit status are kept too.
@Suite struct EvidenceGoldenTests {
    static let backups = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Backups")
    static let password = "pass word"

    /// A generator's arguments, and the scans of what it made.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var generator: String
        var arguments: [String]
        /// What to scan in the generator's output folder, with the options to give.
        var scans: [(target: String, options: [String])]

        var testDescription: String { name }
    }

    static let encrypted = ["--password", password, "--dpic", "1000", "--iter", "100"]

    static let cases: [Case] = [
        Case(name: "backup-plain", generator: "make_backup.py", arguments: [], scans: [("backup", [])]),
        Case(name: "backup-hostile", generator: "make_backup.py", arguments: ["--hostile"], scans: [("backup", [])]),
        Case(name: "backup-mbdb", generator: "make_backup.py", arguments: ["--mbdb", "--hostile"], scans: [("backup", [])]),
        Case(name: "backup-encrypted", generator: "make_backup.py", arguments: encrypted + ["--hostile"],
             scans: [("backup", ["--password-file", "PASSWORD"]), ("backup", [])]),
        Case(name: "backup-ledger", generator: "make_backup.py", arguments: ["--ledger", "wal-only", "--no-tmp"], scans: [("backup", [])]),
        Case(name: "backup-encrypted-ledger", generator: "make_backup.py", arguments: encrypted + ["--ledger", "empty-main"],
             scans: [("backup", ["--password-file", "PASSWORD"])]),
        Case(name: "backup-forensic-copy", generator: "make_backup.py", arguments: ["--forensic-copy", "--missing", "30", "--manifest-wal", "tail"],
             scans: [("backup", [])]),
        Case(name: "extraction", generator: "make_extraction.py", arguments: ["--formats", "zip,tar.gz", "--no-tree"],
             scans: [("extraction.zip", []), ("extraction.tar.gz", [])]),
        Case(name: "extraction-ledger", generator: "make_extraction.py",
             arguments: ["--ledger", "checkpointed", "--wal-first", "--prefix", "filesystem1/", "--formats", "tar", "--no-tree"],
             scans: [("extraction.tar", [])]),
        Case(name: "extraction-hostile", generator: "make_extraction.py", arguments: ["--hostile", "ledger-corrupt"], scans: [("hostile.tar", [])]),
    ]

    @Test(arguments: cases)
    func textReport(_ fixture: Case) throws {
        let directory = try TemporaryDirectory()
        let out = directory.url.appendingPathComponent(fixture.generator == "make_backup.py" ? "made/backup" : "made")
        let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                          ["python3", Self.backups.appendingPathComponent(fixture.generator).path, out.path] + fixture.arguments)
        try #require(made.status == 0, "\(fixture.generator): \(String(decoding: made.stderr, as: UTF8.self))")
        let passwordFile = directory.path("password.txt")
        try Data(Self.password.utf8).write(to: URL(fileURLWithPath: passwordFile))
        var report = ""
        for scan in fixture.scans {
            let options = scan.options.map { $0 == "PASSWORD" ? passwordFile : $0 }
            let result = try ToolRunner.run(["scan"] + options + [scan.target], in: directory.url.appendingPathComponent("made"))
            report += "$ resumetool " + (["scan"] + scan.options + [scan.target]).joined(separator: " ") + "\n"
            report += result.stdout + "--- standard error\n" + result.stderr + "--- exit status \(result.status)\n"
        }
        try EndToEnd.checkExpected(report, "scan/evidence/\(fixture.name).txt")
    }
}
