import Foundation
import Testing
@testable import ResumeDataCodec

/// Shared material for the keyed-archive tests.
enum KeyedArchiveTestSupport {
    /// The bytes of a fixture in Fixtures/real.
    static func realFixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/real/\(name)", withExtension: nil))
        return try Data(contentsOf: url)
    }

    static let currentRequestName = "ios10.1-current-request.bplist"
    static let originalRequestName = "ios10.1-original-request.bplist"
    static let realURL = "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg"

    /// A hand-built archive: the frame around the given objects, root at `root`.
    static func archive(_ objects: [PropertyListValue], root: UInt64 = 1, topKey: String = "NSKeyedArchiveRootObjectKey") -> PropertyListValue {
        .dictionary([
            "$version": .integer(100000),
            "$objects": .array(objects),
            "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary([topKey: .uid(root)]),
        ])
    }

    static func classDescription(_ chain: String...) -> PropertyListValue {
        .dictionary(["$classname": .string(chain[0]), "$classes": .array(chain.map(PropertyListValue.string))])
    }

    /// Fixtures/real/ios10.1-current-request.bplist as Python's plistlib reads it (objects and key order as in the file),
    /// transcribed so the archive logic is tested apart from the binary reader.
    static let currentRequestPropertyList: PropertyListValue = .dictionary([
        "$version": .integer(100000),
        "$objects": .array([
            .string("$null"),
            .dictionary([
                "$1": .integer(9),
                "__nsurlrequest_proto_prop_obj_20": .uid(0),
                "__nsurlrequest_proto_prop_obj_21": .uid(0),
                "startTimeoutTime": .real(0.0),
                "requiresShortConnectionTimeout": .boolean(false),
                "__nsurlrequest_proto_prop_obj_10": .uid(2),
                "$class": .uid(24),
                "__nsurlrequest_proto_prop_obj_11": .uid(7),
                "__nsurlrequest_proto_prop_obj_12": .uid(10),
                "__nsurlrequest_proto_prop_obj_13": .uid(10),
                "__nsurlrequest_proto_props": .uid(0),
                "__nsurlrequest_proto_prop_obj_14": .uid(7),
                "__nsurlrequest_proto_prop_obj_15": .uid(11),
                "payloadTransmissionTimeout": .real(0.0),
                "__nsurlrequest_proto_prop_obj_16": .uid(0),
                "allowedProtocolTypes": .integer(0),
                "__nsurlrequest_proto_prop_obj_17": .uid(12),
                "__nsurlrequest_proto_prop_obj_18": .uid(13),
                "$0": .integer(2),
                "__nsurlrequest_proto_prop_obj_19": .uid(14),
                "__nsurlrequest_proto_prop_obj_9": .uid(8),
                "__nsurlrequest_proto_prop_obj_8": .uid(0),
                "__nsurlrequest_proto_prop_obj_7": .uid(0),
                "__nsurlrequest_proto_prop_obj_6": .uid(9),
                "__nsurlrequest_proto_prop_obj_5": .uid(8),
                "__nsurlrequest_proto_prop_obj_4": .uid(0),
                "__nsurlrequest_proto_prop_obj_3": .uid(7),
                "$2": .integer(22),
                "__nsurlrequest_proto_prop_obj_1": .uid(3),
                "__nsurlrequest_proto_prop_obj_0": .uid(2),
                "__nsurlrequest_proto_prop_obj_2": .uid(6),
            ]),
            .boolean(false),
            .dictionary([
                "NS.base": .uid(0),
                "$class": .uid(5),
                "NS.relative": .uid(4),
            ]),
            .string("http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg"),
            .dictionary([
                "$classname": .string("NSURL"),
                "$classes": .array([.string("NSURL"), .string("NSObject")]),
            ]),
            .real(60.0),
            .integer(0),
            .boolean(true),
            .integer(4),
            .real(0.0),
            .integer(-1),
            .integer(2),
            .string("GET"),
            .dictionary([
                "NS.keys": .array([.uid(15), .uid(16), .uid(17), .uid(18)]),
                "NS.objects": .array([.uid(19), .uid(20), .uid(21), .uid(22)]),
                "$class": .uid(23),
            ]),
            .string("User-Agent"),
            .string("Accept"),
            .string("Accept-Language"),
            .string("Accept-Encoding"),
            .string("DownloadFileDemo/1 CFNetwork/808.1.4 Darwin/16.0.0"),
            .string("*/*"),
            .string("zh-cn"),
            .string("gzip, deflate"),
            .dictionary([
                "$classname": .string("NSMutableDictionary"),
                "$classes": .array([.string("NSMutableDictionary"), .string("NSDictionary"), .string("NSObject")]),
            ]),
            .dictionary([
                "$classname": .string("NSURLRequest"),
                "$classes": .array([.string("NSURLRequest"), .string("NSObject")]),
            ]),
        ]),
        "$archiver": .string("NSKeyedArchiver"),
        "$top": .dictionary(["NSKeyedArchiveRootObjectKey": .uid(1)]),
    ])

    /// Fixtures/real/ios10.1-original-request.bplist as Python's plistlib reads it (objects and key order as in the file),
    /// transcribed so the archive logic is tested apart from the binary reader.
    static let originalRequestPropertyList: PropertyListValue = .dictionary([
        "$version": .integer(100000),
        "$objects": .array([
            .string("$null"),
            .dictionary([
                "$1": .integer(9),
                "startTimeoutTime": .real(0.0),
                "requiresShortConnectionTimeout": .boolean(false),
                "__nsurlrequest_proto_prop_obj_10": .uid(2),
                "$class": .uid(11),
                "__nsurlrequest_proto_prop_obj_11": .uid(7),
                "__nsurlrequest_proto_prop_obj_12": .uid(9),
                "__nsurlrequest_proto_prop_obj_13": .uid(9),
                "__nsurlrequest_proto_props": .uid(0),
                "__nsurlrequest_proto_prop_obj_14": .uid(7),
                "__nsurlrequest_proto_prop_obj_15": .uid(10),
                "payloadTransmissionTimeout": .real(0.0),
                "allowedProtocolTypes": .integer(0),
                "$0": .integer(2),
                "__nsurlrequest_proto_prop_obj_9": .uid(8),
                "__nsurlrequest_proto_prop_obj_8": .uid(0),
                "__nsurlrequest_proto_prop_obj_7": .uid(0),
                "__nsurlrequest_proto_prop_obj_6": .uid(7),
                "__nsurlrequest_proto_prop_obj_5": .uid(8),
                "__nsurlrequest_proto_prop_obj_4": .uid(0),
                "__nsurlrequest_proto_prop_obj_3": .uid(7),
                "$2": .integer(16),
                "__nsurlrequest_proto_prop_obj_1": .uid(3),
                "__nsurlrequest_proto_prop_obj_0": .uid(2),
                "__nsurlrequest_proto_prop_obj_2": .uid(6),
            ]),
            .boolean(false),
            .dictionary([
                "NS.base": .uid(0),
                "$class": .uid(5),
                "NS.relative": .uid(4),
            ]),
            .string("http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg"),
            .dictionary([
                "$classname": .string("NSURL"),
                "$classes": .array([.string("NSURL"), .string("NSObject")]),
            ]),
            .real(60.0),
            .integer(0),
            .boolean(true),
            .real(0.0),
            .integer(-1),
            .dictionary([
                "$classname": .string("NSURLRequest"),
                "$classes": .array([.string("NSURLRequest"), .string("NSObject")]),
            ]),
        ]),
        "$archiver": .string("NSKeyedArchiver"),
        "$top": .dictionary(["NSKeyedArchiveRootObjectKey": .uid(1)]),
    ])
}
