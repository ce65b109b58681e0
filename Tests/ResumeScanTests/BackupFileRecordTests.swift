import Foundation
import Testing
@testable import ResumeDataCodec
@testable import ResumeScan

/// MBFile records as BackupAgent2 archives them (inline integers, `EncryptionKey` an NSData by
/// reference), and the records a hostile backup could hold instead.
@Suite struct BackupFileRecordTests {
    static func archive(_ fields: [ArchivedObject.Field], format: PropertyListFormat = .binary) throws -> Data {
        try KeyedArchive(encoding: .object(ArchivedObject(className: "MBFile", classChain: ["MBFile", "NSObject"], fields: fields)),
                         topKey: "root").data(format: format)
    }

    static func integer(_ key: String, _ value: Int64) -> ArchivedObject.Field {
        .init(key: key, value: .inline(.integer(PropertyListInteger(value))))
    }

    @Test func decodesEveryField() throws {
        let key = Data([3, 0, 0, 0]) + Data(repeating: 0xAB, count: 40)
        let record = try BackupFileRecord(archive: try Self.archive([
            Self.integer("Size", 4548), Self.integer("Mode", 0o100644), Self.integer("LastModified", 1_767_323_045),
            Self.integer("LastStatusChange", 1_767_225_600), Self.integer("Birth", 1_767_139_200), Self.integer("ProtectionClass", 3),
            .init(key: "RelativePath", value: .reference(.string("Library/Preferences/x.plist"))),
            .init(key: "EncryptionKey", value: .reference(.data(key))),
        ]))
        #expect(record == BackupFileRecord(size: 4548, mode: 0o100644, modified: Date(timeIntervalSince1970: 1_767_323_045),
                                           changed: Date(timeIntervalSince1970: 1_767_225_600), created: Date(timeIntervalSince1970: 1_767_139_200),
                                           protectionClass: 3, encryptionKey: key))
    }

    /// A binary record is read in place, an XML one by the full keyed-archive reader: the same
    /// record either way, for every shape of EncryptionKey.
    @Test func bothReadersAgree() throws {
        let key = Data([3, 0, 0, 0]) + Data(repeating: 0xAB, count: 40)
        let common = [Self.integer("Size", 4548), Self.integer("Mode", 0o100644), Self.integer("LastModified", 1_767_323_045),
                      Self.integer("LastStatusChange", 1_767_225_600), Self.integer("Birth", 1_767_139_200), Self.integer("ProtectionClass", 3),
                      .init(key: "RelativePath", value: .reference(.string("Library/Preferences/x.plist")))]
        for encryptionKey: ArchivedObject.FieldValue? in [.reference(.data(key)), .inline(.data(key)), .reference(.string("not data")), nil] {
            let fields = common + (encryptionKey.map { [ArchivedObject.Field(key: "EncryptionKey", value: $0)] } ?? [])
            let binary = try Self.archive(fields)
            #expect(KeyedArchive.rootFields(of: binary, named: ["Size", "EncryptionKey"], maximumObjectCount: 1_000) != nil)
            let xml = try Self.archive(fields, format: .xml)
            #expect(KeyedArchive.rootFields(of: xml, named: ["Size", "EncryptionKey"], maximumObjectCount: 1_000) == nil)
            let record = try BackupFileRecord(archive: binary)
            #expect(record == (try BackupFileRecord(archive: xml)))
            #expect(record.encryptionKey == (encryptionKey == .reference(.string("not data")) || encryptionKey == nil ? nil : key))
            #expect(record.size == 4548 && record.protectionClass == 3)
        }
    }

    /// Times no device writes are dropped, not trapped on (`abs(Int64.min)` would); a negative
    /// mode or class is no mode or class.
    @Test func hostileValues() throws {
        let record = try BackupFileRecord(archive: try Self.archive([
            Self.integer("Size", 0), Self.integer("LastModified", Int64.min), Self.integer("LastStatusChange", Int64.max),
            Self.integer("Birth", -(1 << 41)), Self.integer("Mode", -1), Self.integer("ProtectionClass", 1 << 40),
            .init(key: "EncryptionKey", value: .reference(.string("not data"))),
        ]))
        #expect(record == BackupFileRecord(size: 0))
    }

    @Test func refusedRecords() throws {
        func message(_ data: Data) -> String? {
            do {
                _ = try BackupFileRecord(archive: data)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message(try Self.archive([Self.integer("Mode", 0o100644)])) == "its MBFile record has no Size")
        #expect(message(try Self.archive([Self.integer("Size", -1)])) == "its MBFile record has no Size")
        #expect(message(Data(count: 100_001)) == "its MBFile record is 100001 bytes, more than 100000")
        #expect(message(Data("not an archive".utf8))?.hasPrefix("its MBFile record is no keyed archive: ") == true)
        let notAnObject = try KeyedArchive(encoding: .string("MBFile"), topKey: "root").data()
        #expect(message(notAnObject) == "its MBFile record's root is no object")
    }

    @Test func domainsAndPaths() {
        #expect(BackupScan.staysInside(domain: "AppDomain-com.example.app", relativePath: "Library/Preferences/a.plist"))
        #expect(BackupScan.staysInside(domain: "HomeDomain", relativePath: "..hidden/.x/a..b"))
        for path in ["../a", "a/../b", "a/..", "./a", "a/./b", "/etc/passwd", "a//b", "a/", "", "a\u{0}b", ".", ".."] {
            #expect(!BackupScan.staysInside(domain: "HomeDomain", relativePath: path), "\(path)")
        }
        for domain in ["", ".", "..", "a/b", "a\u{0}"] {
            #expect(!BackupScan.staysInside(domain: domain, relativePath: "a"), "\(domain)")
        }
        #expect(BackupScan.bundleID(ofDomain: "AppDomain-com.example.app") == "com.example.app")
        #expect(BackupScan.bundleID(ofDomain: "AppDomainGroup-group.com.example") == "group.com.example")
        #expect(BackupScan.bundleID(ofDomain: "AppDomainPlugin-com.example.app.widget") == "com.example.app.widget")
        #expect(BackupScan.bundleID(ofDomain: "AppDomain-") == nil)
        #expect(BackupScan.bundleID(ofDomain: "HomeDomain") == nil)
        #expect(BackupScan.bundleID(ofDomain: "SysContainerDomain-com.apple.x") == nil)
        #expect(BackupScan.isFileID("c7aec62664a375f85f3d2213ae35d28597157a08"))
        #expect(!BackupScan.isFileID("C7AEC62664A375F85F3D2213AE35D28597157A08"))
        #expect(!BackupScan.isFileID("c7aec62664a375f85f3d2213ae35d28597157a0"))
    }
}
