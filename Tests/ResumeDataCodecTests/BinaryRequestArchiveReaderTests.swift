import Foundation
import Testing
@testable import ResumeDataCodec

/// The in-place request reader must give exactly what the full decoder gives, or nothing (then
/// the full decoder runs): these tests compare the two on real, generated and damaged archives.
@Suite struct BinaryRequestArchiveReaderTests {
    typealias Support = KeyedArchiveTestSupport

    /// The full decoder alone.
    static func full(_ data: Data) throws -> URLRequestArchive {
        try URLRequestArchive(archive: KeyedArchive(data: data))
    }

    static func fast(_ data: Data) -> URLRequestArchive? {
        BinaryRequestArchiveReader.request(from: data)
    }

    /// The property every input must have: the fast reader returns nothing, or what the full
    /// decoder returns (compared by value and by what it archives to, which keeps order); the
    /// public initializer succeeds or fails exactly as the full decoder does.
    static func checkAgreement(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = Result { try full(data) }
        let public_ = Result { try URLRequestArchive(archiveData: data) }
        switch (expected, public_) {
        case (.success(let a), .success(let b)):
            #expect(a == b, sourceLocation: sourceLocation)
            #expect((try? a.archiveData()) == (try? b.archiveData()), sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect("\(a)" == "\(b)", sourceLocation: sourceLocation)
        default:
            Issue.record("full decoder: \(expected), public initializer: \(public_)", sourceLocation: sourceLocation)
        }
        if let fast = fast(data) {
            guard case .success(let request) = expected else {
                Issue.record("the fast reader decoded what the full decoder refuses", sourceLocation: sourceLocation)
                return
            }
            #expect(fast == request, sourceLocation: sourceLocation)
            #expect(fast.items.map(\.description) == request.items.map(\.description), sourceLocation: sourceLocation)
            #expect(fast.namedFields.map(\.key) == request.namedFields.map(\.key), sourceLocation: sourceLocation)
        }
    }

    /// Replaces the first occurrence of `old` in `data` by `new` (same length).
    static func patch(_ data: Data, _ old: String, _ new: String) throws -> Data {
        let bytes = [UInt8](data)
        let target = Array(old.utf8)
        let replacement = Array(new.utf8)
        #expect(target.count == replacement.count)
        let start = try #require((0 ... bytes.count - target.count).first { Array(bytes[$0 ..< $0 + target.count]) == target })
        var patched = bytes
        patched.replaceSubrange(start ..< start + target.count, with: replacement)
        return Data(patched)
    }

    // MARK: What it reads

    @Test func theRealArchivesReadInPlaceWithTheirExactValues() throws {
        for name in [Support.currentRequestName, Support.originalRequestName] {
            let data = try Support.realFixture(name)
            let request = try #require(Self.fast(data), "\(name) should take the fast path")
            #expect(request == (try Self.full(data)))
            #expect(request.layout == .secure)
            #expect(request.topKey == "NSKeyedArchiveRootObjectKey")
            #expect(request.className == "NSURLRequest")
            #expect(request.classChain == ["NSURLRequest", "NSObject"])
            #expect(request.urlString == Support.realURL)
            #expect(request.method == "GET")
            #expect(request.timeoutInterval == 60)
            #expect(request.cachePolicy == 0)
            #expect(request.archiveVersion == 2)
            #expect(request.unconfirmedHeaderValue == 9)
            // 22 items in the current request, 16 in the original (as the NSLog text shows).
            #expect(request.itemCount == (name == Support.currentRequestName ? 22 : 16))
            #expect(request.items.count == Int(request.itemCount))
            #expect(request.namedFields == URLRequestArchiveTests.realNamedFields)
            Self.checkAgreement(data)
        }
        let current = try #require(Self.fast(Support.realFixture(Support.currentRequestName)))
        #expect(URLRequestArchiveTests.names(current.headers) == URLRequestArchiveTests.names(URLRequestArchiveTests.realHeaders))
    }

    @Test func builtRequestsInBothLayoutsReadInPlace() throws {
        let request = URLRequestArchive(
            url: URL(string: "https://example.com/a/b.zip?x=1")!, method: "GET",
            headers: [("Range", "bytes=10-"), ("User-Agent", "Agent/1.0 with a value longer than fifteen bytes")],
            timeoutInterval: 42.5, cachePolicy: 1, body: Data([1, 2, 3]))
        for layout in URLRequestArchive.Layout.allCases {
            for topKey in [nil, "root", "a top key of more than fifteen bytes"] {
                let data = try request.archiveData(layout: layout, topKey: topKey)
                let fast = try #require(Self.fast(data), "\(layout) \(topKey ?? "default")")
                #expect(fast.layout == layout)
                #expect(fast.topKey == topKey ?? layout.defaultTopKey)
                #expect(fast.urlString == "https://example.com/a/b.zip?x=1")
                #expect(fast.headerValue("range") == "bytes=10-")
                #expect(fast.timeoutInterval == 42.5)
                #expect(fast.cachePolicy == 1)
                #expect(fast.body == Data([1, 2, 3]))
                Self.checkAgreement(data)
            }
        }
    }

