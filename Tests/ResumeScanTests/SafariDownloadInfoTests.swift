import Foundation
import Testing

@testable import ResumeScan

/// ``SafariDownloadInfo`` value by value on small XML plists: what each layout gives, and every
/// way an `Info.plist` can fail or hold a value that is left out.
@Suite struct SafariDownloadInfoTests {
    static func plist(_ body: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">\(body)</plist>".utf8)
    }

    @Test func modernKeys() throws {
        let info = try SafariDownloadInfo(propertyList: Self.plist("""
            <dict><key>DownloadEntryURL</key><string>https://example.com/a.dmg</string>
            <key>DownloadEntryProgressBytesSoFar</key><integer>10</integer>
            <key>DownloadEntryProgressTotalToLoad</key><integer>20</integer>
            <key>DownloadEntryDateFinishedKey</key><date>2026-01-02T03:04:05Z</date></dict>
            """))
        #expect(info.layout == .modern)
        #expect(info.url == "https://example.com/a.dmg")
        #expect(info.bytesReceived == 10)
        #expect(info.totalBytes == 20)
        #expect(info.entityTag == nil)
        #expect(info.dateFinished == Date(timeIntervalSince1970: 1_767_323_045))
        #expect(info.problems.isEmpty)
    }

    /// The legacy layout's URL comes from its resume information, before the top level's.
    @Test func legacyKeys() throws {
        let info = try SafariDownloadInfo(propertyList: Self.plist("""
            <dict><key>DownloadEntryURL</key><string>https://example.com/top</string>
            <key>DownloadEntryResumeInformation</key><dict>
            <key>DownloadEntryURL</key><string>https://example.com/resume</string>
            <key>NSURLDownloadBytesReceived</key><integer>7</integer>
            <key>NSURLDownloadEntityTag</key><string>"e"</string></dict></dict>
            """))
        #expect(info.layout == .legacy)
        #expect(info.url == "https://example.com/resume")
        #expect(info.bytesReceived == 7)
        #expect(info.entityTag == "\"e\"")
        #expect(info.lastModified == nil)
    }

    /// `NSURLDownloadServerModificationDate` is the server's Last-Modified text, kept as written;
    /// of another type it is left out and said.
    @Test func legacyServerModificationDate() throws {
        let info = try SafariDownloadInfo(propertyList: Self.plist("""
            <dict><key>DownloadEntryResumeInformation</key><dict>
            <key>DownloadEntryURL</key><string>http://example.com/a.pkg</string>
            <key>NSURLDownloadServerModificationDate</key><string>Tue, 15 Nov 2016 08:12:31 GMT</string></dict></dict>
            """))
        #expect(info.lastModified == "Tue, 15 Nov 2016 08:12:31 GMT")
        #expect(info.entityTag == nil)
        let wrong = try SafariDownloadInfo(propertyList: Self.plist("""
            <dict><key>DownloadEntryResumeInformation</key><dict>
            <key>NSURLDownloadServerModificationDate</key><date>2016-11-15T08:12:31Z</date></dict></dict>
            """))
        #expect(wrong.lastModified == nil)
        #expect(wrong.problems == ["NSURLDownloadServerModificationDate is of type date, not string"])
    }

    @Test func valuesLeftOut() throws {
        let info = try SafariDownloadInfo(propertyList: Self.plist("""
            <dict><key>DownloadEntryResumeInformation</key><string>no</string>
            <key>DownloadEntryProgressTotalToLoad</key><integer>18446744073709551615</integer>
            <key>DownloadEntryErrorCodeDictionaryKey</key><true/>
            <key>DownloadEntryIdentifier</key><integer>5</integer></dict>
            """))
        #expect(info.layout == .legacy)
        #expect(info.totalBytes == nil)
        #expect(info.identifier == nil)
        #expect(info.errorCode == nil)
        #expect(info.problems == [
            "DownloadEntryResumeInformation is of type string, not dictionary",
            "DownloadEntryIdentifier is of type integer, not string",
            "DownloadEntryProgressTotalToLoad is an integer beyond the 64-bit range",
            "DownloadEntryErrorCodeDictionaryKey is of type boolean, not integer",
        ])
    }

    @Test func failures() {
        #expect(throws: SafariTransferError.notADownload("Info.plist has no DownloadEntry key: not a Safari download's")) {
            try SafariDownloadInfo(propertyList: Self.plist("<dict><key>CFBundleIdentifier</key><string>x</string></dict>"))
        }
        #expect(throws: SafariTransferError.unreadable("Info.plist is no dictionary")) {
            try SafariDownloadInfo(propertyList: Self.plist("<array/>"))
        }
        #expect(throws: SafariTransferError.unreadable("Info.plist is larger than 1048576 bytes")) {
            try SafariDownloadInfo(propertyList: Data(count: (1 << 20) + 1))
        }
        do {
            _ = try SafariDownloadInfo(propertyList: Data("not a plist".utf8))
            Issue.record("read garbage")
        } catch {
            if case .unreadable(let reason) = error {
                #expect(reason.hasPrefix("Info.plist: "))
            } else {
                Issue.record("\(error)")
            }
        }
    }
}
