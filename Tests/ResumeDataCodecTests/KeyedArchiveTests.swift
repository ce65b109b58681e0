import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct KeyedArchiveTests {
    typealias Support = KeyedArchiveTestSupport

    // MARK: Frame

    @Test func readsTheFrameOfARealArchive() throws {
        let archive = try KeyedArchive(Support.currentRequestPropertyList)
        #expect(archive.archiver == "NSKeyedArchiver")
        #expect(archive.version == 100_000)
        #expect(archive.topKey == "NSKeyedArchiveRootObjectKey")
        #expect(archive.rootUID == 1)
        #expect(archive.objects.count == 25)
        let request = try archive.objectClass(at: 1)
        #expect(request.name == "NSURLRequest")
        #expect(request.chain == ["NSURLRequest", "NSObject"])
        let headers = try archive.objectClass(at: 14)
        #expect(headers.name == "NSMutableDictionary")
        #expect(headers.chain == ["NSMutableDictionary", "NSDictionary", "NSObject"])
    }

    @Test(arguments: ["root", "NSKeyedArchiveRootObjectKey", "anything"])
    func acceptsAnySingleTopKey(topKey: String) throws {
        let archive = try KeyedArchive(Support.archive(["$null", "text"], topKey: topKey))
        #expect(archive.topKey == topKey)
        #expect(try archive.decodeRoot() == .string("text"))
    }

    @Test func followsTheTopUIDInsteadOfAssumingIndexOne() throws {
        let archive = try KeyedArchive(Support.archive(["$null", "first", "second"], root: 2))
        #expect(try archive.decodeRoot() == .string("second"))
    }

    static let frameErrors: [(PropertyListValue, KeyedArchiveError.Code, String)] = [
        (.array([]), .notAnArchive, "the property list is a array, not a dictionary"),
        (.dictionary(["$top": .dictionary([:])]), .notAnArchive, "no $archiver key: not a keyed archive"),
        (.dictionary(["$archiver": "NSArchiver"]), .notAnArchive, "$archiver: $archiver is \"NSArchiver\", not \"NSKeyedArchiver\""),
        (.dictionary(["$archiver": "NSKeyedArchiver", "$version": "1"]), .notAnArchive, "$version: $version is \"1\", not an integer"),
        (.dictionary(["$archiver": "NSKeyedArchiver", "$version": 100000]), .invalidTop, "$top: $top is missing, not a dictionary"),
        (.dictionary(["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": .dictionary(["a": .uid(1), "b": .uid(1)])]),
         .invalidTop, "$top: $top has 2 keys, expected one"),
        (.dictionary(["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": .dictionary(["root": .uid(1)])]),
         .invalidObjects, "$objects: $objects is missing, not an array"),
        (Support.archive([]), .invalidObjects, "$objects[0]: $objects[0] is missing, not \"$null\""),
        (Support.archive(["null", "x"]), .invalidObjects, "$objects[0]: $objects[0] is \"null\", not \"$null\""),
        (.dictionary(["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": .dictionary(["root": 1]), "$objects": ["$null", "x"]]),
         .invalidTop, "$top.root: the root is integer 1, not a UID"),
        (Support.archive(["$null", "x"], root: 7), .uidOutOfRange, "$top.NSKeyedArchiveRootObjectKey: UID 7 out of range (2 objects)"),
        (Support.archive(["$null", "x"], root: 0), .nullRoot, "$top.NSKeyedArchiveRootObjectKey: the root object is $null"),
    ]

    @Test(arguments: frameErrors)
    func rejectsABadFrame(value: PropertyListValue, code: KeyedArchiveError.Code, description: String) {
        #expect {
            try KeyedArchive(value)
        } throws: { error in
            guard let error = error as? KeyedArchiveError else { return false }
            return error.code == code && error.description == description
        }
    }

    @Test func refusesAMillionObjectsBeforeLookingAtThem() {
        let objects = [PropertyListValue](repeating: .integer(1), count: 1_000_000)
        #expect {
            try KeyedArchive(Support.archive(objects))
        } throws: { error in
            (error as? KeyedArchiveError)?.description == "$objects: 1000000 objects, more than the limit of 100000"
        }
        let relaxed = KeyedArchiveOptions(maximumObjectCount: 2_000_000)
        #expect(throws: KeyedArchiveError(.invalidObjects, "")) { try KeyedArchive(Support.archive(objects), options: relaxed) }
    }

    @Test func refusesAMillionObjectsReadFromBytes() throws {
        // The binary writer shares the equal integers, so a million objects fit in a few megabytes.
        let objects = ["$null"] + [PropertyListValue](repeating: .integer(1), count: 999_999)
        let data = try PropertyListWriter().write(Support.archive(objects), as: .binary)
        #expect {
            try KeyedArchive(data: data)
        } throws: { error in
            (error as? KeyedArchiveError)?.description == "$objects: 1000000 objects, more than the limit of 100000"
        }
    }

    @Test func wrapsPropertyListErrorsKeepingTheirText() {
        #expect {
            try KeyedArchive(data: Data("not a plist".utf8))
        } throws: { error in
            guard let error = error as? KeyedArchiveError, let underlying = error.underlying else { return false }
            return error.code == .propertyList && error.description == underlying.description && error.keyPath == nil
        }
    }

    // MARK: Typed decoding

    /// One object of every class resume data uses, in a dictionary.
    static let everyClass: [PropertyListValue] = [
        "$null",
        .dictionary(["NS.keys": .array((2...13).map { .uid($0) }), "NS.objects": .array((14...25).map { .uid($0) }), "$class": .uid(26)]),
        "inline", "nsstring", "bytes", "data", "mutabledata", "url", "date", "array", "int", "real", "bool", "custom",
        "plain",  // 14
        .dictionary(["NS.string": "from NS.string", "$class": .uid(27)]),  // 15
        .dictionary(["NS.bytes": .data(Data("from NS.bytes".utf8)), "$class": .uid(28)]),  // 16
        .dictionary(["NS.data": .data(Data([1, 2])), "$class": .uid(29)]),  // 17
        .dictionary(["NS.bytes": .data(Data([3])), "$class": .uid(30)]),  // 18
        .dictionary(["NS.base": .uid(31), "NS.relative": .uid(32), "$class": .uid(33)]),  // 19
        .dictionary(["NS.time": 3600.5, "$class": .uid(34)]),  // 20
        .dictionary(["NS.objects": [.uid(14), .uid(0), .uid(21 + 1)], "$class": .uid(35)]),  // 21
        42,  // 22
        1.5,  // 23
        true,  // 24
        .dictionary(["count": 7, "name": .uid(14), "list": [.uid(22), .uid(0)], "$class": .uid(36)]),  // 25
        Support.classDescription("NSMutableDictionary", "NSDictionary", "NSObject"),  // 26
        Support.classDescription("NSString", "NSObject"),  // 27
        Support.classDescription("NSMutableString", "NSString", "NSObject"),  // 28
        Support.classDescription("NSData", "NSObject"),  // 29
        Support.classDescription("NSMutableData", "NSData", "NSObject"),  // 30
        .dictionary(["NS.base": .uid(0), "NS.relative": .uid(37), "$class": .uid(33)]),  // 31
        "sub/file.dmg",  // 32
        Support.classDescription("NSURL", "NSObject"),  // 33
        Support.classDescription("NSDate", "NSObject"),  // 34
        Support.classDescription("NSArray", "NSObject"),  // 35
        Support.classDescription("MyThing", "MyBase", "NSObject"),  // 36
        "http://example.com/dir/",  // 37
    ]

    @Test func decodesEveryClassResumeDataUses() throws {
        let value = try KeyedArchive(Support.archive(Self.everyClass)).decodeRoot()
        let custom = ArchivedObject(className: "MyThing", classChain: ["MyThing", "MyBase", "NSObject"], fields: [
            .init(key: "count", value: .inline(7)),
            .init(key: "name", value: .reference(.string("plain"))),
            .init(key: "list", value: .array([.reference(.integer(42)), .reference(.null)])),
        ])
        let expected: ArchivedValue = .dictionary([
            .init(key: "inline", value: .string("plain")),
            .init(key: "nsstring", value: .string("from NS.string")),
            .init(key: "bytes", value: .string("from NS.bytes")),
            .init(key: "data", value: .data(Data([1, 2]))),
            .init(key: "mutabledata", value: .data(Data([3]))),
            .init(key: "url", value: .url(ArchivedURL(relativeString: "sub/file.dmg", baseString: "http://example.com/dir/"))),
            .init(key: "date", value: .date(Date(timeIntervalSinceReferenceDate: 3600.5))),
            .init(key: "array", value: .array([.string("plain"), .null, .integer(42)])),
            .init(key: "int", value: .integer(42)),
            .init(key: "real", value: .real(1.5)),
            .init(key: "bool", value: .boolean(true)),
            .init(key: "custom", value: .object(custom)),
        ])
        #expect(value == expected)
        guard case .dictionary(let entries) = value, case .url(let url) = entries[5].value else {
            Issue.record("expected a URL")
            return
        }
        #expect(url.absoluteString == "http://example.com/dir/sub/file.dmg")
        #expect(custom["list"] == .array([.reference(.integer(42)), .reference(.null)]))
        #expect(custom["missing"] == nil)
    }

    @Test func resolvesURLsAgainstTheirBase() {
        #expect(ArchivedURL(relativeString: "http://a.test/x").absoluteString == "http://a.test/x")
        #expect(ArchivedURL(relativeString: "../y?q=1", baseString: "http://a.test/d/e/").absoluteString == "http://a.test/d/y?q=1")
        #expect(ArchivedURL(relativeString: "x", baseString: "http://a.test/d/").url == URL(string: "http://a.test/d/x"))
    }

    // MARK: Malformed objects

    static let nsArray = Support.classDescription("NSArray", "NSObject")
    static let nsDictionary = Support.classDescription("NSDictionary", "NSObject")

    static let objectErrors: [([PropertyListValue], KeyedArchiveError.Code, String)] = [
        // UID out of range inside NS.keys.
        (["$null", .dictionary(["NS.keys": [.uid(3), .uid(40)], "NS.objects": [.uid(3), .uid(3)], "$class": .uid(2)]), nsDictionary, "k"],
         .uidOutOfRange, "$objects[1].NS.keys[1]: UID 40 out of range (4 objects)"),
        // An array that contains itself.
        (["$null", .dictionary(["NS.objects": [.uid(1)], "$class": .uid(2)]), nsArray],
         .cycle, "$objects[1].NS.objects[0]: UID 1 refers back to $objects[1], which contains it (cycle)"),
        // Two objects that contain each other.
        (["$null", .dictionary(["NS.objects": [.uid(3)], "$class": .uid(2)]), nsArray, .dictionary(["NS.objects": [.uid(0), .uid(1)], "$class": .uid(2)])],
         .cycle, "$objects[3].NS.objects[1]: UID 1 refers back to $objects[1], which contains it (cycle)"),
        // No $class.
        (["$null", .dictionary(["NS.objects": [.uid(2)], "$class": .uid(3)]), .dictionary(["NS.objects": []]), nsArray],
         .missingClass, "$objects[2]: object has no $class"),
        // NS.keys and NS.objects of different lengths.
        (["$null", .dictionary(["NS.keys": [.uid(3), .uid(3)], "NS.objects": [.uid(3)], "$class": .uid(2)]), nsDictionary, "k"],
         .lengthMismatch, "$objects[1]: NS.keys has 2 entries but NS.objects has 1"),
        // A class chain that names a class twice.
        (["$null", .dictionary(["$class": .uid(2)]), Support.classDescription("A", "B", "A", "NSObject")],
         .classChainLoop, "$objects[2].$classes[2]: class chain names A twice: A → B → A → NSObject"),
        // An object that is its own class.
        (["$null", .dictionary(["$class": .uid(1)])],
         .classChainLoop, "$objects[1].$class: the class of $objects[1] is the object itself"),
        // A class that is itself an object with a class: the chain goes round instead of ending.
        (["$null", .dictionary(["$class": .uid(2)]), .dictionary(["$class": .uid(1)])],
         .classChainLoop, "$objects[1].$class: $class points at $objects[2], an object with a class of its own, not a class description"),
        (["$null", .dictionary(["$class": .uid(2)]), "NSArray"],
         .invalidClass, "$objects[1].$class: $class points at $objects[2], \"NSArray\", not a class description"),
        (["$null", .dictionary(["$class": 2])],
         .invalidClass, "$objects[1].$class: $class is integer 2, not a UID"),
        (["$null", .dictionary(["$class": .uid(9)])],
         .uidOutOfRange, "$objects[1].$class: UID 9 out of range (2 objects)"),
        (["$null", .dictionary(["$class": .uid(2)]), .dictionary(["$classes": ["X"]])],
         .invalidClass, "$objects[2]: class description has no $classname string"),
        (["$null", .dictionary(["$class": .uid(2)]), .dictionary(["$classname": "X", "$classes": "X"])],
         .invalidClass, "$objects[2].$classes: $classes is \"X\", not an array"),
        (["$null", .dictionary(["$class": .uid(2)]), .dictionary(["$classname": "X", "$classes": ["X", 3]])],
         .invalidClass, "$objects[2].$classes[1]: integer 3 is not a class name"),
        // A class description where an object should be.
        (["$null", .dictionary(["NS.objects": [.uid(2)], "$class": .uid(2)]), nsArray],
         .invalidClass, "$objects[2]: a class description is used as an object"),
        (["$null", .array([])], .unexpectedType, "$objects[1]: an array of 0 is not an archived object"),
        // A dictionary keyed by a number is valid (KeyedArchiveObjectKeysTests).
        (["$null", .dictionary(["NS.objects": [3], "$class": .uid(2)]), nsArray],
         .unexpectedType, "$objects[1].NS.objects[0]: integer 3 is not a UID"),
        (["$null", .dictionary(["NS.objects": "x", "$class": .uid(2)]), nsArray],
         .unexpectedType, "$objects[1].NS.objects: NS.objects is \"x\", not an array"),
        (["$null", .dictionary(["$class": .uid(2)]), nsArray],
         .missingKey, "$objects[1]: no NS.objects"),
        (["$null", .dictionary(["$class": .uid(2)]), Support.classDescription("NSURL", "NSObject")],
         .missingKey, "$objects[1]: NSURL has no NS.relative"),
        (["$null", .dictionary(["NS.relative": 5, "$class": .uid(2)]), Support.classDescription("NSURL", "NSObject")],
         .unexpectedType, "$objects[1].NS.relative: integer 5 is not a string"),
        (["$null", .dictionary(["NS.relative": "x", "NS.base": .uid(3), "$class": .uid(2)]), Support.classDescription("NSURL", "NSObject"), "base"],
         .unexpectedType, "$objects[1].NS.base: NS.base is \"base\", not an NSURL"),
        (["$null", .dictionary(["$class": .uid(2)]), Support.classDescription("NSDate", "NSObject")],
         .missingKey, "$objects[1]: NSDate has no numeric NS.time"),
        (["$null", .dictionary(["NS.bytes": .data(Data([0xff])), "$class": .uid(2)]), Support.classDescription("NSString", "NSObject")],
         .unexpectedType, "$objects[1].NS.bytes: NS.bytes is not UTF-8"),
        (["$null", .dictionary(["NS.data": "x", "$class": .uid(2)]), Support.classDescription("NSData", "NSObject")],
         .unexpectedType, "$objects[1].NS.data: \"x\" is not data"),
        (["$null", .dictionary(["$class": .uid(2)]), Support.classDescription("NSData", "NSObject")],
         .missingKey, "$objects[1]: no NS.bytes"),
        (["$null", .dictionary(["odd": ["k": .uid(0)], "$class": .uid(2)]), Support.classDescription("Thing")],
         .unexpectedType, "$objects[1].odd: UIDs inside a dictionary are not supported"),
    ]

    @Test(arguments: objectErrors)
    func rejectsAMalformedObjectNamingIt(objects: [PropertyListValue], code: KeyedArchiveError.Code, description: String) throws {
        let archive = try KeyedArchive(Support.archive(objects))
        #expect {
            try archive.decodeRoot()
        } throws: { error in
            guard let error = error as? KeyedArchiveError else { return false }
            return error.code == code && error.description == description
        }
    }

    @Test func capsNestingDepth() throws {
        // Each array holds the next: 200 deep, more than the default of 128.
        var objects: [PropertyListValue] = ["$null", Self.nsArray]
        for index in 2..<202 {
            objects.append(.dictionary(["NS.objects": index == 201 ? [] : [.uid(UInt64(index + 1))], "$class": .uid(1)]))
        }
        let archive = try KeyedArchive(Support.archive(objects, root: 2))
        #expect(throws: KeyedArchiveError(.tooDeep, "")) { try archive.decodeRoot() }
        let deep = try KeyedArchive(Support.archive(objects, root: 2), options: KeyedArchiveOptions(maximumDepth: 300))
        #expect(throws: Never.self) { try deep.decodeRoot() }
    }

    @Test func capsTheExpansionOfSharedObjects() throws {
        // 40 arrays, each holding the next one twice: 2^40 values once expanded.
        var objects: [PropertyListValue] = ["$null", Self.nsArray]
        for index in 2..<42 {
            objects.append(.dictionary(["NS.objects": index == 41 ? [] : [.uid(UInt64(index + 1)), .uid(UInt64(index + 1))], "$class": .uid(1)]))
        }
        let archive = try KeyedArchive(Support.archive(objects, root: 2), options: KeyedArchiveOptions(maximumValueCount: 10_000))
        #expect {
            try archive.decodeRoot()
        } throws: { error in
            (error as? KeyedArchiveError)?.reason == "the archive expands to more than 10000 values"
        }
    }

    @Test func reportsTheClassOfNonObjects() throws {
        let archive = try KeyedArchive(Support.archive(["$null", "text"]))
        #expect {
            try archive.objectClass(at: 1)
        } throws: { error in
            (error as? KeyedArchiveError)?.description == "$objects[1]: \"text\" is not an object dictionary"
        }
        #expect(throws: KeyedArchiveError(.uidOutOfRange, "")) { try archive.objectClass(at: 2) }
    }

    // MARK: Encoding

    @Test func encodesInApplesLayout() throws {
        let value: ArchivedValue = .dictionary([
            .init(key: "name", value: .string("x")),
            .init(key: "inner", value: .dictionary([.init(key: "n", value: .integer(1)), .init(key: "name", value: .string("x"))])),
            .init(key: "list", value: .array([.string("x"), .real(2.5), .null, .boolean(true), .integer(1)])),
            .init(key: "link", value: .url(ArchivedURL(relativeString: "f", baseString: "http://h/"))),
        ])
        let archive = try KeyedArchive(encoding: value)
        #expect(archive.topKey == "NSKeyedArchiveRootObjectKey")
        #expect(archive.rootUID == 1)
        let expected: [PropertyListValue] = [
            "$null",
            .dictionary(["NS.keys": [.uid(2), .uid(3), .uid(4), .uid(5)], "NS.objects": [.uid(6), .uid(7), .uid(11), .uid(15)], "$class": .uid(10)]),
            "name", "inner", "list", "link",
            "x",  // 6: every "x" shares it
            .dictionary(["NS.keys": [.uid(8), .uid(2)], "NS.objects": [.uid(9), .uid(6)], "$class": .uid(10)]),
            "n", 1,
            Support.classDescription("NSMutableDictionary", "NSDictionary", "NSObject"),  // 10: after the first instance's contents
            .dictionary(["NS.objects": [.uid(6), .uid(12), .uid(0), .uid(13), .uid(9)], "$class": .uid(14)]),
            2.5, true,
            Support.classDescription("NSMutableArray", "NSArray", "NSObject"),
            .dictionary(["NS.base": .uid(16), "NS.relative": .uid(19), "$class": .uid(18)]),
            .dictionary(["NS.base": .uid(0), "NS.relative": .uid(17), "$class": .uid(18)]),
            "http://h/",
            Support.classDescription("NSURL", "NSObject"),
            "f",
        ]
        #expect(archive.objects == expected)
        #expect(archive.propertyList == Support.archive(expected))
        guard case .dictionary(let top) = archive.propertyList else {
            Issue.record("not a dictionary")
            return
        }
        #expect(top.keys == ["$version", "$objects", "$archiver", "$top"])
    }

    @Test func decodesWhatItEncodes() throws {
        let custom = ArchivedObject(className: "MyThing", classChain: ["MyThing", "NSObject"], fields: [
            .init(key: "count", value: .inline(7)),
            .init(key: "name", value: .reference(.string("n"))),
            .init(key: "list", value: .array([.reference(.integer(42)), .reference(.null)])),
            .init(key: "nested", value: .inline(["a": [1, 2]])),
        ])
        let value: ArchivedValue = .array([
            .string("s"), .integer(-3), .real(PropertyListReal(Float(0.5))), .boolean(false), .data(Data([9, 9])),
            .date(Date(timeIntervalSinceReferenceDate: 12.25)), .null, .object(custom),
            .url(ArchivedURL(relativeString: "a/b", baseString: "http://example.com/")),
            .dictionary([.init(key: "z", value: .array([])), .init(key: "a", value: .dictionary([]))]),
        ])
        for topKey in ["NSKeyedArchiveRootObjectKey", "root"] {
            let archive = try KeyedArchive(encoding: value, topKey: topKey)
            let reread = try KeyedArchive(archive.propertyList)
            #expect(reread.topKey == topKey)
            #expect(try reread.decodeRoot() == value)
        }
    }

    static let encodingErrors: [(ArchivedValue, KeyedArchiveError.Code, String)] = [
        (.null, .nullRoot, "the root object is nil"),
        (.dictionary([.init(key: "k", value: .null), .init(key: "k", value: .null)]), .unrepresentable, "key \"k\" appears twice"),
        (.object(ArchivedObject(className: "X", classChain: [], fields: [.init(key: "$class", value: .inline(1))])),
         .unrepresentable, "an object field may not be named $class"),
        (.array([.object(ArchivedObject(className: "X", classChain: [], fields: [.init(key: "f", value: .inline([.uid(1)]))]))]),
         .unrepresentable, "[0].f: an inline value may not hold UIDs"),
        (.object(ArchivedObject(className: "X", classChain: [], fields: [.init(key: "f", value: .inline(1)), .init(key: "f", value: .inline(2))])),
         .unrepresentable, "field f appears twice"),
    ]

    @Test(arguments: encodingErrors)
    func refusesWhatCannotBeArchived(value: ArchivedValue, code: KeyedArchiveError.Code, description: String) {
        #expect {
            try KeyedArchive(encoding: value)
        } throws: { error in
            guard let error = error as? KeyedArchiveError else { return false }
            return error.code == code && error.description == description
        }
    }

    @Test func errorsCompareByCodeAndPrintTheirKeyPath() {
        let error = KeyedArchiveError(.uidOutOfRange, "UID 40 out of range (38 objects)", keyPath: "$objects[12].NS.keys[3]")
        #expect(error.description == "$objects[12].NS.keys[3]: UID 40 out of range (38 objects)")
        #expect(error == KeyedArchiveError(.uidOutOfRange, "other"))
        #expect(error != KeyedArchiveError(.cycle, "UID 40 out of range (38 objects)"))
        #expect(KeyedArchiveError.Code.uidOutOfRange.description == "uid-out-of-range")
    }
}

