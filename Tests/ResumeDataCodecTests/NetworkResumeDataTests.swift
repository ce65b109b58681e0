import Foundation
import Testing
@testable import ResumeDataCodec

/// Network-framework resume data (spec §6), built here object by object as the decompiled code
/// lays it out, independently of our writer, then read, converted and written back.
@Suite struct NetworkResumeDataTests {
    typealias Support = KeyedArchiveTestSupport

    static let url = "https://cdn.example.com/big/file-7.9MB.zip"
    static let tempName = "CFNetworkDownload_nW4kTq.tmp"
    static let filePath = "/private/var/mobile/Containers/Data/Application/0A1B/tmp/" + tempName
    static let consumerChain = ["NWURLSessionResponseConsumerResumeInfo", "NSObject"]

    static func field(_ key: String, _ value: ArchivedObject.FieldValue) -> ArchivedObject.Field { .init(key: key, value: value) }

    static func requestObject() throws -> ArchivedObject {
        try URLRequestArchive(url: try #require(URL(string: url)), headers: [("Range", "bytes=68188-")]).archivedObject()
    }

    static func responseObject() throws -> ArchivedObject {
        try ArchivedURLResponse(url: url, statusCode: 200,
                                headers: [("ETag", "\"nw-1\""), ("Content-Length", "7936993"), ("Last-Modified", "Mon, 02 Nov 2026 10:00:00 GMT")],
                                mimeType: "application/zip", date: Date(timeIntervalSinceReferenceDate: 800_000_000)).archivedObject()
    }

    /// The root object's fields of either layout, in the order the spec lists them.
    static func rootObject(_ layout: NetworkResumeLayout, location: Bool = true, response: Bool = true) throws -> ArchivedObject {
        var fields = [
            field("originalRequest", .reference(.object(try requestObject()))),
            field("currentRequest", .reference(.object(try requestObject()))),
        ]
        if response { fields.append(field("response", .reference(.object(try responseObject())))) }
        fields += [
            field("earliestBeginDate", .reference(.date(Date(timeIntervalSinceReferenceDate: 1_000)))),
            field("countOfBytesClientExpectsToSend", .inline(-1)),
            field("countOfBytesClientExpectsToReceive", .inline(7_936_993)),
            field("taskDescription", .reference(.string("nightly build"))),
            field("priority", .inline(0.5)),
            field("prefersIncrementalDelivery", .inline(true)),
        ]
        let locationFields = location ? [
            field("fileURL", .reference(.url(ArchivedURL(relativeString: "file://" + filePath)))),
            field("tempFileName", .reference(.string(tempName))),
        ] : []
        switch layout {
        case .nested:
            fields.append(field("_keepDownloadTaskFile", .inline(false)))
            let consumer = ArchivedObject(className: "NWURLSessionResponseConsumerResumeInfo", classChain: consumerChain, fields: locationFields)
            fields.append(field("responseConsumerResumeInfo", .reference(.object(consumer))))
            return ArchivedObject(className: "NWURLSessionDownloadResumeInfo", classChain: ["NWURLSessionDownloadResumeInfo", "NSObject"], fields: fields)
        case .flat:
            fields += [field("taskIdentifier", .inline(7)), field("startTime", .inline(801_000_000.25))]
            fields += locationFields
            fields.append(field("_keepDownloadTaskFile", .inline(false)))
            return ArchivedObject(className: "NWURLSessionDownloadResumeInfo",
                                  classChain: ["NWURLSessionDownloadResumeInfo", "NWURLSessionResumeInfo", "NSObject"], fields: fields)
        }
    }

    static func xor(_ data: Data) -> Data {
        let key = Array("TedLasso".utf8)
        var bytes = Array(data)
        for index in 0..<min(8, bytes.count) { bytes[index] ^= key[index] }
        return Data(bytes)
    }

    static func blob(_ root: ArchivedObject) throws -> Data {
        xor(try KeyedArchive(encoding: .object(root), topKey: "root").data())
    }

    static func wrapper(_ entries: PropertyListDictionary) throws -> Data {
        try PropertyListWriter().write(KeyedArchive.encodeDictionary(entries), as: .binary)
    }

    // MARK: Reading

    @Test(arguments: NetworkResumeLayout.allCases)
    func bothLayoutsReadIntoTheModel(layout: NetworkResumeLayout) throws {
        let data = try Self.blob(Self.rootObject(layout))
        #expect(Array(data.prefix(8)) == [0x36, 0x15, 0x08, 0x25, 0x12, 0x07, 0x43, 0x5f])
        let resume = try ResumeData(data: data)
        #expect(resume.container == .networkFramework)
        #expect(resume.networkLayout == layout)
        #expect(resume.downloadURL == Self.url)
        #expect(resume.tempFileName == Self.tempName)
        #expect(resume.localPath == Self.filePath)
        #expect(resume.bytesReceived == nil)
        #expect(resume.entityTag == nil)
        #expect(resume.effectiveEntityTag == "\"nw-1\"")
        #expect(resume.effectiveServerDownloadDate == "Mon, 02 Nov 2026 10:00:00 GMT")
        #expect(resume.expectedTotalBytes == 7_936_993)
        #expect(resume.currentRequest?.headerValue("Range") == "bytes=68188-")
        #expect(resume.originalRequest?.urlString == Self.url)
        #expect(resume.response?.statusCode == 200)
        #expect(resume.response?.mimeType == "application/zip")
        var others: [(String, PropertyListValue)] = [
            ("earliestBeginDate", .date(Date(timeIntervalSinceReferenceDate: 1_000))),
            ("countOfBytesClientExpectsToSend", -1),
            ("countOfBytesClientExpectsToReceive", 7_936_993),
            ("taskDescription", "nightly build"),
            ("priority", 0.5),
            ("prefersIncrementalDelivery", true),
        ]
        switch layout {
        case .nested: others.append(("_keepDownloadTaskFile", false))
        case .flat: others += [("taskIdentifier", 7), ("startTime", 801_000_000.25), ("_keepDownloadTaskFile", false)]
        }
        #expect(resume.otherEntries.keys == others.map(\.0))
        #expect(resume.otherEntries.values == others.map(\.1))
    }

    @Test(arguments: NetworkResumeLayout.allCases)
    func writingBackGivesTheSameModel(layout: NetworkResumeLayout) throws {
        let resume = try ResumeData(data: Self.blob(Self.rootObject(layout)))
        let again = try ResumeData(data: resume.encoded())
        #expect(again == resume)
        let wrapped = try ResumeData(data: resume.encoded(as: .networkFrameworkWebKit))
        #expect(wrapped.container == .networkFrameworkWebKit)
        #expect(wrapped.localPath == Self.filePath)
        #expect(wrapped.tempFileName == nil)
        #expect(wrapped.entries["tempFileName"] == .string(Self.tempName))
    }

    @Test func webKitsWrapperReplacesTheFileLocation() throws {
        let inner = try Self.blob(Self.rootObject(.nested))
        let data = try Self.wrapper(["data": .data(inner), "NSURLSessionResumeInfoLocalPath": "/Users/a/Downloads/file-7.9MB.zip.download/nw.tmp"])
        let resume = try ResumeData(data: data)
        #expect(resume.container == .networkFrameworkWebKit)
        #expect(resume.networkLayout == .nested)
        #expect(resume.localPath == "/Users/a/Downloads/file-7.9MB.zip.download/nw.tmp")
        #expect(resume.tempFileName == nil)
        #expect(resume.entries["tempFileName"] == .string(Self.tempName))
        #expect(resume.entries["fileURL"] == .string(Self.filePath))
        #expect(resume.downloadURL == Self.url)
        #expect(try ResumeData(data: resume.encoded()) == resume)
    }

    @Test func aWrapperWithoutItsDataIsAnError() throws {
        let data = try Self.wrapper(["NSURLSessionResumeInfoLocalPath": "/tmp/x"])
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: data) }
        #expect(error.code == .invalidArchive)
        #expect(error.description == "WebKit's resume wrapper has no data key: the Network-framework blob it wraps is missing")
    }

    @Test func aWrapperWhoseDataIsNotDataIsAnError() throws {
        let data = try Self.wrapper(["data": "bplist00", "NSURLSessionResumeInfoLocalPath": "/tmp/x"])
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: data) }
        #expect(error.description == "data: expected the XOR-ed Network-framework blob as data, found string")
        let plain = try Self.wrapper(["data": .data(Data("bplist00".utf8))])
        let second = try #require(throws: ResumeDataError.self) { try ResumeData(data: plain) }
        #expect(second.description == "data: 8 bytes that do not start as Network-framework resume data (bplist00 XOR-ed with \"TedLasso\")")
    }

    @Test func aBrokenBlobInsideTheWrapperIsNamed() throws {
        let inner = try Self.blob(Self.rootObject(.flat))
        let data = try Self.wrapper(["data": .data(inner.prefix(inner.count - 3))])
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: data) }
        #expect(error.code == .unreadable)
        #expect(error.description.hasPrefix("data: byte 0x"))
    }

    @Test func xorTouchesOnlyTheBytesThereAre() throws {
        #expect(NetworkResumeInfo.xored(Data()) == Data())
        #expect(NetworkResumeInfo.xored(Data("bpl".utf8)) == Data([0x36, 0x15, 0x08]))
        let long = Data("bplist00XYZ".utf8)
        #expect(NetworkResumeInfo.xored(long) == Data([0x36, 0x15, 0x08, 0x25, 0x12, 0x07, 0x43, 0x5f]) + Data("XYZ".utf8))
        #expect(NetworkResumeInfo.xored(NetworkResumeInfo.xored(long)) == long)
        // Three XOR-ed bytes are recognised, and are a truncated property list.
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: Data([0x36, 0x15, 0x08])) }
        #expect(error.code == .unreadable)
    }

    @Test(arguments: [NetworkResumeLayout.nested, .flat])
    func everyPrefixIsACleanError(layout: NetworkResumeLayout) throws {
        let bare = try Self.blob(Self.rootObject(layout))
        let wrapped = try Self.wrapper(["data": .data(bare), "NSURLSessionResumeInfoLocalPath": "/tmp/x"])
        for data in [bare, wrapped] {
            for length in 0..<data.count {
                #expect(throws: ResumeDataError.self) { try ResumeData(data: data.prefix(length)) }
            }
        }
    }

    @Test func aRootOfAnotherClassIsAnError() throws {
        let archive = try KeyedArchive(encoding: .dictionary([.init(key: "a", value: .string("b"))]), topKey: "root").data()
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: Self.xor(archive)) }
        #expect(error.code == .invalidArchive)
        #expect(error.description == "$objects[1]: the root is an NSMutableDictionary, not an NWURLSessionDownloadResumeInfo")
    }

    @Test func aRequestThatIsNotAnObjectIsNamed() throws {
        var root = try Self.rootObject(.flat)
        root.fields[1].value = .reference(.string("GET /"))
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: Self.blob(root)) }
        #expect(error.description == "$objects[1].currentRequest: \"GET /\" is not an archived object")
    }

    @Test func aResponseOfAnotherClassIsNamed() throws {
        var root = try Self.rootObject(.flat)
        root.fields[2].value = .reference(.object(try Self.requestObject()))
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: Self.blob(root)) }
        #expect(error.description == "$objects[1].response: the object is an NSURLRequest, not an NSURLResponse")
    }

    @Test func aConsumerOfAnotherClassIsNamed() throws {
        var root = try Self.rootObject(.nested)
        let index = try #require(root.fields.firstIndex { $0.key == "responseConsumerResumeInfo" })
        root.fields[index].value = .reference(.object(ArchivedObject(className: "NSObject", classChain: ["NSObject"], fields: [])))
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: Self.blob(root)) }
        #expect(error.description == "$objects[1].responseConsumerResumeInfo: the consumer is an NSObject, not an NWURLSessionResponseConsumerResumeInfo")
    }

    @Test func aFileURLThatIsNotAFileIsKeptAsAnotherKey() throws {
        var root = try Self.rootObject(.flat)
        let index = try #require(root.fields.firstIndex { $0.key == "fileURL" })
        root.fields[index].value = .reference(.url(ArchivedURL(relativeString: "https://evil.example/x")))
        let resume = try ResumeData(data: Self.blob(root))
        #expect(resume.localPath == nil)
        #expect(resume.entries["fileURL"] == .string("https://evil.example/x"))
    }

    @Test func aClassicKeyInsideTheBlobIsRefused() throws {
        var root = try Self.rootObject(.flat)
        root.fields.append(Self.field("NSURLSessionResumeBytesReceived", .inline(999_999)))
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: Self.blob(root)) }
        #expect(error.code == .invalidArchive)
        #expect(error.description == "$objects[1].NSURLSessionResumeBytesReceived: a Network-framework blob has no key of this name: it would be read as the resume-dictionary key")
    }

    @Test func aFileLocationOnTheRootAndInTheConsumerIsRefused() throws {
        var root = try Self.rootObject(.nested)
        root.fields.append(Self.field("tempFileName", .reference(.string("other.tmp"))))
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: Self.blob(root)) }
        #expect(error.description == "$objects[1].tempFileName: tempFileName appears both on the root object and in responseConsumerResumeInfo")
    }

    /// Fuzz finding 6: a root key spelled like a flattened consumer key used to be written back
    /// into the consumer (or to overwrite the consumer's own key of that name).
    @Test(arguments: [NetworkResumeLayout.flat, .nested])
    func aRootKeyNamedLikeAConsumerKeyIsRefused(layout: NetworkResumeLayout) throws {
        var root = try Self.rootObject(layout)
        root.fields.append(Self.field("responseConsumerResumeInfo.Receive", .inline(7)))
        let error = try #require(throws: ResumeDataError.self) { try ResumeData(data: Self.blob(root)) }
        #expect(error.code == .invalidArchive)
        #expect(error.description == "$objects[1].responseConsumerResumeInfo.Receive: a root key named like the consumer's Receive, which this reader calls responseConsumerResumeInfo.Receive: the two would be confused")
    }

    @Test(arguments: ["currentRequest", "response", "responseConsumerResumeInfo", "responseConsumerResumeInfo.originalRequest"])
    func anOtherKeyNamedLikeTheFormatsOwnIsNotWritten(key: String) throws {
        var resume = try ResumeData(data: Self.blob(Self.rootObject(.flat)))
        resume.entries[key] = "x"
        let error = try #require(throws: ResumeDataError.self) { try resume.encoded() }
        #expect(error.code == .unencodable)
        let name = key.split(separator: ".").last.map(String.init) ?? key
        #expect(error.description == "cannot write as nwurlsession: \(key): the Network-framework format uses the name \(name) for its own \(name)")
    }

    // MARK: Classic containers and findings

    @Test(arguments: [ResumeDataContainer.xml, .binary, .keyedArchive, .keyedArchiveXML])
    func convertsToEveryClassicContainer(container: ResumeDataContainer) throws {
        let resume = try ResumeData(data: Self.blob(Self.rootObject(.nested)))
        let classic = try ResumeData(data: resume.encoded(as: container))
        #expect(classic.container == container)
        #expect(classic.networkLayout == nil)
        #expect(classic.entityTag == "\"nw-1\"")
        #expect(classic.serverDownloadDate == "Mon, 02 Nov 2026 10:00:00 GMT")
        #expect(classic.infoVersion == 4)
        #expect(classic.tempFileName == Self.tempName)
        #expect(classic.localPath == Self.filePath)
        #expect(classic.downloadURL == Self.url)
        #expect(classic.currentRequest == resume.currentRequest)
        #expect(classic.response == resume.response)
        #expect(classic.entries["taskDescription"] == .string("nightly build"))
    }

    @Test func findingsOfAGoodBlob() throws {
        let resume = try ResumeData(data: Self.blob(Self.rootObject(.flat)))
        #expect(ResumeDataValidator().findings(for: resume).isEmpty)
    }

    @Test func findingsWithoutFileOrValidator() throws {
        let resume = try ResumeData(data: Self.blob(Self.rootObject(.nested, location: false, response: false)))
        let findings = ResumeDataValidator().findings(for: resume)
        #expect(findings.map(\.code) == [.missingPartialFile, .missingValidator])
        #expect(findings.map(\.key) == ["NSURLSessionResumeInfoTempFileName", "NSURLSessionResumeResponse"])
    }

    @Test func findingsWithoutACurrentRequest() throws {
        var root = try Self.rootObject(.flat)
        root.fields.remove(at: 1)
        let resume = try ResumeData(data: Self.blob(root))
        #expect(resume.downloadURL == nil)
        #expect(resume.originalRequest?.urlString == Self.url)
        let findings = ResumeDataValidator().findings(for: resume)
        #expect(findings.map(\.code) == [.missingURL])
        #expect(findings.map(\.key) == ["NSURLSessionResumeCurrentRequest"])
    }

    @Test func writingAValidatorWithoutAResponseIsRefused() throws {
        var resume = try ResumeData(data: Self.blob(Self.rootObject(.flat, response: false)))
        resume.entityTag = "\"z\""
        let error = try #require(throws: ResumeDataError.self) { try resume.encoded() }
        #expect(error.code == .unencodable)
    }
}