    @Test func aURLWithABaseReadsInPlace() throws {
        var request = URLRequestArchive(url: URL(string: "https://example.com/")!)
        request.items[URLRequestArchive.Item.url] = .reference(.url(ArchivedURL(relativeString: "file.zip", baseString: "https://example.com/dir/")))
        let data = try request.archiveData()
        let fast = try #require(Self.fast(data))
        #expect(fast.urlString == "https://example.com/dir/file.zip")
        Self.checkAgreement(data)
    }

    // MARK: What it leaves to the full decoder

    @Test func nonASCIIHeadersAreLeftToTheFullDecoder() throws {
        let request = URLRequestArchive(url: URL(string: "https://example.com/")!, headers: [("X-Name", "Zoë")])
        let data = try request.archiveData()
        #expect(Self.fast(data) == nil)
        #expect(try URLRequestArchive(archiveData: data).headerValue("x-name") == "Zoë")
        Self.checkAgreement(data)
    }

    @Test func xmlArchivesAreLeftToTheFullDecoder() throws {
        let request = URLRequestArchive(url: URL(string: "https://example.com/")!)
        let data = try request.keyedArchive().data(format: .xml)
        #expect(Self.fast(data) == nil)
        Self.checkAgreement(data)
    }

    @Test func aKeyGivenTwiceIsLeftToTheFullDecoder() throws {
        // Two item keys spelled alike: the full reader keeps the last value (and the item list
        // then stops early), the fast one must not guess.
        let data = try Self.patch(Support.realFixture(Support.currentRequestName),
                                  "__nsurlrequest_proto_prop_obj_17", "__nsurlrequest_proto_prop_obj_16")
        #expect(Self.fast(data) == nil)
        Self.checkAgreement(data)
    }

    @Test func damagedFramesAreLeftToTheFullDecoder() throws {
        let data = try Support.realFixture(Support.currentRequestName)
        for (old, new) in [("NSKeyedArchiver", "NSKeyedArchivex"), ("$objects", "$objectz"), ("$archiver", "$archivez"),
                           ("$version", "$versioz"), ("$class", "$clasz"), ("$classname", "$classnamz"),
                           ("NSURLRequest", "NSURLRequesz"), ("NS.relative", "NS.relativz"), ("$null", "$nulz")] {
            Self.checkAgreement(try Self.patch(data, old, new))
        }
    }

    // MARK: Hostile input

    @Test func everyTruncationFailsAsTheFullDecoderFails() throws {
        let data = try Support.realFixture(Support.currentRequestName)
        for length in 0 ..< data.count {
            let prefix = data.prefix(length)
            #expect(Self.fast(prefix) == nil)
            Self.checkAgreement(prefix)
        }
    }

    @Test func everyByteChangedAgreesWithTheFullDecoder() throws {
        // Offsets, markers, lengths, references, UIDs, counts and string bytes, each set to
        // values that break them in different ways.
        let data = try Support.realFixture(Support.currentRequestName)
        for position in 0 ..< data.count {
            for value: UInt8 in [0x00, 0x80, 0xFF, data[position] &+ 1] where value != data[position] {
                var damaged = data
                damaged[position] = value
                Self.checkAgreement(damaged)
            }
        }
    }

    static func rootObject(_ data: Data) throws -> [String: PropertyListValue] {
        let archive = try KeyedArchive(data: data)
        let root = try #require(archive.objects[Int(archive.rootUID)].dictionaryValue)
        return Dictionary(uniqueKeysWithValues: root.map { ($0.key, $0.value) })
    }

    /// The real current request with its objects changed, written again as a binary archive.
    static func rewritten(_ change: (inout [PropertyListValue], UInt64) throws -> Void) throws -> Data {
        let value = try PropertyListReader().read(Support.realFixture(Support.currentRequestName)).value
        var archive = try KeyedArchive(value)
        try change(&archive.objects, archive.rootUID)
        let top: PropertyListValue = .dictionary([
            "$version": .integer(archive.version), "$objects": .array(archive.objects),
            "$archiver": .string(archive.archiver), "$top": .dictionary([archive.topKey: .uid(archive.rootUID)]),
        ])
        return try PropertyListWriter().write(top, as: .binary)
    }

    static func setField(_ objects: inout [PropertyListValue], _ uid: UInt64, _ key: String, _ value: PropertyListValue) {
        guard case .dictionary(var dictionary) = objects[Int(uid)] else { return }
        dictionary[key] = value
        objects[Int(uid)] = .dictionary(dictionary)
    }

