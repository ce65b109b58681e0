import Foundation
@testable import ResumeDataCodec
import Testing

/// A binary plist can hold any double as a date or a real: NaN, infinities, 1e300. Every command
/// that renders a blob or a plist must print or refuse them, never trap (issue: trust boundary).
@Suite struct HostileNumberTests {
    static let values: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300]

    /// A usable resume blob with the hostile value as a date and as a real beside the known keys.
    static func blob(_ value: Double, container: ResumeDataContainer) throws -> Data {
        var resume = ResumeData(container: container)
        resume.downloadURL = "https://example.com/file.bin"
        resume.bytesReceived = 10
        resume.tempFileName = "CFNetworkDownload_a.tmp"
        resume.entityTag = "\"t\""
        resume.entries["d"] = .date(Date(timeIntervalSinceReferenceDate: value))
        resume.entries["r"] = .real(PropertyListReal(value))
        return try resume.encoded(as: container)
    }

    /// The hostile value in every other place a blob can hold a number or a date: the known keys
    /// with the wrong type, nested containers, and both request archives' timeout.
    static func everywhere(_ value: Double, container: ResumeDataContainer) throws -> Data {
        var resume = ResumeData(container: container)
        resume.downloadURL = "https://example.com/file.bin"
        resume.tempFileName = "CFNetworkDownload_a.tmp"
        let date = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: value))
        let real = PropertyListValue.real(PropertyListReal(value))
        resume.entries["NSURLSessionResumeBytesReceived"] = real
        resume.entries["NSURLSessionResumeInfoVersion"] = date
        resume.entries["NSURLSessionResumeEntityTag"] = real
        resume.entries["NSURLSessionResumeServerDownloadDate"] = date
        resume.entries["NSURLSessionResumeByteRange"] = real
        var nested = PropertyListDictionary()
        nested["when"] = date
        nested["list"] = .array([real, date, .array([date])])
        resume.entries["nested"] = .dictionary(nested)
        let request = URLRequestArchive(url: try #require(URL(string: "https://example.com/file.bin")), timeoutInterval: value)
        try resume.setRequest(request, .current)
        try resume.setRequest(request, .original)
        return try resume.encoded(as: container)
    }

    @Test(arguments: values)
    func everyPositionOfABlobAndItsRequests(_ value: Double) throws {
        let folder = try TemporaryDirectory()
        for container in [ResumeDataContainer.binary, .keyedArchive] {
            let name = "\(container.rawValue).blob"
            try Self.everywhere(value, container: container).write(to: URL(fileURLWithPath: folder.path(name)))
            let label = "\(value) everywhere in \(container.rawValue)"
            let text = try ToolRunner.run(["inspect", name], in: folder.url)
            #expect(text.status == 0, "\(label): \(text.stderr)")
            #expect(text.stdout.contains("    secure layout, timeout \(value) s, cache policy 0"), "\(label): \(text.stdout)")
            let json = try ToolRunner.run(["inspect", "--json", name], in: folder.url)
            #expect(json.status == 0, "\(label)")
            let report = try EndToEnd.onlyReport(json.stdout)
            let request = try #require(report["currentRequest"] as? [String: Any])
            if value.isFinite {
                #expect((request["timeoutInterval"] as? NSNumber)?.doubleValue == value, "\(label)")
            } else {
                #expect(request["timeoutInterval"] as? String == (value.isNaN ? "nan" : value > 0 ? "+infinity" : "-infinity"), "\(label)")
            }
            // Wrongly typed known keys are findings, not crashes; validate reads the blob (0 or 1).
            let validated = try ToolRunner.run(["validate", name], in: folder.url)
            #expect([0, 1].contains(validated.status), "\(label): \(validated.stderr)")
            for command in [["plist", "print", name], ["plist", "convert", "--to", "json", name]] {
                let result = try ToolRunner.run(command, in: folder.url)
                #expect(result.status == 0, "\(label) \(command): \(result.stderr)")
            }
            for target in ["binary", "keyed-archive"] {
                let converted = try ToolRunner.run(["convert", name, "--to", target, "-o", "out.\(target)"], in: folder.url)
                #expect(converted.status == 0, "\(label) → \(target): \(converted.stderr)")
                let back = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: folder.path("out.\(target)"))))
                let timeout = try #require(try back.request(.current)?.timeoutInterval, "\(label) → \(target)")
                #expect(timeout.bitPattern == value.bitPattern, "\(label) → \(target)")
            }
        }
    }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test(arguments: values)
    func everyRendererPrintsOrRefusesIt(_ value: Double) throws {
        let folder = try TemporaryDirectory()
        for container in [ResumeDataContainer.binary, .keyedArchive] {
            let name = "\(container.rawValue).blob"
            try Self.blob(value, container: container).write(to: URL(fileURLWithPath: folder.path(name)))
            let label = "\(value) in \(container.rawValue)"

            let text = try ToolRunner.run(["inspect", name], in: folder.url)
            #expect(text.status == 0, "\(label): \(text.stderr)")
            #expect(text.stdout.contains("    d: date \(value) seconds since 2001-01-01 (out of range)\n"), "\(label)")
            #expect(text.stdout.contains("    r: real \(value)\n"), "\(label)")

            let json = try ToolRunner.run(["inspect", "--json", name], in: folder.url)
            #expect(json.status == 0, "\(label)")
            let report = try EndToEnd.onlyReport(json.stdout)
            let others = try #require(report["otherKeys"] as? [String: [String: Any]])
            for key in ["d", "r"] {
                let shown = others[key]?["value"]
                if value.isNaN {
                    #expect(shown as? String == "nan", "\(label) \(key)")
                } else if value.isInfinite {
                    #expect(shown as? String == (value > 0 ? "+infinity" : "-infinity"), "\(label) \(key)")
                } else {
                    #expect((shown as? NSNumber)?.doubleValue == value, "\(label) \(key)")
                }
            }

            let validated = try ToolRunner.run(["validate", name], in: folder.url)
            #expect(validated.status == 0, "\(label): \(validated.stderr)")

            let printed = try ToolRunner.run(["plist", "print", name], in: folder.url)
            #expect(printed.status == 0, "\(label)")

            let asJSON = try ToolRunner.run(["plist", "convert", "--to", "json", name], in: folder.url)
            #expect(asJSON.status == 0, "\(label)")
            _ = try Self.json(asJSON.stdout)
            // A note for each value JSON cannot spell as such: the date of a binary plist, and
            // NaN or infinity anywhere. (A keyed archive's 1e300 is a plain real.)
            let noted = container == .binary || !value.isFinite
            #expect(asJSON.stderr.contains("\(name): warning: ") == noted, "\(label): \(asJSON.stderr)")

            // An XML <date> cannot spell it: a clear error naming the key, exit 1, no output file.
            var refusing = [["convert", name, "--to", "xml", "-o", "out.plist"]]
            if container == .binary { refusing.append(["plist", "convert", "--to", "xml", name, "-o", "out.plist"]) }
            for command in refusing {
                let refused = try ToolRunner.run(command, in: folder.url)
                #expect(refused.status == 1, "\(label) \(command)")
                #expect(refused.stderr.contains("root.d: a date of \(value) seconds since 2001-01-01 has no XML spelling"), "\(label) \(command)")
                #expect(!folder.exists("out.plist"), "\(label) \(command)")
            }
            // A keyed archive holds a date as NSDate's NS.time, a real: XML spells that (nan,
            // +infinity, ...), so its XML form keeps the value. Binary keeps the exact bits.
            for target in ["binary", "keyed-archive", "keyed-archive-xml"] {
                let converted = try ToolRunner.run(["convert", name, "--to", target, "-o", "out.\(target)"], in: folder.url)
                #expect(converted == ToolRunner.Result(status: 0, stdout: "", stderr: ""), "\(label) → \(target)")
                let back = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: folder.path("out.\(target)"))))
                #expect(back.entries["r"] == .real(PropertyListReal(value)), "\(label) → \(target)")
                let date = try #require(back.entries["d"]?.dateValue, "\(label) → \(target)")
                #expect(date.timeIntervalSinceReferenceDate.bitPattern == value.bitPattern, "\(label) → \(target)")
            }
            if container == .keyedArchive {
                let xml = try ToolRunner.run(["plist", "convert", "--to", "xml", name, "-o", "archive.plist"], in: folder.url)
                #expect(xml == ToolRunner.Result(status: 0, stdout: "", stderr: ""), "\(label)")
                #expect(try ToolRunner.run(["plist", "print", "archive.plist"], in: folder.url).status == 0)
            }
        }
    }
}
