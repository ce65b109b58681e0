import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct URLRequestArchiveTests {
    typealias Support = KeyedArchiveTestSupport

    /// The four header fields of the current request, as the NSLog text beside the fixtures shows
    /// them (hex of `NSURLSessionResumeCurrentRequest`), in archive order.
    static let realHeaders: [(name: String, value: String)] = [
        ("User-Agent", "DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0"),
        ("Accept", "*/*"),
        ("Accept-Language", "zh-cn"),
        ("Accept-Encoding", "gzip, deflate"),
    ]

    static let realNamedFields: [ArchivedObject.Field] = [
        .init(key: "startTimeoutTime", value: .inline(0.0)),
        .init(key: "requiresShortConnectionTimeout", value: .inline(false)),
        .init(key: "payloadTransmissionTimeout", value: .inline(0.0)),
        .init(key: "allowedProtocolTypes", value: .inline(0)),
    ]

    static func names(_ headers: [(name: String, value: String)]) -> [String] { headers.map { "\($0.name): \($0.value)" } }

    static func rootKeys(_ propertyList: PropertyListValue) throws -> [String] {
        let archive = try KeyedArchive(propertyList)
        return try #require(archive.objects[Int(archive.rootUID)].dictionaryValue).keys
    }

    // MARK: The real archives

    @Test func theFixtureBytesReadAsTheTranscribedPropertyLists() throws {
        let current = try PropertyListReader().read(Support.realFixture(Support.currentRequestName))
        #expect(current.format == .binary)
        #expect(current.value == Support.currentRequestPropertyList)
        #expect(try Self.rootKeys(current.value) == Self.rootKeys(Support.currentRequestPropertyList))
        let original = try PropertyListReader().read(Support.realFixture(Support.originalRequestName)).value
        #expect(original == Support.originalRequestPropertyList)
    }

    @Test func theCurrentRequestDecodesToTheLoggedValues() throws {
        let request = try URLRequestArchive(archiveData: Support.realFixture(Support.currentRequestName))
        #expect(request.layout == .secure)
        #expect(request.topKey == "NSKeyedArchiveRootObjectKey")
        #expect(request.className == "NSURLRequest")
        #expect(request.classChain == ["NSURLRequest", "NSObject"])
        #expect(request.urlString == Support.realURL)
        #expect(request.url == URL(string: Support.realURL))
        #expect(request.httpMethod == "GET")
        #expect(request.method == "GET")
        #expect(Self.names(request.headers) == Self.names(Self.realHeaders))
        #expect(request.headerValue("user-agent") == "DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0")
        #expect(request.headerValue("Accept") == "*/*")
        #expect(request.headerValue("Accept-Language") == "zh-cn")
        #expect(request.headerValue("Accept-Encoding") == "gzip, deflate")
        #expect(request.headerValue("Range") == nil)
        #expect(request.hiddenHeaderArchive == nil)
        #expect(request.timeoutInterval == 60)
        #expect(request.cachePolicy == 0)
        #expect(request.body == nil)
        #expect(request.mainDocumentURLString == nil)
        #expect(request.mainDocumentURL == nil)
        #expect(request.isMutable == false)
        #expect([request.archiveVersion, request.unconfirmedHeaderValue, request.itemCount] == [2, 9, 22])
        #expect(request.items.count == 22)
        #expect(request.protocolProperties == .reference(.null))
        #expect(request.namedFields == Self.realNamedFields)
        let unconfirmed = request.unconfirmedItems
        #expect(unconfirmed.map(\.index) == Array(5...17) + [21])
        #expect(unconfirmed.map(\.value) == [
            .reference(.boolean(true)), .reference(.integer(4)), .reference(.null), .reference(.null),
            .reference(.boolean(true)), .reference(.boolean(false)), .reference(.integer(0)), .reference(.real(0.0)),
            .reference(.real(0.0)), .reference(.integer(0)), .reference(.integer(-1)), .reference(.null),
            .reference(.integer(2)), .reference(.null),
        ])
    }

    @Test func theOriginalRequestDecodesToTheLoggedValues() throws {
        let request = try URLRequestArchive(archiveData: Support.realFixture(Support.originalRequestName))
        #expect(request.layout == .secure)
        #expect(request.urlString == Support.realURL)
        #expect(request.httpMethod == nil)
        #expect(request.method == "GET")
        #expect(request.headers.isEmpty)
        #expect(request.timeoutInterval == 60)
        #expect(request.cachePolicy == 0)
        #expect(request.body == nil)
        #expect([request.archiveVersion, request.unconfirmedHeaderValue, request.itemCount] == [2, 9, 16])
        #expect(request.items.count == 16)
        #expect(request.items[6] == .reference(.integer(0)))
        #expect(request.unconfirmedItems.map(\.index) == Array(5...15))
        #expect(request.namedFields == Self.realNamedFields)
    }

    @Test(arguments: [KeyedArchiveTestSupport.currentRequestName, KeyedArchiveTestSupport.originalRequestName])
    func everyPrefixFailsCleanly(name: String) throws {
        let data = try Support.realFixture(name)
        for length in 0..<data.count {
            #expect(throws: KeyedArchiveError.self) { try URLRequestArchive(archiveData: data.prefix(length)) }
        }
    }

    /// Every byte of the current request replaced by 0xff, then with its low bit flipped: each
    /// result decodes or fails with a ``KeyedArchiveError``; the mend likewise. None may crash.
    @Test func everySingleByteCorruptionDecodesOrFailsCleanly() throws {
        let data = try Support.realFixture(Support.currentRequestName)
        var outcomes = (decoded: 0, refused: 0)
        for offset in data.indices {
            for replacement: UInt8 in [0xff, data[offset] ^ 0x01] where replacement != data[offset] {
                var corrupt = data
                corrupt[offset] = replacement
                do {
                    _ = try URLRequestArchive(archiveData: corrupt)
                    _ = try URLRequestArchive.convertLayout(of: corrupt, to: .legacy)
                    outcomes.decoded += 1
                } catch is KeyedArchiveError {
                    outcomes.refused += 1
                }
            }
        }
        #expect(outcomes.decoded > 0)
        #expect(outcomes.refused > 0)
    }

    // MARK: Re-encoding

    @Test func reEncodingARealArchiveRebuildsApplesObjectsExactly() throws {
        for propertyList in [Support.currentRequestPropertyList, Support.originalRequestPropertyList] {
            let original = try KeyedArchive(propertyList)
            let request = try URLRequestArchive(archive: original)
            let encoded = try request.keyedArchive()
            #expect(encoded.objects == original.objects)
            #expect(encoded.topKey == original.topKey)
            #expect(encoded.propertyList == propertyList)
        }
    }

    @Test(arguments: [KeyedArchiveTestSupport.currentRequestName, KeyedArchiveTestSupport.originalRequestName])
    func decodeEncodeDecodeKeepsEverything(name: String) throws {
        let request = try URLRequestArchive(archiveData: Support.realFixture(name))
        for layout in URLRequestArchive.Layout.allCases {
            let reread = try URLRequestArchive(archiveData: request.archiveData(layout: layout, topKey: request.topKey))
            var expected = request
            expected.layout = layout
            #expect(reread == expected)
            #expect(reread.items == request.items)
            #expect(reread.namedFields == request.namedFields)
        }
        let asRead = try URLRequestArchive(archiveData: request.archiveData())
        #expect(asRead == request)
    }

    @Test func changingLayoutPicksThatLayoutsTopKeyUnlessGivenOne() throws {
        let request = try URLRequestArchive(archive: KeyedArchive(Support.currentRequestPropertyList))
        #expect(try request.keyedArchive(layout: .legacy).topKey == "root")
        #expect(try request.keyedArchive(layout: .secure).topKey == "NSKeyedArchiveRootObjectKey")
        #expect(try request.keyedArchive(layout: .legacy, topKey: "other").topKey == "other")
        var legacy = request
        legacy.layout = .legacy
        legacy.topKey = "root"
        #expect(try legacy.keyedArchive(layout: .secure).topKey == "NSKeyedArchiveRootObjectKey")
        #expect(try legacy.keyedArchive().topKey == "root")
    }

    // MARK: The iOS 10.0/10.1 mend

    @Test func theMendMovesItemsToTheLegacyLayout() throws {
        let mended = try #require(try URLRequestArchive.convertLayout(of: Support.currentRequestPropertyList, to: .legacy))
        let archive = try KeyedArchive(mended)
        #expect(archive.topKey == "root")
        let original = try KeyedArchive(Support.currentRequestPropertyList)
        // Only the request object changed; keys kept their positions, renamed in place.
        #expect(Array(archive.objects.dropFirst(2)) == Array(original.objects.dropFirst(2)))
        let expectedKeys = try Self.rootKeys(Support.currentRequestPropertyList).map { key -> String in
            if key == "__nsurlrequest_proto_props" { return "$25" }
            if key.hasPrefix("__nsurlrequest_proto_prop_obj_"), let index = Int(key.dropFirst(30)) { return "$\(index + 3)" }
            return key
        }
        #expect(try Self.rootKeys(mended) == expectedKeys)
        #expect(Set(expectedKeys).isSuperset(of: (0...25).map { "$\($0)" } + Self.realNamedFields.map(\.key)))

        let request = try URLRequestArchive(archive: archive)
        #expect(request.layout == .legacy)
        #expect(request.topKey == "root")
        #expect(request.urlString == Support.realURL)
        #expect(request.method == "GET")
        #expect(Self.names(request.headers) == Self.names(Self.realHeaders))
        #expect(request.timeoutInterval == 60)
        #expect(request.cachePolicy == 0)
        #expect(request.namedFields == Self.realNamedFields)
        let secure = try URLRequestArchive(archive: original)
        #expect(request.items == secure.items)
        #expect(request.protocolProperties == secure.protocolProperties)
        // Our encoder, asked for the legacy layout, writes the same keys and objects as the mend.
        #expect(try request.keyedArchive().propertyList == mended)
    }

    @Test(arguments: [KeyedArchiveTestSupport.currentRequestName, KeyedArchiveTestSupport.originalRequestName])
    func theMendOnBytesIsIdempotentAndReversible(name: String) throws {
        let data = try Support.realFixture(name)
        let mended = try URLRequestArchive.convertLayout(of: data, to: .legacy)
        #expect(mended != data)
        #expect(try URLRequestArchive.convertLayout(of: mended, to: .legacy) == mended)
        #expect(try URLRequestArchive.convertLayout(of: data, to: .secure) == data)
        let legacy = try URLRequestArchive(archiveData: mended)
        let secure = try URLRequestArchive(archiveData: data)
        #expect(legacy.layout == .legacy)
        #expect(legacy.topKey == "root")
        #expect(legacy.items == secure.items)
        #expect(legacy.namedFields == secure.namedFields)

        let restored = try URLRequestArchive.convertLayout(of: mended, to: .secure)
        let restoredValue = try PropertyListReader().read(restored).value
        let originalValue = try PropertyListReader().read(data).value
        #expect(restoredValue == originalValue)
        #expect(try Self.rootKeys(restoredValue) == Self.rootKeys(originalValue))
        #expect(try URLRequestArchive(archiveData: restored) == secure)
    }

    static let conversionErrors: [(PropertyListValue, URLRequestArchive.Layout, KeyedArchiveError.Code, String)] = [
        (Support.archive(["$null", .dictionary(["NS.objects": [], "$class": .uid(2)]), Support.classDescription("NSArray", "NSObject")]),
         .legacy, .unexpectedClass, "$objects[1]: the root is an NSArray, not an NSURLRequest"),
        (Support.archive(["$null", .dictionary(["$0": 2, "$1": 9, "$3": .uid(0), "$class": .uid(2)]), Support.classDescription("NSURLRequest", "NSObject")]),
         .secure, .missingKey, "$objects[1]: a legacy request needs its item count in $2"),
        (Support.archive(["$null", .dictionary(["$0": 2, "$1": 9, "$2": 2, "$3": .uid(0), "$class": .uid(2)]), Support.classDescription("NSURLRequest", "NSObject")]),
         .secure, .missingKey, "$objects[1]: $2 announces 2 items but $4 (item 1) is missing"),
        (Support.archive(["$null", .dictionary(["$0": 2, "$1": 9, "$2": 2, "$4": 1, "__nsurlrequest_proto_prop_obj_0": .uid(0), "__nsurlrequest_proto_prop_obj_1": .uid(0), "$class": .uid(2)]), Support.classDescription("NSURLRequest", "NSObject")]),
         .legacy, .keyConflict, "$objects[1]: moving an item to $4 would overwrite the key already there"),
    ]

    @Test(arguments: conversionErrors)
    func conversionRefusesWhatItCannotMove(value: PropertyListValue, layout: URLRequestArchive.Layout, code: KeyedArchiveError.Code, description: String) {
        #expect {
            try URLRequestArchive.convertLayout(of: value, to: layout)
        } throws: { error in
            guard let error = error as? KeyedArchiveError else { return false }
            return error.code == code && error.description == description
        }
    }

    // MARK: Built from scratch

    @Test func aRequestBuiltLikeTheRealOneEncodesToApplesObjects() throws {
        let request = URLRequestArchive(url: try #require(URL(string: Support.realURL)), headers: Self.realHeaders)
        let real = try KeyedArchive(Support.currentRequestPropertyList)
        let encoded = try request.keyedArchive()
        #expect(encoded.objects == real.objects)
        #expect(encoded.topKey == real.topKey)
        #expect(try Self.rootKeys(encoded.propertyList).sorted() == Self.rootKeys(Support.currentRequestPropertyList).sorted())
        #expect(try URLRequestArchive(archive: real) == request)
    }

    @Test func aRequestBuiltFromScratchDecodesBack() throws {
        let body = Data("a=1".utf8)
        let request = URLRequestArchive(
            url: try #require(URL(string: "https://example.com/file.zip")),
            method: "POST",
            headers: [("Range", "bytes=100-"), ("X-A", "1"), ("X-A", "2")],
            timeoutInterval: 30.5,
            cachePolicy: 1,
            body: body
        )
        #expect(Self.names(request.headers) == ["Range: bytes=100-", "X-A: 2"])
        let data = try request.archiveData()
        let reread = try URLRequestArchive(archiveData: data)
        #expect(reread == request)
        #expect(reread.urlString == "https://example.com/file.zip")
        #expect(reread.method == "POST")
        #expect(reread.timeoutInterval == 30.5)
        #expect(reread.cachePolicy == 1)
        #expect(reread.body == body)
        #expect(reread.items.count == 22)
        #expect(reread.unconfirmedItems.map(\.value) == (try URLRequestArchive(archive: KeyedArchive(Support.currentRequestPropertyList))).unconfirmedItems.map(\.value))
        let classNames = Set(try KeyedArchive(data: data).objects.compactMap { $0.dictionaryValue?["$classname"]?.stringValue })
        #expect(classNames == ["NSURLRequest", "NSURL", "NSMutableDictionary"])
        #expect(try URLRequestArchive(archiveData: URLRequestArchive.convertLayout(of: data, to: .legacy)).body == body)
    }

    @Test func settingKnownItemsKeepsTheRest() throws {
        var request = try URLRequestArchive(archive: KeyedArchive(Support.originalRequestPropertyList))
        request.headers = [("Range", "bytes=2339054-")]
        request.httpMethod = "GET"
        request.body = Data([1])
        request.timeoutInterval = 120
        request.cachePolicy = 1
        request.urlString = "http://example.com/x"
        request.mainDocumentURLString = "http://example.com/"
        #expect(request.items.count == 21)
        #expect(request.itemCount == 21)
        let reread = try URLRequestArchive(archiveData: request.archiveData())
        #expect(reread == request)
        #expect(Self.names(reread.headers) == ["Range: bytes=2339054-"])
        #expect(reread.body == Data([1]))
        #expect(reread.timeoutInterval == 120)
        #expect(reread.cachePolicy == 1)
        #expect(reread.mainDocumentURL == URL(string: "http://example.com/"))
        #expect(reread.urlString == "http://example.com/x")
        request.headers = []
        request.body = nil
        request.timeoutInterval = nil
        request.cachePolicy = nil
        request.httpMethod = nil
        request.urlString = nil
        #expect(request.items[19] == .reference(.null))
        #expect(request.urlString == nil)
        #expect(request.timeoutInterval == nil)
    }

    @Test func theHiddenHeaderEntryIsKeptButNotListed() throws {
        var request = URLRequestArchive(url: try #require(URL(string: "http://a.test/")), headers: [("Accept", "*/*")])
        request.items[19] = .reference(.dictionary([
            .init(key: "__hhaa__", value: .string("YnBsaXN0")),
            .init(key: "Accept", value: .string("*/*")),
        ]))
        #expect(Self.names(request.headers) == ["Accept: */*"])
        #expect(request.hiddenHeaderArchive == "YnBsaXN0")
        request.headers = [("Range", "bytes=1-"), ("__hhaa__", "ignored")]
        #expect(Self.names(request.headers) == ["Range: bytes=1-"])
        #expect(request.items[19].value?.dictionaryEntries?.map(\.key) == ["Range", "__hhaa__"])
        #expect(request.hiddenHeaderArchive == "YnBsaXN0")
        let reread = try URLRequestArchive(archiveData: request.archiveData())
        #expect(reread.hiddenHeaderArchive == "YnBsaXN0")
    }

    // MARK: Errors

    static func request(_ fields: PropertyListDictionary, extra: [PropertyListValue] = []) -> PropertyListValue {
        var object = fields
        object["$class"] = .uid(2)
        return Support.archive(["$null", .dictionary(object), Support.classDescription("NSMutableURLRequest", "NSURLRequest", "NSObject")] + extra)
    }

    static let decodingErrors: [(PropertyListValue, KeyedArchiveError.Code, String)] = [
        (Support.archive(["$null", .dictionary(["NS.objects": [], "$class": .uid(2)]), Support.classDescription("NSArray", "NSObject")]),
         .unexpectedClass, "$objects[1]: the root is an NSArray, not an NSURLRequest"),
        (Support.archive(["$null", "text"]), .unexpectedType, "$objects[1]: \"text\" is not an object dictionary"),
        (request(["$0": 2, "$1": 9]), .missingKey, "$objects[1]: no $2"),
        (request(["$0": 2, "$1": .uid(0), "$2": 0]), .unexpectedType, "$objects[1].$1: nil is not an inline integer"),
        (request(["$0": 2, "$1": 9, "$2": -1]), .unexpectedType, "$objects[1].$2: item count -1 is negative"),
        (request(["$0": 2, "$1": 9, "$2": 3, "$3": .uid(3), "$4": .uid(0)], extra: [true]),
         .missingKey, "$objects[1]: $2 announces 3 items but $5 (item 2) is missing"),
        (request(["$0": 2, "$1": 9, "$2": 2, "__nsurlrequest_proto_prop_obj_0": .uid(3), "__nsurlrequest_proto_prop_obj_1": .uid(3)], extra: ["http://x"]),
         .unexpectedType, "$objects[1].__nsurlrequest_proto_prop_obj_0: item 0 is \"http://x\", not a boolean"),
        (request(["$0": 2, "$1": 9, "$2": 2, "$3": .uid(3), "$4": .uid(4)], extra: [true, "http://x"]),
         .unexpectedType, "$objects[1].$4: item 1 is \"http://x\", not an NSURL or nil"),
        (request(["$0": 2, "$1": 9, "$2": 3, "$3": .uid(3), "$4": .uid(0), "$5": .uid(0)], extra: [true]),
         .unexpectedType, "$objects[1].$5: item 2 is nil, not a number"),
        (request(["$0": 2, "$1": 9, "$2": 1, "$3": [.uid(3)]], extra: [true]),
         .unexpectedType, "$objects[1].$3: item 0 is (true), not a boolean"),
        (request(["$0": 2, "$1": 9, "$2": 1, "$3": .set([1])]),
         .unexpectedType, "$objects[1].$3: item 0 is inline set, not a single value"),
    ]

    @Test(arguments: decodingErrors)
    func rejectsAMalformedRequestNamingTheKey(value: PropertyListValue, code: KeyedArchiveError.Code, description: String) {
        #expect {
            try URLRequestArchive(archive: KeyedArchive(value))
        } throws: { error in
            guard let error = error as? KeyedArchiveError else { return false }
            return error.code == code && error.description == description
        }
    }

    @Test func headerValuesMustBeStringsExceptTheHiddenEntry() throws {
        var request = URLRequestArchive(url: try #require(URL(string: "http://a.test/")))
        request.items[19] = .reference(.dictionary([.init(key: "X", value: .integer(1))]))
        let archive = try request.keyedArchive()
        #expect {
            try URLRequestArchive(archive: archive)
        } throws: { error in
            (error as? KeyedArchiveError)?.description
                == "$objects[1].__nsurlrequest_proto_prop_obj_19: item 19 is {X = 1}, not a dictionary of strings or nil"
        }
        request.items[19] = .reference(.dictionary([.init(key: "__hhaa__", value: .data(Data([1])))]))
        let hidden = try URLRequestArchive(archive: request.keyedArchive())
        #expect(hidden.headers.isEmpty)
        #expect(hidden.hiddenHeaderArchive == nil)
        #expect(hidden.items[19] == request.items[19])
    }

    @Test func legacyRequestsTakeTheItemCountFromTheHeader() throws {
        let value = Self.request(["$0": 2, "$1": 9, "$2": 1, "$3": .uid(3), "$4": .uid(0), "$5": "extra", "note": 1], extra: [true])
        let request = try URLRequestArchive(archive: KeyedArchive(value))
        #expect(request.layout == .legacy)
        #expect(request.isMutable)
        #expect(request.className == "NSMutableURLRequest")
        #expect(request.items == [.reference(.boolean(true))])
        #expect(request.protocolProperties == .reference(.null))
        #expect(request.namedFields == [.init(key: "$5", value: .inline("extra")), .init(key: "note", value: .inline(1))])
        #expect(request.urlString == nil)
        #expect(request.method == "GET")
        #expect(try URLRequestArchive(archive: request.keyedArchive()) == request)
    }

    @Test func encodingRefusesNamedKeysThatCollideWithItemKeys() throws {
        let value = Self.request(["$0": 2, "$1": 9, "$2": 1, "__nsurlrequest_proto_prop_obj_0": .uid(3), "$3": "named"], extra: [true])
        let request = try URLRequestArchive(archive: KeyedArchive(value))
        #expect(request.namedFields == [.init(key: "$3", value: .inline("named"))])
        #expect(throws: Never.self) { try request.keyedArchive(layout: .secure) }
        #expect {
            try request.keyedArchive(layout: .legacy)
        } throws: { error in
            (error as? KeyedArchiveError)?.description == "$3: named key $3 collides with a legacy-layout key"
        }
    }

    // MARK: Cross-check

    /// Python's plistlib, an independent reader, sees our archive of a request built from scratch
    /// exactly as it sees Apple's archive of the same request.
    @Test func pythonSeesOurArchiveAsApples() throws {
        let request = URLRequestArchive(url: try #require(URL(string: Support.realURL)), headers: Self.realHeaders)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ours = directory.appendingPathComponent("ours.bplist")
        try request.archiveData().write(to: ours)
        let apples = try #require(Bundle.module.url(forResource: "Fixtures/real/\(Support.currentRequestName)", withExtension: nil))
        let script = """
            import plistlib, sys
            a, b = (plistlib.load(open(path, 'rb')) for path in sys.argv[1:3])
            print(a == b, a['$objects'][4], len(a['$objects']))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, ours.path, apples.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text == "True \(Support.realURL) 25\n")
    }
}