    @Test func anObjectContainingItselfIsACycleForBoth() throws {
        let data = try Self.rewritten { objects, root in
            Self.setField(&objects, root, "__nsurlrequest_proto_prop_obj_19", .uid(root))
        }
        #expect(Self.fast(data) == nil)
        #expect(throws: KeyedArchiveError.self) { try URLRequestArchive(archiveData: data) }
        Self.checkAgreement(data)
    }

    @Test func wrongTypesOutOfRangeUIDsAndAClassLoopAgree() throws {
        let changes: [(inout [PropertyListValue], UInt64) -> Void] = [
            { objects, root in Self.setField(&objects, root, "__nsurlrequest_proto_prop_obj_1", .uid(UInt64(objects.count))) },
            { objects, root in Self.setField(&objects, root, "__nsurlrequest_proto_prop_obj_1", .string("not a URL")) },
            { objects, root in Self.setField(&objects, root, "__nsurlrequest_proto_prop_obj_2", .array([.uid(1)])) },
            { objects, root in Self.setField(&objects, root, "__nsurlrequest_proto_prop_obj_3", .dictionary(["a": .uid(1)])) },
            { objects, root in Self.setField(&objects, root, "$class", .uid(root)) },
            { objects, root in Self.setField(&objects, root, "$class", .integer(3)) },
            { objects, root in Self.setField(&objects, root, "$0", .string("2")) },
            { objects, root in Self.setField(&objects, root, "__nsurlrequest_proto_prop_obj_18", .uid(0)) },
            { objects, _ in objects[0] = .string("$nul") },
        ]
        for change in changes {
            let data = try Self.rewritten { objects, root in change(&objects, root) }
            Self.checkAgreement(data)
        }
    }

    @Test func aHugeCountIsRefusedWithoutAllocating() throws {
        // An array and a dictionary each claiming 2^62 elements.
        for marker: UInt8 in [0xAF, 0xDF] {
            let data = BinaryPlistBuilder([[marker, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]]).data
            #expect(Self.fast(data) == nil)
            Self.checkAgreement(data)
        }
    }

    @Test func aPropertyListCycleIsLeftToTheFullDecoder() throws {
        // An array holding itself, under $objects.
        let data = BinaryPlistBuilder([[0xA1, 0]]).data
        #expect(Self.fast(data) == nil)
        Self.checkAgreement(data)
    }

    /// The real archive's property list written children first (every container refers back):
    /// a valid binary plist no Apple writer produces, which the full decoder reads and the fast
    /// reader leaves to it, since it only takes containers that refer forward.
    @Test func containersReferringBackAreLeftToTheFullDecoder() throws {
        let value = try PropertyListReader().read(Support.realFixture(Support.currentRequestName)).value
        var objects: [[UInt8]] = []
        func header(_ marker: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x11] + BinaryPlistBuilder.bigEndian(UInt64(count), size: 2)
        }
        func add(_ value: PropertyListValue) -> UInt8 {
            var bytes: [UInt8]
            switch value {
            case .string(let text): bytes = header(0x50, text.utf8.count) + Array(text.utf8)
            case .integer(let number): bytes = [0x13] + BinaryPlistBuilder.bigEndian(UInt64(bitPattern: number.int64Value ?? 0), size: 8)
            case .real(let real): bytes = [0x23] + BinaryPlistBuilder.bigEndian(real.value.bitPattern, size: 8)
            case .boolean(let flag): bytes = [flag ? 0x09 : 0x08]
            case .data(let data): bytes = header(0x40, data.count) + Array(data)
            case .uid(let uid): bytes = [0x80, UInt8(uid)]
            case .array(let elements): bytes = header(0xA0, elements.count) + elements.map(add)
            case .dictionary(let dictionary):
                let keys = dictionary.keys.map { add(.string($0)) }
                bytes = header(0xD0, dictionary.count) + keys + dictionary.values.map(add)
            case .date, .set, .null: bytes = [0x08]
            }
            objects.append(bytes)
            return UInt8(objects.count - 1)
        }
        let top = add(value)
        #expect(objects.count < 256)
        var builder = BinaryPlistBuilder(objects)
        builder.topObject = UInt64(top)
        let data = builder.data
        #expect(Self.fast(data) == nil)
        #expect(try URLRequestArchive(archiveData: data) == (try Self.full(Support.realFixture(Support.currentRequestName))))
        Self.checkAgreement(data)
    }

    @Test func deepNestingIsLeftToTheFullDecoder() throws {
        // Arrays nested 40 deep: within the full reader's limit, beyond the fast one's.
        var objects: [[UInt8]] = (0 ..< 40).map { [0xA1, UInt8($0 + 1)] }
        objects.append([0x08])
        let data = BinaryPlistBuilder(objects).data
        #expect(Self.fast(data) == nil)
        Self.checkAgreement(data)
    }
}
