import Foundation
import Testing
@testable import ResumeDataCodec
@testable import ResumeScan

/// The rules about backups as they come (issue 34), value by value: what a folder without
/// `Manifest.plist` says.
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
        // AES ciphertext, a short file, an empty one: none starts with SQLite's header.
        for header in [Data((0..<16).map { UInt8($0 * 17) }), Data("SQLite".utf8), Data()] {
            let manifest = try BackupManifestPlist(manifest: nil, info: info, databaseHeader: header)
            #expect(manifest.isEncrypted)
            #expect(manifest.device == Self.device)
        }
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
}