/// The resolved tree behind `resumetool archive`, on hostile input.
@Suite struct KeyedArchiveTreeTests {
    @Test(arguments: ["response-2008-http-legacy.bplist", "response-2020-http-secure.bplist", "response-2023-file-secure.bplist",
                      "ios10.1-current-request.bplist"])
    func everyPrefixIsACleanError(name: String) throws {
        let bytes = try KeyedArchiveTestSupport.realFixture(name)
        _ = try KeyedArchiveTree(data: bytes)
        for length in 0..<bytes.count {
            #expect(throws: KeyedArchiveError.self) { try KeyedArchiveTree(data: bytes.prefix(length)) }
        }
    }

    @Test func eachObjectIsExpandedOnce() throws {
        let tree = try KeyedArchiveTree(data: KeyedArchiveTestSupport.realFixture("response-2020-http-secure.bplist"))
        var expanded: [UInt64] = []
        var seen = 0
        func walk(_ node: KeyedArchiveTree.Node) {
            switch node {
            case .object(let object):
                expanded.append(object.uid)
                object.entries?.forEach { walk($0.key); walk($0.value) }
                object.items?.forEach(walk)
                object.fields.forEach { walk($0.node) }
            case .array(let nodes): nodes.forEach(walk)
            case .seen: seen += 1
            default: break
            }
        }
        walk(tree.root)
        // The response, its URL and its header dictionary; item 6 shares the Content-Type string,
        // which is a value, not an object, so it is shown again rather than marked.
        #expect(expanded == [1, 2, 8])
        #expect(seen == 0)
    }
}

extension KeyedArchiveTreeTests {
    /// Each byte of a real response changed in turn: a tree or a clean error, never a trap.
    @Test func everyOneByteChangeIsATreeOrACleanError() throws {
        let bytes = try KeyedArchiveTestSupport.realFixture("response-2020-http-secure.bplist")
        var trees = 0
        for offset in bytes.indices {
            var mutated = bytes
            mutated[offset] ^= 0x20
            do {
                _ = try KeyedArchiveTree(data: mutated)
                trees += 1
            } catch is KeyedArchiveError {
                continue
            }
        }
        #expect(trees > bytes.count / 4)
    }
}