extension KeyedArchiveTests {
    @Test func equalityIgnoresTheDecodingLimits() throws {
        let value = Support.archive(["$null", "x"])
        let strict = try KeyedArchive(value, options: KeyedArchiveOptions(maximumDepth: 1))
        let loose = try KeyedArchive(value)
        #expect(strict == loose)
        #expect(strict.hashValue == loose.hashValue)
        #expect(try loose != KeyedArchive(Support.archive(["$null", "y"])))
    }
}

extension KeyedArchiveTests {
    @Test func describesValuesOnOneLine() {
        let object = ArchivedObject(className: "Thing", classChain: ["Thing"], fields: [
            .init(key: "a", value: .inline(1)), .init(key: "b", value: .array([.reference(.null)])),
        ])
        let value: ArchivedValue = .dictionary([
            .init(key: "d", value: .data(Data([1, 2, 3]))),
            .init(key: "t", value: .date(Date(timeIntervalSinceReferenceDate: 0))),
            .init(key: "u", value: .url(ArchivedURL(relativeString: "x", baseString: "http://h/"))),
            .init(key: "o", value: .object(object)),
            .init(key: "n", value: .array([.integer(-1), .real(0.5), .boolean(false), .string("s")])),
        ])
        #expect(value.description == "{d = <3 bytes>; t = 2001-01-01T00:00:00Z; u = <http://h/x>; o = Thing {a = inline 1; b = (nil)}; n = (-1, 0.5, false, \"s\")}")
        #expect(ArchivedObject.FieldValue.inline(.uid(1)).description == "inline uid")
        #expect(ArchivedObject.FieldValue.inline(.uid(1)).value == nil)
        #expect(ArchivedObject.FieldValue.array([.inline(.uid(1))]).value == nil)
        #expect(ArchivedObject.FieldValue.array([.inline(1), .reference(.null)]).value == .array([.integer(1), .null]))
    }
}
