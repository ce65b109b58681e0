import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct KeyedArchiveXMLTests {
    typealias Support = KeyedArchiveTestSupport

    /// A keyed archive saved as XML, the way WebKit rewrites resume data: UIDs as `CF$UID`
    /// dictionaries, keys sorted.
    static let xmlArchive = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>$archiver</key>
        \t<string>NSKeyedArchiver</string>
        \t<key>$objects</key>
        \t<array>
        \t\t<string>$null</string>
        \t\t<dict>
        \t\t\t<key>$class</key>
        \t\t\t<dict><key>CF$UID</key><integer>6</integer></dict>
        \t\t\t<key>NS.keys</key>
        \t\t\t<array>
        \t\t\t\t<dict><key>CF$UID</key><integer>2</integer></dict>
        \t\t\t\t<dict><key>CF$UID</key><integer>3</integer></dict>
        \t\t\t</array>
        \t\t\t<key>NS.objects</key>
        \t\t\t<array>
        \t\t\t\t<dict><key>CF$UID</key><integer>4</integer></dict>
        \t\t\t\t<dict><key>CF$UID</key><integer>5</integer></dict>
        \t\t\t</array>
        \t\t</dict>
        \t\t<string>NSURLSessionResumeInfoVersion</string>
        \t\t<string>NSURLSessionDownloadURL</string>
        \t\t<integer>2</integer>
        \t\t<string>http://example.com/a.zip</string>
        \t\t<dict>
        \t\t\t<key>$classes</key>
        \t\t\t<array><string>NSMutableDictionary</string><string>NSDictionary</string><string>NSObject</string></array>
        \t\t\t<key>$classname</key>
        \t\t\t<string>NSMutableDictionary</string>
        \t\t</dict>
        \t</array>
        \t<key>$top</key>
        \t<dict>
        \t\t<key>root</key>
        \t\t<dict><key>CF$UID</key><integer>1</integer></dict>
        \t</dict>
        \t<key>$version</key>
        \t<integer>100000</integer>
        </dict>
        </plist>
        """

    @Test func decodesAnArchiveSavedAsXML() throws {
        let archive = try KeyedArchive(data: Data(Self.xmlArchive.utf8))
        #expect(archive.topKey == "root")
        let dictionary = try KeyedArchive.decodeDictionary(data: Data(Self.xmlArchive.utf8))
        #expect(dictionary == ["NSURLSessionResumeInfoVersion": 2, "NSURLSessionDownloadURL": "http://example.com/a.zip"])
        #expect(dictionary.keys == ["NSURLSessionResumeInfoVersion", "NSURLSessionDownloadURL"])
    }

    @Test func aRequestArchiveSurvivesXML() throws {
        let original = try KeyedArchive(Support.currentRequestPropertyList)
        let xml = try original.data(format: .xml)
        #expect(PropertyListReader.format(of: xml) == .xml)
        let reread = try KeyedArchive(data: xml)
        #expect(reread.objects == original.objects)
        #expect(try URLRequestArchive(archiveData: xml) == URLRequestArchive(archive: original))
    }

    @Test func xmlErrorsKeepTheirLineAndColumn() {
        let broken = Data(Self.xmlArchive.replacingOccurrences(of: "<integer>6</integer>", with: "<integer>6</integr>").utf8)
        #expect {
            try KeyedArchive(data: broken)
        } throws: { error in
            guard let error = error as? KeyedArchiveError, case .lineColumn? = error.underlying?.location else { return false }
            return error.code == .propertyList && error.description.hasPrefix("12:37: ")
        }
    }
}
