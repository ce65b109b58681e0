import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool inspect`, text and JSON, on every sample.
@Suite struct InspectCommandTests {
    static let topKeys: Set<String> = [
        "container", "infoVersion", "downloadURL", "bytesReceived", "tempFileName", "localPath", "entityTag",
        "serverDownloadDate", "byteRange", "currentRequest", "originalRequest", "response", "otherKeys", "findings",
    ]
    static let responseKeys: Set<String> = ["url", "statusCode", "mimeType", "expectedContentLength", "headers"]
    static let requestKeys: Set<String> = ["url", "method", "headers", "timeoutInterval", "cachePolicy", "bodyBase64", "layout"]
    static let findingKeys: Set<String> = ["severity", "code", "message", "key"]

    @Test(arguments: EndToEnd.readableSamples)
    func text(of sample: String) throws {
        let result = try EndToEnd.run(["inspect", sample])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        try EndToEnd.checkExpected(result.stdout, "inspect/\(sample).txt")
    }

    @Test(arguments: EndToEnd.readableSamples)
    func json(of sample: String) throws {
        let result = try EndToEnd.run(["inspect", "--json", sample])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        try EndToEnd.checkExpected(result.stdout, "inspect/\(sample).json")
        let object = try EndToEnd.onlyReport(result.stdout)
        try Self.checkShape(object)
    }

    /// The exact key sets of issue 4, at every level.
    static func checkShape(_ object: [String: Any]) throws {
        #expect(Set(object.keys) == topKeys)
        for kind in ["currentRequest", "originalRequest"] {
            let value = try #require(object[kind])
            if value is NSNull { continue }
            let request = try #require(value as? [String: Any], "\(kind) is neither null nor an object")
            #expect(Set(request.keys) == requestKeys)
            #expect(request["headers"] is [String: Any])
            #expect(["secure", "legacy"].contains(request["layout"] as? String))
        }
        let response = try #require(object["response"])
        if !(response is NSNull) {
            let fields = try #require(response as? [String: Any], "response is neither null nor an object")
            #expect(Set(fields.keys) == responseKeys)
            #expect(fields["headers"] is [String: Any])
        }
        let others = try #require(object["otherKeys"] as? [String: Any])
        for (_, entry) in others {
            let pair = try #require(entry as? [String: Any])
            #expect(Set(pair.keys) == ["type", "value"])
        }
        let findings = try #require(object["findings"] as? [[String: Any]])
        for finding in findings { #expect(Set(finding.keys) == findingKeys) }
        #expect(["xml", "binary", "keyed-archive", "keyed-archive-xml", "nwurlsession", "nwurlsession-webkit"].contains(object["container"] as? String))
    }

    @Test func jsonValuesOfANetworkFrameworkBlob() throws {
        let result = try EndToEnd.run(["inspect", "--json", "nwurlsession-ios17.resumedata"])
        let object = try EndToEnd.onlyReport(result.stdout)
        #expect(object["container"] as? String == "nwurlsession")
        #expect(object["bytesReceived"] is NSNull)
        #expect(object["infoVersion"] is NSNull)
        // Not in the blob: from the response's headers.
        #expect(object["entityTag"] as? String == SampleGenerator.realEntityTag)
        #expect(object["serverDownloadDate"] as? String == SampleGenerator.realLastModified)
        let response = try #require(object["response"] as? [String: Any])
        #expect(response["url"] as? String == SampleGenerator.realURL)
        #expect(response["statusCode"] as? Int == 200)
        #expect(response["mimeType"] as? String == "application/octet-stream")
        #expect(response["expectedContentLength"] as? Int == 7_936_993)
        #expect((response["headers"] as? [String: String])?["ETag"] == SampleGenerator.realEntityTag)
        #expect((object["otherKeys"] as? [String: Any])?.keys.sorted() == [
            "_keepDownloadTaskFile", "countOfBytesClientExpectsToReceive", "countOfBytesClientExpectsToSend",
            "earliestBeginDate", "prefersIncrementalDelivery", "priority",
        ])
    }

    @Test func progressAgainstTheResponsesLength() throws {
        let folder = try TemporaryDirectory()
        var resume = try SampleGenerator.base(container: .keyedArchive, layout: .secure)
        resume.bytesReceived = 68_188
        resume.entityTag = nil
        let response = ArchivedURLResponse(url: EndToEnd.url, statusCode: 200,
                                           headers: [("Content-Length", "7936993"), ("ETag", "\"r\"")],
                                           mimeType: nil, date: Date(timeIntervalSinceReferenceDate: 0))
        resume.entries[ResumeDataKey.response] = .data(try response.archiveData())
        let path = folder.path("blob")
        try resume.encoded().write(to: URL(fileURLWithPath: path))
        let result = try EndToEnd.run(["inspect", path])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  bytes received:     68,188 of 7,936,993 bytes (0.9 %)"))
        #expect(lines.contains("  entity tag:         \"r\" (from the response)"))
        #expect(lines.contains("  server date:        \(SampleGenerator.lastModified)"))
        #expect(lines.contains("  response:           NSHTTPURLResponse 200 \(EndToEnd.url)"))
        #expect(lines.contains("    secure layout, length 7,936,993 bytes (7.6 MiB), made 2001-01-01T00:00:00Z"))
    }

    /// Hostile numbers in a Network-framework blob and its response: shown, never a trap.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300])
    func hostileNumbersInANetworkFrameworkBlob(_ number: Double) throws {
        let folder = try TemporaryDirectory()
        var resume = try SampleGenerator.network(layout: .flat)
        var response = try #require(resume.response)
        response.items[1] = .reference(.real(PropertyListReal(number)))
        response.items[3] = .reference(.integer(PropertyListInteger(Int64.min)))
        response.items[5] = .reference(.integer(PropertyListInteger(Int64.max)))
        resume.entries[ResumeDataKey.response] = .data(try response.archiveData())
        resume.entries["priority"] = .real(PropertyListReal(number))
        resume.entries["earliestBeginDate"] = .date(Date(timeIntervalSinceReferenceDate: number.isFinite ? number : 0))
        let path = folder.path("nw.resumedata")
        try resume.encoded().write(to: URL(fileURLWithPath: path))

        let text = try EndToEnd.run(["inspect", path])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  bytes received:     not in the blob (the partial file's size); 9,223,372,036,854,775,807 bytes in all"))
        #expect(lines.contains("  response:           NSHTTPURLResponse -9223372036854775808 application/octet-stream \(SampleGenerator.realURL)"))
        // A creation time that is no date is left out.
        let details = try #require(lines.first { $0.hasPrefix("    secure layout, length") })
        #expect(details.contains("made") == (number.isFinite))
        let json = try EndToEnd.run(["inspect", "--json", path])
        #expect(json.status == 0)
        let object = try EndToEnd.onlyReport(json.stdout)
        #expect((object["response"] as? [String: Any])?["expectedContentLength"] as? Int64 == Int64.max)
        let archive = try EndToEnd.run(["archive", path])
        #expect(archive.status == 0)
        #expect(archive.stderr == "")
    }

    @Test func anUnreadableResponseIsAFinding() throws {
        let folder = try TemporaryDirectory()
        var resume = try SampleGenerator.base(container: .keyedArchive, layout: .secure)
        resume.entries[ResumeDataKey.response] = .data(Data("bplist00".utf8))
        let path = folder.path("blob")
        try resume.encoded().write(to: URL(fileURLWithPath: path))
        let result = try EndToEnd.run(["inspect", path])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  response:           unreadable (see findings)"))
        #expect(lines.first { $0.contains("invalid-response") } == "    error[invalid-response] NSURLSessionResumeResponse: NSURLSessionResumeResponse: byte 0x8: a binary property list needs at least 41 bytes (header, one object, trailer); this one has 8")
    }

    @Test func jsonValuesOfTheKeyedArchive() throws {
        let result = try EndToEnd.run(["inspect", "--json", "ios12-keyed-archive.resumedata"])
        let object = try EndToEnd.onlyReport(result.stdout)
        #expect(object["container"] as? String == "keyed-archive")
        #expect(object["infoVersion"] as? Int == 4)
        #expect(object["downloadURL"] as? String == EndToEnd.url)
        #expect(object["bytesReceived"] as? Int == 4096)
        #expect(object["tempFileName"] as? String == EndToEnd.partialName)
        #expect(object["localPath"] is NSNull)
        #expect(object["entityTag"] as? String == "\"5f1c3e-6a2f\"")
        #expect(object["serverDownloadDate"] as? String == "Tue, 17 Nov 2026 09:12:44 GMT")
        #expect(object["byteRange"] is NSNull)
        let current = try #require(object["currentRequest"] as? [String: Any])
        #expect(current["url"] as? String == EndToEnd.url)
        #expect(current["method"] as? String == "GET")
        #expect(current["timeoutInterval"] as? Double == 60)
        #expect(current["cachePolicy"] as? Int == 0)
        #expect(current["bodyBase64"] is NSNull)
        #expect(current["layout"] as? String == "secure")
        let headers = try #require(current["headers"] as? [String: String])
        #expect(headers["Range"] == "bytes=4096-")
        // Headers keep their order: check the text, since a parsed object forgets it.
        let order = ["User-Agent", "Accept", "Accept-Language", "Accept-Encoding", "Range"].map { "\"\($0)\":" }
        let positions = order.compactMap { result.stdout.range(of: $0)?.lowerBound }
        #expect(positions.count == order.count)
        #expect(positions == positions.sorted())
        #expect((object["otherKeys"] as? [String: Any])?.isEmpty == true)
        #expect((object["findings"] as? [Any])?.isEmpty == true)
    }

    @Test func jsonFindingsOfABrokenBlob() throws {
        let result = try EndToEnd.run(["inspect", "--json", "broken-missing-validator.resumedata"])
        let object = try EndToEnd.onlyReport(result.stdout)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["severity"] as? String == "error")
        #expect(findings.first?["code"] as? String == "missing-validator")
        #expect(findings.first?["key"] as? String == "NSURLSessionResumeEntityTag")
        #expect(object["entityTag"] is NSNull)
        #expect(object["serverDownloadDate"] is NSNull)
    }

    /// No sample has keys beyond the known ones; this blob has one of each type.
    @Test func otherKeysInTextAndJSON() throws {
        var resume = try ResumeData(data: try EndToEnd.sample("ios9-xml.plist"))
        resume.entries["AppNote"] = "kept"
        resume.entries["AppCount"] = .integer(-3)
        resume.entries["AppFlag"] = .boolean(true)
        resume.entries["AppRatio"] = .real(PropertyListReal(0.5))
        resume.entries["AppStamp"] = .date(Date(timeIntervalSince1970: 1_700_000_000))
        resume.entries["AppBytes"] = .data(Data([1, 2, 3]))
        resume.entries["AppList"] = .array(["a", "b"])
        resume.entries["AppTable"] = .dictionary(["k": "v"])
        let folder = try TemporaryDirectory()
        let path = folder.path("others.plist")
        try resume.encoded(as: .binary).write(to: URL(fileURLWithPath: path))

        let text = try EndToEnd.run(["inspect", path])
        #expect(text.status == 0)
        #expect(text.stdout.hasSuffix("""
              other keys:
                AppNote: string "kept"
                AppCount: integer -3
                AppFlag: boolean true
                AppRatio: real 0.5
                AppStamp: date 2023-11-14T22:13:20Z
                AppBytes: data (3 bytes) <010203>
                AppList: array (2 items)
                AppTable: dictionary (1 entry)
              findings:           none

            """))

        let json = try EndToEnd.run(["inspect", "--json", path])
        #expect(json.stdout.contains("""
                "otherKeys": {
                  "AppNote": {
                    "type": "string",
                    "value": "kept"
                  },
                  "AppCount": {
                    "type": "integer",
                    "value": -3
                  },
                  "AppFlag": {
                    "type": "boolean",
                    "value": true
                  },
                  "AppRatio": {
                    "type": "real",
                    "value": 0.5
                  },
                  "AppStamp": {
                    "type": "date",
                    "value": "2023-11-14T22:13:20Z"
                  },
                  "AppBytes": {
                    "type": "data",
                    "value": "3 bytes"
                  },
                  "AppList": {
                    "type": "array",
                    "value": "2 items"
                  },
                  "AppTable": {
                    "type": "dictionary",
                    "value": "1 entry"
                  }
                },
            """))
        let object = try EndToEnd.onlyReport(json.stdout)
        try Self.checkShape(object)
    }

    @Test func xmlCannotHoldAControlCharacter() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("escape.plist")
        let result = try EndToEnd.run(["rebuild", "--from", EndToEnd.partialName, "--url", "https://example.com/a",
                                       "--etag", "\"e\u{1b}\"", "--format", "xml", "-o", path])
        #expect(result == ToolRunner.Result(status: 1, stdout: "", stderr: "\(path): error: cannot write as xml: root.NSURLSessionResumeEntityTag: XML 1.0 cannot hold the control character U+001B in a string (use a binary property list)\n"))
        #expect(try folder.contents() == [])
    }

    /// Blob text is untrusted: control characters are shown escaped, never sent to the terminal.
    @Test func controlCharactersAreEscapedInText() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("escape.bplist")
        let made = try EndToEnd.run(["rebuild", "--from", EndToEnd.partialName, "--url", "https://example.com/a",
                                     "--etag", "\"e\u{1b}[2J\"", "--header", "X-Note: one\u{7}two",
                                     "--format", "binary", "-o", path])
        #expect(made == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
        let text = try EndToEnd.run(["inspect", path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("  entity tag:         \"e\\u{1b}[2J\"\n"))
        #expect(text.stdout.contains("    X-Note: one\\u{7}two\n"))
        #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x7 })
        // JSON keeps the exact value, escaped the JSON way.
        let json = try EndToEnd.run(["inspect", "--json", path])
        let object = try EndToEnd.onlyReport(json.stdout)
        #expect(object["entityTag"] as? String == "\"e\u{1b}[2J\"")
        let headers = try #require((object["currentRequest"] as? [String: Any])?["headers"] as? [String: String])
        #expect(headers["X-Note"] == "one\u{7}two")
    }

    /// A right-to-left override in a blob's URL would make `…/\u{202e}gpj.exe` read as `…/exe.jpg`; the
    /// bidirectional controls, the C1 controls and the line separators are shown escaped like
    /// the C0 ones.
    @Test func bidirectionalAndC1ControlsAreEscapedInText() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("bidi.bplist")
        var resume = ResumeData(container: .binary)
        resume.downloadURL = "https://example.com/\u{202E}gpj.exe"
        resume.bytesReceived = 4096
        resume.tempFileName = "CFNetworkDownload_\u{2066}x\u{2069}.tmp"
        resume.entityTag = "\"e\u{85}\u{9B}2J\u{2028}\""
        try resume.encoded(as: .binary).write(to: URL(fileURLWithPath: path))
        let text = try EndToEnd.run(["inspect", path])
        #expect(text.status == 0)
        #expect(text.stderr == "")
        #expect(text.stdout.contains("  download URL:       https://example.com/\\u{202e}gpj.exe\n"))
        #expect(text.stdout.contains("  temp file:          CFNetworkDownload_\\u{2066}x\\u{2069}.tmp\n"))
        #expect(text.stdout.contains("  entity tag:         \"e\\u{85}\\u{9b}2J\\u{2028}\"\n"))
        #expect(!text.stdout.unicodeScalars.contains { $0.value >= 0x80 && $0.value <= 0x9F || (0x2028...0x206F).contains($0.value) })
    }

    @Test(arguments: EndToEnd.unreadableSamples.map(\.name))
    func unreadableSampleGivesOneDiagnostic(_ sample: String) throws {
        let diagnostic = try #require(EndToEnd.unreadableSamples.first { $0.name == sample }?.diagnostic)
        for json in [false, true] {
            let result = try EndToEnd.run(["inspect"] + (json ? ["--json"] : []) + [sample])
            #expect(result == ToolRunner.Result(status: 2, stdout: json ? "[]\n" : "", stderr: diagnostic + "\n"))
        }
    }

    @Test func severalBlobsAsAJSONArrayInOrder() throws {
        let names = ["ios9-xml.plist", "ios12-keyed-archive.resumedata", "webkit-keyed-archive.plist", "binary-dictionary.bplist"]
        let result = try EndToEnd.run(["inspect", "--json"] + names)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["container"] as? String } == ["xml", "keyed-archive", "keyed-archive-xml", "binary"])
        for object in array { try Self.checkShape(object) }
        // Each element is exactly the one element inspecting that blob alone prints.
        let alone = try EndToEnd.run(["inspect", "--json", names[0]]).stdout
        #expect(alone.hasPrefix("[\n  {\n") && alone.hasSuffix("\n  }\n]\n"))
        #expect(result.stdout.contains(alone.dropFirst(2).dropLast(3)))
    }

    @Test func severalBlobsAsTextSeparatedByABlankLine() throws {
        let first = try EndToEnd.run(["inspect", "ios9-xml.plist"]).stdout
        let second = try EndToEnd.run(["inspect", "ios12-keyed-archive.resumedata"]).stdout
        let both = try EndToEnd.run(["inspect", "ios9-xml.plist", "ios12-keyed-archive.resumedata"])
        #expect(both == ToolRunner.Result(status: 0, stdout: first + "\n" + second, stderr: ""))
    }

    /// Past 64 KiB the text is written in chunks; the joins must not show.
    @Test func manyBlobsInOneCall() throws {
        let names = ["ios9-xml.plist", "ios12-keyed-archive.resumedata", "ios10-corrupted-requests.plist"]
        let alone = try names.map { try EndToEnd.run(["inspect", $0]).stdout }
        let arguments = (0..<90).map { names[$0 % names.count] }
        let result = try EndToEnd.run(["inspect"] + arguments)
        let expected = (0..<90).map { alone[$0 % names.count] }.joined(separator: "\n")
        #expect(expected.utf8.count > 1 << 16)
        #expect(result == ToolRunner.Result(status: 0, stdout: expected, stderr: ""))
    }

    @Test func anUnreadableBlobAmongOthersStillShowsTheOthers() throws {
        let good = try EndToEnd.run(["inspect", "ios9-xml.plist"]).stdout
        let result = try EndToEnd.run(["inspect", "broken-xml.plist", "ios9-xml.plist", "missing.plist"])
        #expect(result == ToolRunner.Result(
            status: 2, stdout: good,
            stderr: "broken-xml.plist:6:66: error: expected </string> (opened on line 6), found </key>\nmissing.plist: error: no such file\n"))

        let json = try EndToEnd.run(["inspect", "--json", "broken-xml.plist", "ios9-xml.plist"])
        #expect(json.status == 2)
        #expect(json.stderr == "broken-xml.plist:6:66: error: expected </string> (opened on line 6), found </key>\n")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 1)
        #expect(array.first?["container"] as? String == "xml")
    }

    @Test func standardInput() throws {
        let bytes = try EndToEnd.sample("ios12-keyed-archive.resumedata")
        let fromFile = try EndToEnd.run(["inspect", "ios12-keyed-archive.resumedata"]).stdout
        let result = try EndToEnd.run(["inspect", "-"], stdin: bytes)
        #expect(result == ToolRunner.Result(
            status: 0,
            stdout: fromFile.replacingOccurrences(of: "ios12-keyed-archive.resumedata:", with: "<stdin>:"),
            stderr: ""))
        let json = try EndToEnd.run(["inspect", "--json", "-"], stdin: bytes)
        #expect(json.stdout == (try EndToEnd.run(["inspect", "--json", "ios12-keyed-archive.resumedata"]).stdout))

        let empty = try EndToEnd.run(["inspect", "-"], stdin: Data())
        #expect(empty == ToolRunner.Result(
            status: 2, stdout: "",
            stderr: "<stdin>:1:1: error: the document is empty: expected <plist> or a value\n"))
    }

    @Test func missingFile() throws {
        let missing = try EndToEnd.run(["inspect", "no-such-blob.plist"])
        #expect(missing == ToolRunner.Result(status: 2, stdout: "", stderr: "no-such-blob.plist: error: no such file\n"))
        let two = try EndToEnd.run(["inspect", "--json", "no-such-blob.plist", "nor-this.plist"])
        #expect(two == ToolRunner.Result(
            status: 2, stdout: "[]\n",
            stderr: "no-such-blob.plist: error: no such file\nnor-this.plist: error: no such file\n"))
    }

    /// A diagnostic's file name goes through the same escaper as the reports: a name holding a
    /// right-to-left override or a line break cannot reorder or forge the line it is on.
    @Test func aDiagnosticShowsTheFileNameEscaped() throws {
        let missing = try EndToEnd.run(["inspect", "no-such-\u{202E}lmth.exe", "x\ny: error: forged"])
        #expect(missing == ToolRunner.Result(
            status: 2, stdout: "",
            stderr: #"no-such-\u{202e}lmth.exe: error: no such file"# + "\n" + #"x\ny: error: forged: error: no such file"# + "\n"))
    }

    /// A folder with no file directly inside gives a word and status 2, not silence and 0.
    @Test(arguments: ["inspect", "validate"])
    func aFolderWithNothingToReadSaysSo(command: String) throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.path("empty/sub"), withIntermediateDirectories: true)
        let result = try EndToEnd.run([command, folder.path("empty")])
        #expect(result == ToolRunner.Result(
            status: 2, stdout: "",
            stderr: "\(folder.path("empty")): error: no files directly inside this folder to read (its subfolders are not searched: "
                + "find FOLDER -type f | resumetool COMMAND --files-from - reads them)\n"))
    }
}
