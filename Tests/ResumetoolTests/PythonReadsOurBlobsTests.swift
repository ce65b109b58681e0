import Foundation
import Testing
@testable import ResumeDataCodec

/// Python's plistlib, an independent reader, sees in every blob the tool writes the same resume
/// dictionary as our library: the same keys in the same order with the same values.
@Suite struct PythonReadsOurBlobsTests {
    /// Prints, for each file, `{archiver, topKey, rootClass, entries: [[key, type, value]]}`;
    /// a keyed archive's root dictionary is taken apart by hand through `$top`, `NS.keys` and
    /// `NS.objects`, without any keyed-archive library.
    static let script = #"""
        import base64, datetime, json, plistlib, sys

        def tag(value):
            if isinstance(value, bool): return ["boolean", value]
            if isinstance(value, int): return ["integer", str(value)]
            if isinstance(value, float): return ["real", repr(value)]
            if isinstance(value, str): return ["string", value]
            if isinstance(value, bytes): return ["data", base64.b64encode(value).decode()]
            if isinstance(value, datetime.datetime): return ["date", value.isoformat()]
            if isinstance(value, dict) and "NS.time" in value:
                # An archived NSDate: seconds since 2001-01-01.
                return ["date", (datetime.datetime(2001, 1, 1) + datetime.timedelta(seconds=value["NS.time"])).isoformat()]
            return ["other", repr(value)]

        def index(reference):
            # XML archives spell a UID as a CF$UID dictionary, which plistlib leaves as a dict.
            if isinstance(reference, dict) and list(reference) == ["CF$UID"]: return reference["CF$UID"]
            return reference.data

        result = {}
        for path in sys.argv[1:]:
            with open(path, "rb") as file:
                top = plistlib.load(file)
            info = {"archiver": None, "topKey": None, "rootClass": None}
            if "$archiver" in top:
                objects = top["$objects"]
                info["archiver"] = top["$archiver"]
                (top_key, root_uid), = top["$top"].items()
                info["topKey"] = top_key
                root = objects[index(root_uid)]
                info["rootClass"] = objects[index(root["$class"])]["$classname"]
                keys = [objects[index(uid)] for uid in root["NS.keys"]]
                values = [objects[index(uid)] for uid in root["NS.objects"]]
                entries = list(zip(keys, values))
            else:
                entries = list(top.items())
            info["entries"] = [[key] + tag(value) for key, value in entries]
            result[path] = info
        print(json.dumps(result))
        """#

    static func tag(_ value: PropertyListValue) -> [String] {
        switch value {
        case .string(let text): ["string", text]
        case .integer(let number): ["integer", number.description]
        case .real(let real): ["real", "\(real.value)"]
        case .data(let bytes): ["data", bytes.base64EncodedString()]
        case .boolean(let flag): ["boolean", flag ? "1" : "0"]
        // plistlib gives a naive UTC datetime: ISO 8601 without the zone.
        case .date(let date): ["date", String(date.formatted(.iso8601).dropLast())]
        default: ["other", "\(value)"]
        }
    }

    /// Writes the blobs to check: every readable sample in every container, rebuilt blobs in
    /// every format, and each repair target's output.
    static func writeBlobs(into folder: TemporaryDirectory) throws -> [String] {
        var paths: [String] = []
        for sample in EndToEnd.readableSamples {
            for container in ["xml", "binary", "keyed-archive", "keyed-archive-xml"] {
                let path = folder.path("\(sample).\(container)")
                #expect(try EndToEnd.run(["convert", sample, "--to", container, "-o", path]).status == 0)
                paths.append(path)
            }
        }
        for format in ["xml", "binary", "keyed-archive", "keyed-archive-xml"] {
            let path = folder.path("rebuilt.\(format)")
            #expect(try EndToEnd.run(["rebuild", "--from", EndToEnd.partialName, "--url", EndToEnd.url,
                                      "--etag", "\"e\"", "--header", "Authorization: Bearer x",
                                      "--format", format, "-o", path]).status == 0)
            paths.append(path)
        }
        for target in ["ios10", "ios11", "modern"] {
            let path = folder.path("repaired.\(target)")
            #expect(try EndToEnd.run(["repair", "ios10-corrupted-requests.plist", "--target", target, "-o", path]).status == 0)
            paths.append(path)
        }
        return paths
    }

    @Test func plistlibSeesTheSameDictionary() throws {
        let folder = try TemporaryDirectory()
        let paths = try Self.writeBlobs(into: folder)

        let plistlib = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.script] + paths)
        #expect(plistlib.status == 0)
        #expect(String(decoding: plistlib.stderr, as: UTF8.self) == "")
        let outData = plistlib.stdout
        let seen = try #require(try JSONSerialization.jsonObject(with: outData) as? [String: [String: Any]])
        #expect(seen.count == paths.count)

        for path in paths {
            let python = try #require(seen[path], "python printed nothing for \(path)")
            let resume = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: path)))
            let ours = resume.entries.map { [$0.key] + Self.tag($0.value) }
            let rows = try #require(python["entries"] as? [[Any]])
            let theirs: [[String]] = rows.map { row in row.map { "\($0)" } }
            #expect(theirs == ours, "\(path): plistlib sees another dictionary")
            if resume.container.isKeyedArchive {
                #expect(python["archiver"] as? String == "NSKeyedArchiver", "\(path)")
                #expect(python["topKey"] as? String == "NSKeyedArchiveRootObjectKey", "\(path)")
                #expect(python["rootClass"] as? String == "NSMutableDictionary", "\(path)")
            } else {
                #expect(python["archiver"] is NSNull, "\(path)")
            }
        }
    }
}
