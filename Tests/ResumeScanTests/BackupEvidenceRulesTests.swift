import Foundation
import Testing
@testable import ResumeDataCodec
@testable import ResumeScan

/// The rules about backups as they come (issue 34), value by value: what a folder without
/// `Manifest.plist` says, what backups leave out, and what scan says of a partial file it did
/// not find.
@Suite struct BackupEvidenceRulesTests {
    static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)
    static let info: PropertyListValue = ["Device Name": "Examiner's iPhone", "Product Type": "iPhone13,2", "Product Version": "14.3",
                                      "Build Version": "18C66", "Serial Number": "F2LZX0EXAMPL", "Unique Identifier": "abcdef0123456789"]
    static let device = BackupDevice(name: "Examiner's iPhone", model: "iPhone13,2", iOSVersion: "14.3", build: "18C66",
                                     serial: "F2LZX0EXAMPL", udid: "abcdef0123456789")

    @Test func withoutManifestPlistTheDeviceComesFromInfoPlistBinaryOrXML() throws {
        for format in [PropertyListFormat.binary, .xml] {
            let info = try PropertyListWriter().write(Self.info, as: format)
            let plain = try BackupManifestPlist(manifest: nil, info: info, databaseHeader: Self.sqliteHeader)
            #expect(plain.device == Self.device)
            #expect(!plain.isEncrypted)
            #expect(!plain.hasManifestPlist)
            #expect(plain.keybag == nil)
            #expect(plain.warnings == ["no Manifest.plist: Manifest.db's first bytes say whether the backup is encrypted, Info.plist names the device"])
        }
    }

    @Test func withoutManifestPlistEncryptionIsToldFromManifestDatabase() throws {
        let info = try PropertyListWriter().write(Self.info, as: .binary)
        // AES ciphertext, a short file: neither starts with SQLite's header.
        for header in [Data((0..<16).map { UInt8($0 * 17) }), Data("SQLite".utf8)] {
            let manifest = try BackupManifestPlist(manifest: nil, info: info, databaseHeader: header)
            #expect(manifest.isEncrypted)
            #expect(manifest.device == Self.device)
        }
        // An empty Manifest.db is plain: its rows may all be in its -wal.
        #expect(try !BackupManifestPlist(manifest: nil, info: info, databaseHeader: Data()).isEncrypted)
        // Manifest.mbdb is never encrypted whole: read as plain, and said so.
        let mbdb = try BackupManifestPlist(manifest: nil, info: info, databaseHeader: nil)
        #expect(!mbdb.isEncrypted)
        #expect(mbdb.warnings == ["no Manifest.plist: the backup is read as not encrypted, Info.plist names the device"])
    }

    @Test func withoutEitherPlistTheDeviceIsUnknown() throws {
        let none = try BackupManifestPlist(manifest: nil, info: nil, databaseHeader: Self.sqliteHeader)
        #expect(none.device == BackupDevice())
        #expect(none.warnings == ["no Manifest.plist: Manifest.db's first bytes say whether the backup is encrypted; no Info.plist either: the device is unknown"])
        let broken = try BackupManifestPlist(manifest: nil, info: Data("<plist><dict>".utf8), databaseHeader: Self.sqliteHeader)
        #expect(broken.device == BackupDevice())
        #expect(broken.warnings.count == 1)
        #expect(broken.warnings[0].hasPrefix("no Manifest.plist: Manifest.db's first bytes say whether the backup is encrypted; Info.plist cannot be read: "))
        #expect(broken.warnings[0].hasSuffix(": the device is unknown"))
        let array = try BackupManifestPlist(manifest: nil, info: try PropertyListWriter().write(["a"], as: .binary), databaseHeader: Self.sqliteHeader)
        #expect(array.warnings == ["no Manifest.plist: Manifest.db's first bytes say whether the backup is encrypted; Info.plist is no dictionary: the device is unknown"])
    }

    /// With `Manifest.plist`, its `Lockdown` wins, `Info.plist` fills the gaps, `Manifest.db`'s
    /// bytes are not asked, and nothing is said.
    @Test func withManifestPlistNothingChanges() throws {
        let manifest = try PropertyListWriter().write(["IsEncrypted": true, "Lockdown": ["DeviceName": "Lockdown name"]], as: .binary)
        let read = try BackupManifestPlist(manifest: manifest, info: try PropertyListWriter().write(Self.info, as: .xml),
                                           databaseHeader: Self.sqliteHeader)
        #expect(read.isEncrypted)
        #expect(read.hasManifestPlist)
        #expect(read.warnings == [])
        #expect(read.device.name == "Lockdown name")
        #expect(read.device.model == "iPhone13,2")
    }

    @Test func backupsLeaveOutTmpAndCaches() {
        let cases: [(String, String?)] = [
            ("AppDomain-com.example.app/tmp/CFNetworkDownload_Occ2S2.tmp", "tmp"),
            ("AppDomain-com.example.app/tmp/a/b", "tmp"),
            ("AppDomain-com.example.app/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app/CFNetworkDownload_d8md6s.tmp",
             "Library/Caches"),
            ("HomeDomain/Library/Caches/x", "Library/Caches"),
            ("AppDomainGroup-group.example/Library/Caches/x", "Library/Caches"),
            // The folder itself, look-alikes, and other places are backed up.
            ("AppDomain-com.example.app/tmp", nil),
            ("AppDomain-com.example.app/Library/Caches", nil),
            ("AppDomain-com.example.app/tmpfile", nil),
            ("AppDomain-com.example.app/Library/CachesX/x", nil),
            ("AppDomain-com.example.app/Documents/tmp/x", nil),
            ("AppDomain-com.example.app/Library/Preferences/com.example.app.plist", nil),
            ("tmp/x", nil),
            ("CFNetworkDownload_Occ2S2.tmp", nil),
        ]
        for (inner, folder) in cases {
            #expect(BackupExclusion.leftOutFolder(of: inner) == folder, "\(inner)")
        }
        #expect(BackupExclusion.absence(of: "AppDomain-a/tmp/x") == "not in the backup (backups leave out tmp: expected, not an error)")
        #expect(BackupExclusion.absence(of: "HomeDomain/Library/Caches/x")
                == "not in the backup (backups leave out Library/Caches: expected, not an error)")
        #expect(BackupExclusion.absence(of: "HomeDomain/Documents/x") == "not in the backup")
        #expect(BackupExclusion.expectedAbsence(of: "HomeDomain/Documents/x") == nil)
    }

    @Test func whatScanSaysOfAPartialFileItDidNotFind() {
        func said(_ path: String, search: MissingPartialFile.Search = .looked, absence: String? = nil, sameName: [String] = [],
                  key: String = ResumeDataKey.tempFileName) -> String {
            MissingPartialFile(expectedPath: path, key: key, search: search, expectedAbsence: absence, sameName: sameName).finding.description
        }
        #expect(said("C/tmp/N.tmp") == "error[temp-file-missing] NSURLSessionResumeInfoTempFileName: the partial file C/tmp/N.tmp does not exist")
        #expect(said("C/tmp/N.tmp", sameName: ["D/N.tmp"])
                == "error[temp-file-missing] NSURLSessionResumeInfoTempFileName: the partial file C/tmp/N.tmp does not exist; a file of that name is at D/N.tmp")
        #expect(said("C/tmp/N.tmp", sameName: ["D/N.tmp", "E/N.tmp"])
                == "error[temp-file-missing] NSURLSessionResumeInfoTempFileName: the partial file C/tmp/N.tmp does not exist; files of that name are at D/N.tmp and E/N.tmp")
        #expect(said("C/tmp/N.tmp", sameName: ["D/N.tmp", "E/N.tmp", "F/N.tmp", "G/N.tmp"])
                == "error[temp-file-missing] NSURLSessionResumeInfoTempFileName: the partial file C/tmp/N.tmp does not exist; files of that name are at D/N.tmp, E/N.tmp and 2 more")
        #expect(said("/private/var/mobile/N.tmp", search: .outsideScannedTree, sameName: ["Samples/N.tmp"], key: ResumeDataKey.localPath)
                == "error[temp-file-missing] NSURLSessionResumeInfoLocalPath: the partial file /private/var/mobile/N.tmp was not looked for: no scanned folder holds that device path; a file of that name is at Samples/N.tmp")
        #expect(said("N.tmp", search: .noContainer, sameName: ["Samples/N.tmp"])
                == "error[temp-file-missing] NSURLSessionResumeInfoTempFileName: the partial file N.tmp was not looked for: the blob is in no app container, whose tmp/ folder would hold it; a file of that name is at Samples/N.tmp")
        let absence = BackupExclusion.expectedAbsence(of: "AppDomain-a/tmp/N.tmp")
        #expect(said("AppDomain-a/tmp/N.tmp", absence: absence)
                == "note[temp-file-missing] NSURLSessionResumeInfoTempFileName: the partial file AppDomain-a/tmp/N.tmp is not in the backup (backups leave out tmp: expected, not an error)")
    }
}
