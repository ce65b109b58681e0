import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct ResumeDataTests {
    typealias Support = ResumeDataTestSupport

    /// The four containers of a resume dictionary; the Network-framework ones are tested in
    /// NetworkResumeDataTests (they have no byte count or info version to compare).
    static let classicContainers = ResumeDataContainer.allCases.filter { !$0.isNetworkFramework }

    @Test(arguments: classicContainers)
    func readsEveryContainerAndSaysWhich(_ container: ResumeDataContainer) throws {
        let blob = try Support.realResumeData().encoded(as: container)
        let resume = try ResumeData(data: blob)
        #expect(resume.container == container)
        #expect(resume.downloadURL == Support.url)
        #expect(resume.bytesReceived == 2_339_054)
        #expect(resume.tempFileName == Support.tempFileName)
        #expect(resume.localPath == nil)
        #expect(resume.entityTag == Support.entityTag)
        #expect(resume.serverDownloadDate == Support.serverDate)
        #expect(resume.infoVersion == 2)
        #expect(resume.byteRange == nil)
        let current = try #require(try resume.request(.current))
        #expect(current.urlString == Support.url)
        #expect(current.method == "GET")
        #expect(current.timeoutInterval == 60)
        #expect(current.cachePolicy == 0)
        #expect(current.layout == .secure)
        #expect(current.headers.map(\.name) == ["User-Agent", "Accept", "Accept-Language", "Accept-Encoding"])
        #expect(current.headers.map(\.value) == ["DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0", "*/*", "zh-cn", "gzip, deflate"])
        let original = try #require(try resume.request(.original))
        #expect(original.urlString == Support.url)
        #expect(original.headers.isEmpty)
        #expect(resume.entries == (try Support.realDictionary()))
    }

    @Test(arguments: classicContainers)
    func reencodingInItsOwnContainerKeepsValuesAndOurOutputIsStable(_ container: ResumeDataContainer) throws {
        let first = try Support.realResumeData().encoded(as: container)
        let decoded = try ResumeData(data: first)
        let second = try decoded.encoded()
        #expect(second == first)
        #expect(try ResumeData(data: second) == decoded)
    }

    @Test func keyedArchiveFollowsApplesInsertionOrderAndTopKey() throws {
        var resume = try Support.realResumeData()
        resume.entries["ZZUnknownKey"] = "kept"
        let archive = try KeyedArchive(data: try resume.encoded(as: .keyedArchive))
        #expect(archive.topKey == "NSKeyedArchiveRootObjectKey")
        #expect(try archive.objectClass(at: archive.rootUID).chain == ["NSMutableDictionary", "NSDictionary", "NSObject"])
        let decoded = try ResumeData(data: try resume.encoded(as: .keyedArchive))
        #expect(decoded.entries.keys == [
            ResumeDataKey.infoVersion, ResumeDataKey.tempFileName, ResumeDataKey.bytesReceived,
            ResumeDataKey.downloadURL, ResumeDataKey.currentRequest, ResumeDataKey.originalRequest,
            ResumeDataKey.serverDownloadDate, ResumeDataKey.entityTag, "ZZUnknownKey",
        ])
        #expect(try KeyedArchive(data: try resume.encoded(as: .keyedArchiveXML)).topKey == "NSKeyedArchiveRootObjectKey")
    }

    @Test func xmlIsSortedByKey() throws {
        var resume = ResumeData(container: .xml)
        resume.tempFileName = "b"
        resume.downloadURL = "https://a"
        let text = String(decoding: try resume.encoded(), as: UTF8.self)
        let download = try #require(text.range(of: ResumeDataKey.downloadURL))
        let temp = try #require(text.range(of: ResumeDataKey.tempFileName))
        #expect(download.lowerBound < temp.lowerBound)
    }

    @Test func otherKeysAreKeptInOrderWithTheirValues() throws {
        var entries = try Support.realDictionary()
        entries["NSURLSessionResumeExtractor"] = .data(Data([1, 2, 3]))
        entries["PublishingURL"] = "https://example.com/p"
        let resume = try ResumeData(data: try ResumeData(entries: entries, container: .binary).encoded())
        #expect(resume.otherEntries.keys == ["NSURLSessionResumeExtractor", "PublishingURL"])
        #expect(resume.otherEntries["NSURLSessionResumeExtractor"] == .data(Data([1, 2, 3])))
    }

    @Test func aNonDefaultArchiveTopKeyIsReadAndWrittenAsApples() throws {
        for (format, container) in [(PropertyListFormat.binary, ResumeDataContainer.keyedArchive), (.xml, .keyedArchiveXML)] {
            let archive = try KeyedArchive.encodeDictionary(try Support.realDictionary(), topKey: "root")
            let blob = try PropertyListWriter().write(archive, as: format)
            let resume = try ResumeData(data: blob)
            #expect(try KeyedArchive(data: blob).topKey == "root")
            #expect(resume.container == container)
            #expect(resume.entries == (try Support.realDictionary()))
            // The key is not part of the value, and every keyed archive written gets Apple's.
            #expect(resume == ResumeData(entries: try Support.realDictionary(), container: container))
            #expect(try KeyedArchive(data: try resume.encoded()).topKey == "NSKeyedArchiveRootObjectKey")
            #expect(try KeyedArchive(data: try resume.encoded(as: .keyedArchive)).topKey == "NSKeyedArchiveRootObjectKey")
            #expect(try KeyedArchive(data: try resume.encoded(as: .keyedArchiveXML)).topKey == "NSKeyedArchiveRootObjectKey")
        }
    }

    @Test func anObscuredArchiveOfAResumeDictionaryIsNotNetworkResumeData() throws {
        let blob = try Support.realResumeData().encoded(as: .keyedArchive)
        let obscured = Data(zip(blob.prefix(8), Array("TedLasso".utf8)).map { $0 ^ $1 }) + blob.dropFirst(8)
        #expect(Array(obscured.prefix(8)) == [0x36, 0x15, 0x08, 0x25, 0x12, 0x07, 0x43, 0x5f])
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: obscured) }
        #expect(error.code == .invalidArchive)
        #expect(error.description == "$objects[1]: the root is an NSMutableDictionary, not an NWURLSessionDownloadResumeInfo")
    }

    @Test func aTopLevelArrayIsNotAResumeDictionary() throws {
        let blob = try PropertyListWriter().write(["a"], as: .xml)
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: blob) }
        #expect(error.code == .notADictionary)
        #expect(error.description == "the property list is a array, not a resume dictionary")
    }

    @Test func unreadableInputKeepsThePosition() throws {
        let xml = Data("<plist version=\"1.0\">\n<dict>\n<key>a</key><string>x</key>\n</dict></plist>".utf8)
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: xml) }
        #expect(error.code == .unreadable)
        #expect(error.locationDescription?.hasPrefix("3:") == true)
        let binary = try Support.realResumeData().encoded(as: .binary)
        let truncated = try #require(throws: ResumeDataError.self) { try ResumeData(data: binary.prefix(binary.count - 3)) }
        #expect(truncated.code == .unreadable)
        #expect(truncated.locationDescription?.hasPrefix("byte 0x") == true)
        #expect(truncated.reason.hasSuffix("(the last 32 bytes are not a trailer: is the file truncated?)"))
    }

    @Test func aBrokenArchiveNamesTheObject() throws {
        var archive = try #require(try KeyedArchive.encodeDictionary(try Support.realDictionary()).dictionaryValue)
        var objects = try #require(archive["$objects"]?.arrayValue)
        var root = try #require(objects[1].dictionaryValue)
        root["NS.keys"] = [.uid(900)]
        objects[1] = .dictionary(root)
        archive["$objects"] = .array(objects)
        let blob = try PropertyListWriter().write(.dictionary(archive), as: .binary)
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: blob) }
        #expect(error.code == .invalidArchive)
        #expect(error.reason.contains("$objects[1]"))
    }

    @Test func everyPrefixOfEveryContainerFailsCleanly() throws {
        for container in Self.classicContainers {
            let blob = try Support.realResumeData().encoded(as: container)
            for length in stride(from: 0, to: blob.count, by: container.propertyListFormat == .xml ? 7 : 1) {
                #expect(throws: ResumeDataError.self) { try ResumeData(data: blob.prefix(length)) }
            }
        }
    }

    @Test func typedSettersAndRequestsRoundTrip() throws {
        var resume = ResumeData(container: .binary)
        resume.downloadURL = "https://e.example/x"
        resume.bytesReceived = 10
        resume.localPath = "/tmp/x"
        resume.byteRange = "bytes=0-9"
        resume.infoVersion = 1
        let request = URLRequestArchive(url: try #require(URL(string: "https://e.example/x")), method: "GET", headers: [("A", "b")])
        try resume.setRequest(request, .current)
        let back = try ResumeData(data: try resume.encoded())
        #expect(back.localPath == "/tmp/x")
        #expect(back.byteRange == "bytes=0-9")
        #expect(back.currentRequest?.headers.first?.value == "b")
        resume.downloadURL = nil
        try resume.setRequest(nil, .current)
        #expect(resume.entries.keys == [ResumeDataKey.bytesReceived, ResumeDataKey.localPath, ResumeDataKey.byteRange, ResumeDataKey.infoVersion])
    }

    @Test func aRequestThatIsNotDataIsAClearError() throws {
        var resume = ResumeData()
        resume.entries[ResumeDataKey.currentRequest] = "oops"
        let error = try #require(throws: ResumeDataError.self) { try resume.request(.current) }
        #expect(error.code == .invalidRequest)
        #expect(error.reason == "NSURLSessionResumeCurrentRequest: expected data, found string")
        #expect(resume.currentRequest == nil)
    }
}
