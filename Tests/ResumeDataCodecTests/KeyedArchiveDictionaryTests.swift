import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct KeyedArchiveDictionaryTests {
    typealias Support = KeyedArchiveTestSupport

    static let resumeDictionary: PropertyListDictionary = [
        "NSURLSessionResumeInfoVersion": 2,
        "NSURLSessionResumeInfoTempFileName": "CFNetworkDownload_Occ2S2.tmp",
        "NSURLSessionResumeBytesReceived": 2_339_054,
        "NSURLSessionDownloadURL": .string(Support.realURL),
        "NSURLSessionResumeCurrentRequest": .data(Data([0x62, 0x70])),
        "NSURLSessionResumeEntityTag": "\"afda885a630e48ae4a3bedd3d0bc7094\"",
        "NSURLSessionResumeServerDownloadDate": "Fri, 24 Mar 2017 02:43:46 GMT",
        "nested": ["list": [1.5, true, "x"], "when": .date(Date(timeIntervalSinceReferenceDate: 100))],
    ]

    @Test func encodesTheResumeDictionaryAsApplesWriterDoes() throws {
        let encoded = try KeyedArchive.encodeDictionary(["b": 2, "a": "x", "c": "x", "x": "b"])
        #expect(encoded == Support.archive([
            "$null",
            .dictionary(["NS.keys": [.uid(2), .uid(3), .uid(4), .uid(5)], "NS.objects": [.uid(6), .uid(5), .uid(5), .uid(2)], "$class": .uid(7)]),
            "b", "a", "c", "x", 2,
            Support.classDescription("NSMutableDictionary", "NSDictionary", "NSObject"),
        ]))
        let plain = try KeyedArchive.encodeDictionary(["k": 1], topKey: "root", className: "NSDictionary")
        let archive = try KeyedArchive(plain)
        #expect(archive.topKey == "root")
        #expect(try archive.objectClass(at: 1).chain == ["NSDictionary", "NSObject"])
    }

    @Test(arguments: ["NSKeyedArchiveRootObjectKey", "root"])
    func decodesWhatItEncodes(topKey: String) throws {
        let encoded = try KeyedArchive.encodeDictionary(Self.resumeDictionary, topKey: topKey)
        let decoded = try KeyedArchive.decodeDictionary(encoded)
        #expect(decoded == Self.resumeDictionary)
        #expect(decoded.keys == Self.resumeDictionary.keys)
    }

    @Test func refusesValuesWithoutAnArchivedForm() {
        #expect {
            try KeyedArchive.encodeDictionary(["outer": ["inner": .set([1])]])
        } throws: { error in
            (error as? KeyedArchiveError)?.description == "outer.inner: a set has no archived form here"
        }
        #expect {
            try KeyedArchive.encodeDictionary(["list": [.uid(3)]])
        } throws: { error in
            (error as? KeyedArchiveError)?.description == "list[0]: UID 3 is not a plain value"
        }
    }

    static let decodingErrors: [([PropertyListValue], String)] = [
        (["$null", "text"], "$objects[1]: \"text\" is not an object dictionary"),
        (["$null", .dictionary(["NS.objects": [], "$class": .uid(2)]), Support.classDescription("NSArray", "NSObject")],
         "$objects[1]: the root is an NSArray, not an NSDictionary"),
        (["$null", .dictionary(["NS.keys": [.uid(3)], "NS.objects": [.uid(0)], "$class": .uid(2)]), Support.classDescription("NSDictionary", "NSObject"), "k"],
         "k: nil has no property-list form"),
        (["$null", .dictionary(["NS.keys": [.uid(3)], "NS.objects": [.uid(4)], "$class": .uid(2)]), Support.classDescription("NSDictionary", "NSObject"), "k",
          .dictionary(["NS.relative": .uid(3), "$class": .uid(5)]), Support.classDescription("NSURL", "NSObject")],
         "k: NSURL k has no property-list form"),
        (["$null", .dictionary(["NS.keys": [.uid(3)], "NS.objects": [.uid(4)], "$class": .uid(2)]), Support.classDescription("NSDictionary", "NSObject"), "k",
          .dictionary(["$class": .uid(5)]), Support.classDescription("Thing", "NSObject")],
         "k: object of class Thing has no property-list form"),
        (["$null", .dictionary(["NS.keys": [.uid(3), .uid(3)], "NS.objects": [.uid(4), .uid(4)], "$class": .uid(2)]), Support.classDescription("NSDictionary", "NSObject"), "k", 1],
         "key \"k\" appears twice"),
    ]

    @Test(arguments: decodingErrors)
    func refusesArchivesThatAreNotPlainDictionaries(objects: [PropertyListValue], description: String) {
        #expect {
            try KeyedArchive.decodeDictionary(Support.archive(objects))
        } throws: { error in
            (error as? KeyedArchiveError)?.description == description
        }
    }
}
