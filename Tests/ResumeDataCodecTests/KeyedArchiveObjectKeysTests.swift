import Foundation
import Testing
@_spi(Fuzzing) @testable import ResumeDataCodec

/// A keyed archive whose dictionary keys are not strings (nsurlsessiond's `tasks.plist` keys its
/// tasks by `NSNumber`) is a valid archive: the codec reads it, keeping every key as decoded;
/// only the resume-data layer refuses it, as not resume data. The fixture is Python plistlib's
/// (Fixtures/archives/README.md).
@Suite struct KeyedArchiveObjectKeysTests {
    typealias Support = KeyedArchiveTestSupport

    static func tasksArchive() throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/archives/number-keyed-tasks.bplist", withExtension: nil))
        return try Data(contentsOf: url)
    }

    @Test func theCodecReadsAnArchiveKeyedByNumbers() throws {
        let root = try KeyedArchive(data: Self.tasksArchive()).decodeRoot()
        guard case .objectKeyedDictionary(let pairs) = root else {
            Issue.record("decoded as \(root.kindName)")
            return
        }
        #expect(pairs.map(\.key) == [.integer(93), .integer(94)])
        #expect(pairs.map(\.keyText) == ["93", "94"])
        guard case .object(let first) = pairs[0].value, case .object(let second) = pairs[1].value else {
            Issue.record("the values are \(pairs.map(\.value.kindName))")
            return
        }
        #expect(first.className == "__NSCFURLSessionTaskInfo")
        #expect(first.fields.map(\.key) == ["uniqueIdentifier", "state", "countOfBytesReceived", "downloadFileURL"])
        #expect(first["uniqueIdentifier"]?.value == .string("8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F"))
        #expect(first["countOfBytesReceived"] == .inline(.integer(524_288)))
        #expect(first["downloadFileURL"]?.value?.urlValue?.absoluteString
            == "file:///Users/examiner/Library/Caches/com.apple.nsurlsessiond/Downloads/com.example.app/CFNetworkDownload_Ab12Cd.tmp")
        #expect(second["state"] == .inline(.integer(3)))
        #expect(second["downloadFileURL"]?.value == .null)
        #expect(root.kindName == "a dictionary with keys that are not strings")
        #expect(root.description.hasPrefix("{93 = __NSCFURLSessionTaskInfo {uniqueIdentifier = \"8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F\"; state = inline 1; "))
        #expect(root.description.hasSuffix("; 94 = __NSCFURLSessionTaskInfo {uniqueIdentifier = \"0D7E5B21-3C4A-4F68-8B90-1A2B3C4D5E6F\"; state = inline 3; countOfBytesReceived = inline 0; downloadFileURL = nil}}"))
    }

    @Test func theResumeDataLayerSaysItIsNotResumeData() throws {
        let data = try Self.tasksArchive()
        #expect {
            try ResumeData(data: data)
        } throws: { error in
            let error = error as? ResumeDataError
            return error?.code == .notResumeData
                && error?.description == "not resume data: the root NSMutableDictionary has keys that are not strings (93, 94); a resume blob's keys are strings"
        }
        #expect {
            try KeyedArchive.decodeDictionary(data: data)
        } throws: { error in
            let error = error as? KeyedArchiveError
            return error?.code == .nonStringKeys && error?.description == "$objects[1]: the root NSMutableDictionary has keys that are not strings (93, 94)"
        }
    }

    @Test func stringKeysBesideOthersAreKeptAsStrings() throws {
        let archive = try KeyedArchive(Support.archive([
            "$null",
            .dictionary(["NS.keys": [.uid(2), .uid(3), .uid(4), .uid(5), .uid(6)], "NS.objects": [.uid(3), .uid(2), .uid(2), .uid(2), .uid(2)], "$class": .uid(7)]),
            "name", 5, 6.5, true, .dictionary(["$class": .uid(8), "NS.time": 0.0]),
            Support.classDescription("NSDictionary", "NSObject"),
            Support.classDescription("NSDate", "NSObject"),
        ]))
        let root = try archive.decodeRoot()
        #expect(root == .objectKeyedDictionary([
            ArchivedPair(key: .string("name"), value: .integer(5)),
            ArchivedPair(key: .integer(5), value: .string("name")),
            ArchivedPair(key: .real(6.5), value: .string("name")),
            ArchivedPair(key: .boolean(true), value: .string("name")),
            ArchivedPair(key: .date(Date(timeIntervalSinceReferenceDate: 0)), value: .string("name")),
        ]))
        #expect(ArchivedValue.describeKeys(of: root.objectKeyedPairs) == "keys that are not strings (5, 6.5, true, …)")
        #expect {
            try archive.decodeRootDictionary()
        } throws: { error in
            (error as? KeyedArchiveError)?.description == "$objects[1]: the root NSDictionary has keys that are not strings (5, 6.5, true, …)"
        }
    }

    @Test func aDictionaryKeyedByNumbersInsideAPlainOneHasNoPlainForm() throws {
        let archive = try KeyedArchive(Support.archive([
            "$null",
            .dictionary(["NS.keys": [.uid(2)], "NS.objects": [.uid(3)], "$class": .uid(6)]),
            "tasks",
            .dictionary(["NS.keys": [.uid(4)], "NS.objects": [.uid(5)], "$class": .uid(6)]),
            93, "running",
            Support.classDescription("NSMutableDictionary", "NSDictionary", "NSObject"),
        ]))
        #expect {
            try archive.decodeRootDictionary()
        } throws: { error in
            let error = error as? KeyedArchiveError
            return error?.code == .unrepresentable && error?.description == "tasks: a dictionary with keys that are not strings (93) has no property-list form"
        }
    }

    @Test func itIsArchivedAgainAsItWasRead() throws {
        let data = try Self.tasksArchive()
        let root = try KeyedArchive(data: data).decodeRoot()
        let encoded = try KeyedArchive(encoding: root, topKey: "root")
        // Keys first, then values, each object where it is first met, as NSKeyedArchiver does.
        let objects = try #require(encoded.propertyList.dictionaryValue?["$objects"]?.arrayValue)
        #expect(objects[1].dictionaryValue?["NS.keys"] == [.uid(2), .uid(3)])
        #expect(objects[2] == 93)
        #expect(objects[3] == 94)
        #expect(try KeyedArchive(data: encoded.data(format: .binary)).decodeRoot() == root)
        #expect(try KeyedArchive(data: encoded.data(format: .xml)).decodeRoot() == root)
        #expect(RoundTripCheck.keyedArchive(data) == nil)
    }
}

extension ArchivedValue {
    /// The pairs, if this is a dictionary keyed otherwise than by strings; none otherwise.
    fileprivate var objectKeyedPairs: [ArchivedPair] {
        if case .objectKeyedDictionary(let pairs) = self { return pairs }
        return []
    }
}
