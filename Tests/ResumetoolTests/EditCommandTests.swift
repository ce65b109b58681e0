import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool edit`: a new URL and headers, only those fields changed, in every container.
@Suite struct EditCommandTests {
    static let newURL = "https://mirror.example.net/new/Example.dmg?sig=2"
    static let edit = ["--url", newURL, "--header", "X-Trace: t1", "--remove-header", "accept-language"]

    /// Every readable sample in its own container and in each classic one.
    static var inputs: [(sample: String, container: String?)] {
        EndToEnd.readableSamples.flatMap { sample in
            [(sample, nil)] + ["xml", "binary", "keyed-archive", "keyed-archive-xml"].map { (sample, $0) }
        }
    }

    /// Writes a sample in a container (or as it is) into `folder`.
    static func input(_ sample: String, _ container: String?, in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("\(sample).\(container ?? "own")")
        if let container {
            let converted = try EndToEnd.run(["convert", sample, "--to", container, "-o", path])
            #expect(converted.status == 0, "\(converted.stderr)")
        } else {
            try EndToEnd.sample(sample).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    static func inspectJSON(_ path: String) throws -> [String: Any] {
        let result = try EndToEnd.run(["inspect", "--json", path])
        #expect(result.status == 0)
        return try EndToEnd.onlyReport(result.stdout)
    }

    @Test(arguments: EditCommandTests.inputs.map { "\($0.sample)|\($0.container ?? "")" })
    func onlyTheAskedFieldsChange(_ argument: String) throws {
        let parts = argument.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let (sample, container) = (parts[0], parts[1].isEmpty ? nil : parts[1])
        let folder = try TemporaryDirectory()
        let input = try Self.input(sample, container, in: folder)
        let output = folder.path("edited")
        let result = try EndToEnd.run(["edit", input] + Self.edit + ["-o", output])
        #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""))

        let before = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: input)))
        let after = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(after.container == before.container)
        // Every key but the three the edit is about holds the same value.
        let changed: Set<String> = [ResumeDataKey.downloadURL, ResumeDataKey.currentRequest, ResumeDataKey.originalRequest]
        // A blob with neither a download URL nor a request gets the URL as its download URL.
        let addsURL = before.entries[ResumeDataKey.downloadURL] == nil && before.currentRequest == nil && before.originalRequest == nil
        #expect(Array(after.entries.keys) == Array(before.entries.keys) + (addsURL ? [ResumeDataKey.downloadURL] : []))
        if addsURL { #expect(after.downloadURL == Self.newURL) }
        for (key, value) in before.entries where !changed.contains(key) {
            #expect(after.entries[key] == value, "\(key)")
        }
        for kind in ResumeData.RequestKind.allCases {
            guard let old = try before.request(kind) else {
                #expect(try after.request(kind) == nil)
                continue
            }
            let new = try #require(try after.request(kind))
            #expect(new.urlString == Self.newURL)
            #expect(new.layout == old.layout)
            #expect(new.topKey == old.topKey)
            let expected = old.headers.filter { $0.name.lowercased() != "accept-language" } + [(name: "X-Trace", value: "t1")]
            #expect(new.headers.map { "\($0.name): \($0.value)" } == expected.map { "\($0.name): \($0.value)" })
            // Everything else of the request as it was.
            var rest = new
            rest.urlString = old.urlString
            rest.headers = old.headers
            // A request archived without the HTTP items (16 of them) gets them up to the header
            // fields, as nil.
            if old.items.count < rest.items.count {
                #expect(rest.items[old.items.count...].allSatisfy { $0 == .reference(.null) }, "\(kind)")
                rest.items = Array(rest.items.prefix(old.items.count))
                rest.itemCount = old.itemCount
            }
            #expect(rest == old, "\(kind)")
        }

        // inspect --json: the new URL and headers, every other field identical.
        var old = try Self.inspectJSON(input)
        var new = try Self.inspectJSON(output)
        if old["downloadURL"] is String { #expect(new["downloadURL"] as? String == Self.newURL) }
        for kind in ["currentRequest", "originalRequest"] {
            guard var oldRequest = old[kind] as? [String: Any], var newRequest = new[kind] as? [String: Any] else {
                #expect((old[kind] is NSNull) == (new[kind] is NSNull))
                continue
            }
            #expect(newRequest["url"] as? String == Self.newURL)
            var headers = try #require(oldRequest["headers"] as? [String: String])
            headers = headers.filter { $0.key.lowercased() != "accept-language" }
            headers["X-Trace"] = "t1"
            #expect(newRequest["headers"] as? [String: String] == headers)
            for field in ["url", "headers"] {
                oldRequest[field] = nil
                newRequest[field] = nil
            }
            #expect(NSDictionary(dictionary: newRequest) == NSDictionary(dictionary: oldRequest), "\(kind)")
            old[kind] = nil
            new[kind] = nil
        }
        for key in ["downloadURL", "findings"] {
            old[key] = nil
            new[key] = nil
        }
        #expect(NSDictionary(dictionary: new) == NSDictionary(dictionary: old))
    }

    /// Python's plistlib, reading the outer dictionary and the request archives by hand, sees the
    /// same keys and values but the URL and headers.
    static let script = #"""
        import base64, json, plistlib, sys

        def index(reference):
            if isinstance(reference, dict) and list(reference) == ["CF$UID"]: return reference["CF$UID"]
            return reference.data

        def dictionary(top):
            if "$archiver" not in top: return list(top.items())
            objects = top["$objects"]
            (_, root), = top["$top"].items()
            root = objects[index(root)]
            return [(objects[index(k)], objects[index(v)]) for k, v in zip(root["NS.keys"], root["NS.objects"])]

        def request(data):
            archive = plistlib.loads(data)
            objects = archive["$objects"]
            (_, root), = archive["$top"].items()
            root = objects[index(root)]
            def item(i):
                key = "__nsurlrequest_proto_prop_obj_%d" % i
                return root.get(key, root.get("$%d" % (i + 3)))
            url = objects[index(objects[index(item(1))]["NS.relative"])]
            # A request without the HTTP items has no header fields.
            fields = "$null" if item(19) is None else objects[index(item(19))]
            headers = [] if fields == "$null" else [
                [objects[index(k)], objects[index(v)]] for k, v in zip(fields["NS.keys"], fields["NS.objects"])]
            return {"url": url, "headers": headers}

        result = {}
        for path in sys.argv[1:]:
            with open(path, "rb") as file:
                entries = dictionary(plistlib.load(file))
            out = {"entries": {}, "requests": {}}
            for key, value in entries:
                if key in ("NSURLSessionResumeCurrentRequest", "NSURLSessionResumeOriginalRequest"):
                    out["requests"][key] = request(value)
                else:
                    out["entries"][key] = base64.b64encode(value).decode() if isinstance(value, bytes) else repr(value)
            result[path] = out
        print(json.dumps(result))
        """#

    @Test func plistlibSeesOnlyTheAskedChanges() throws {
        let folder = try TemporaryDirectory()
        var pairs: [(input: String, output: String)] = []
        for sample in EndToEnd.readableSamples where !EndToEnd.networkSamples.contains(sample) {
            for container in [nil, "xml", "binary", "keyed-archive", "keyed-archive-xml"] {
                let input = try Self.input(sample, container, in: folder)
                let output = input + ".edited"
                #expect(try EndToEnd.run(["edit", input] + Self.edit + ["-o", output]).status == 0)
                pairs.append((input, output))
            }
        }
        let run = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"),
                                         ["python3", "-c", Self.script] + pairs.flatMap { [$0.input, $0.output] })
        #expect(String(decoding: run.stderr, as: UTF8.self) == "")
        let seen = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: [String: Any]])
        for (input, output) in pairs {
            let old = try #require(seen[input]), new = try #require(seen[output])
            var oldEntries = try #require(old["entries"] as? [String: String])
            var newEntries = try #require(new["entries"] as? [String: String])
            if oldEntries[ResumeDataKey.downloadURL] != nil {
                #expect(newEntries[ResumeDataKey.downloadURL] == "'\(Self.newURL)'", "\(output)")
            }
            oldEntries[ResumeDataKey.downloadURL] = nil
            newEntries[ResumeDataKey.downloadURL] = nil
            #expect(newEntries == oldEntries, "\(output)")
            let oldRequests = try #require(old["requests"] as? [String: [String: Any]])
            let newRequests = try #require(new["requests"] as? [String: [String: Any]])
            #expect(Set(newRequests.keys) == Set(oldRequests.keys))
            for (key, request) in oldRequests {
                let edited = try #require(newRequests[key])
                #expect(edited["url"] as? String == Self.newURL, "\(output) \(key)")
                let headers = try #require(request["headers"] as? [[String]])
                let expected = headers.filter { $0.first?.lowercased() != "accept-language" } + [["X-Trace", "t1"]]
                #expect(edited["headers"] as? [[String]] == expected, "\(output) \(key)")
            }
        }
    }

    /// The iOS 10.1 device's own request archives (Fixtures/real): still in the layout and under
    /// the top key that device wrote, so the blob stays what it was for iOS 10.
    @Test func theRealIOS10RequestsKeepTheirLayout() throws {
        let real = EndToEnd.fixtures.appendingPathComponent("real")
        var resume = ResumeData(container: .xml)
        resume.infoVersion = 2
        resume.downloadURL = "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg"
        resume.bytesReceived = 4096
        resume.tempFileName = EndToEnd.partialName
        resume.entityTag = "\"e\""
        resume.entries[ResumeDataKey.currentRequest] = .data(try Data(contentsOf: real.appendingPathComponent("ios10.1-current-request.bplist")))
        resume.entries[ResumeDataKey.originalRequest] = .data(try Data(contentsOf: real.appendingPathComponent("ios10.1-original-request.bplist")))
        // Safari's archived response of 2020 (with CFNetwork's hidden __hhaa__ entry), byte for byte.
        let response = try Data(contentsOf: real.appendingPathComponent("response-2020-http-secure.bplist"))
        resume.entries[ResumeDataKey.response] = .data(response)
        let folder = try TemporaryDirectory()
        let input = folder.path("ios10.plist")
        try resume.encoded().write(to: URL(fileURLWithPath: input))
        let result = try EndToEnd.run(["edit", input, "--url", Self.newURL])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let edited = try ResumeData(data: Data(result.stdout.utf8))
        #expect(edited.container == .xml)
        #expect(edited.entries[ResumeDataKey.response] == .data(response))
        for kind in ResumeData.RequestKind.allCases {
            let old = try #require(try resume.request(kind))
            let new = try #require(try edited.request(kind))
            #expect(new.layout == .secure)
            #expect(new.topKey == "NSKeyedArchiveRootObjectKey")
            #expect(new.urlString == Self.newURL)
            var rest = new
            rest.urlString = old.urlString
            #expect(rest == old)
        }
        // validate still finds the iOS 10 corruption it had, and nothing new.
        let validated = try EndToEnd.run(["validate", input])
        let revalidated = try EndToEnd.run(["validate", "-"], stdin: Data(result.stdout.utf8))
        #expect(revalidated.stdout.replacingOccurrences(of: "<stdin>", with: input) == validated.stdout)
    }

    /// A blob with credentials (as `rebuild --header` writes it), moved to another origin.
    static func blobWithCredentials(in folder: TemporaryDirectory, format: String = "xml") throws -> String {
        let path = folder.path("creds.\(format)")
        let rebuilt = try EndToEnd.run([
            "rebuild", "--from", EndToEnd.partialName, "--url", EndToEnd.url, "--etag", "\"e\"",
            "--header", "Authorization: Bearer x", "--header", "Cookie: a=b", "--header", "X-Keep: k",
            "--format", format, "-o", path])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        return path
    }

    @Test(arguments: ["xml", "keyed-archive"])
    func anotherOriginDropsTheCredentialsAndSaysSo(_ format: String) throws {
        let folder = try TemporaryDirectory()
        let input = try Self.blobWithCredentials(in: folder, format: format)
        let output = folder.path("out")
        let result = try EndToEnd.run(["edit", input, "--url", Self.newURL, "-o", output])
        #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: """
            \(input): note: the new URL's origin (https://mirror.example.net:443) differs from the old one: dropped Authorization, Cookie from the requests; give them again with --header to keep them

            """))
        let edited = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(edited.originalRequest?.headers.map(\.name) == ["X-Keep"])
        #expect(edited.currentRequest?.headers.map(\.name) == ["X-Keep", "Range"])

        // Given again, a credential stays (with its new value) and is not reported.
        let again = try EndToEnd.run(["edit", input, "--url", Self.newURL, "--header", "authorization: Bearer y", "-o", output])
        #expect(again.stderr == """
            \(input): note: the new URL's origin (https://mirror.example.net:443) differs from the old one: dropped Cookie from the requests; give them again with --header to keep them

            """)
        let kept = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(kept.originalRequest?.headers.map { "\($0.name): \($0.value)" } == ["authorization: Bearer y", "X-Keep: k"])
        #expect(kept.currentRequest?.headers.map { "\($0.name): \($0.value)" } == ["authorization: Bearer y", "X-Keep: k", "Range: bytes=4096-"])
    }

    @Test func theSameOriginKeepsTheCredentials() throws {
        let folder = try TemporaryDirectory()
        let input = try Self.blobWithCredentials(in: folder)
        // Same scheme, host and port (443 spelled out): another path and query only.
        let result = try EndToEnd.run(["edit", input, "--url", "https://DOWNLOADS.example.com:443/other.dmg?sig=3"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let edited = try ResumeData(data: Data(result.stdout.utf8))
        #expect(edited.originalRequest?.headers.map(\.name) == ["Authorization", "Cookie", "X-Keep"])
        #expect(edited.downloadURL == "https://DOWNLOADS.example.com:443/other.dmg?sig=3")
    }

    @Test func headersAloneLeaveTheURLAndTheOtherRequestBytes() throws {
        let folder = try TemporaryDirectory()
        let input = try Self.blobWithCredentials(in: folder)
        let result = try EndToEnd.run(["edit", input, "--remove-header", "COOKIE", "--header", "X-Keep: new"])
        #expect(result.status == 0)
        let before = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: input)))
        let after = try ResumeData(data: Data(result.stdout.utf8))
        #expect(after.downloadURL == EndToEnd.url)
        #expect(after.originalRequest?.headers.map { "\($0.name): \($0.value)" } == ["Authorization: Bearer x", "X-Keep: new"])
        #expect(after.currentRequest?.urlString == EndToEnd.url)
        #expect(after.bytesReceived == before.bytesReceived)
        // An edit that changes nothing in a request leaves its bytes alone.
        let same = try EndToEnd.run(["edit", input, "--remove-header", "X-Absent"])
        #expect(try ResumeData(data: Data(same.stdout.utf8)).entries == before.entries)
    }

    @Test func aNetworkFrameworkBlobStaysOne() throws {
        for sample in EndToEnd.networkSamples {
            let folder = try TemporaryDirectory()
            let output = folder.path("out")
            let result = try EndToEnd.run(["edit", sample, "--url", Self.newURL, "-o", output])
            #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(Array(bytes.prefix(8)) == ResumeData.obscuredMagic || sample == "nwurlsession-webkit.resumedata")
            let before = try ResumeData(data: try EndToEnd.sample(sample))
            let after = try ResumeData(data: bytes)
            #expect(after.container == before.container)
            #expect(after.networkLayout == before.networkLayout)
            #expect(after.currentRequest?.urlString == Self.newURL)
            #expect(after.originalRequest?.urlString == Self.newURL)
            #expect(after.downloadURL == Self.newURL)
            #expect(after.response == before.response)
            #expect(after.otherEntries == before.otherEntries)
            #expect(after.tempFileName == before.tempFileName && after.localPath == before.localPath)
        }
    }

    static let usage = """
        Usage: resumetool edit <blob> [--url <url>] [--header <header> ...] [--remove-header <name> ...] [--request-url <url>] [--upload-file <path>] [--output <output>] [--strict]
          See 'resumetool edit --help' for more information.

        """

    @Test(arguments: [
        ("ftp://x/y", #""ftp://x/y" is not an absolute http or https URL: its scheme is "ftp""#),
        ("/relative", #""/relative" is not an absolute http or https URL: it has no scheme"#),
        ("http://", #""http://" is not an absolute http or https URL: it names no host"#),
        ("http://h:70000/", #""http://h:70000/" is not an absolute http or https URL: its port is not from 1 to 65535"#),
        ("http://h/a b", #""http://h/a b" is not an absolute http or https URL: it holds a space at byte 10"#),
        ("http://h/\r\nX: y", #""http://h/\r\nX: y" is not an absolute http or https URL: it holds a control character at byte 9"#),
        ("http://[::1/", #""http://[::1/" is not an absolute http or https URL: it is not a valid URL"#),
    ])
    func badURLsAreUsageErrors(_ url: String, _ message: String) throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("out")
        let result = try EndToEnd.run(["edit", "ios9-xml.plist", "--url", url, "-o", output])
        #expect(result == ToolRunner.Result(status: 64, stdout: "", stderr: "Error: \(message)\n" + Self.usage))
        #expect(!folder.exists("out"))
    }

    @Test(arguments: [
        (["--header", "X-A: 1\r\nX-B: 2"], "--header: the value of X-A holds a line break or NUL"),
        (["--header", "X-A 1"], "--header: 'X-A 1' is not 'Name: value'"),
        (["--header", "X A: 1"], "--header: 'X A' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
        (["--header", ": 1"], "--header: '' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"),
        (["--remove-header", "X-A\r\n"], #"--remove-header: 'X-A\r\n' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"#),
        ([], "give at least one of --url, --header, --remove-header, --request-url and --upload-file"),
    ])
    func badHeadersAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let result = try EndToEnd.run(["edit", "ios9-xml.plist"] + arguments)
        #expect(result == ToolRunner.Result(status: 64, stdout: "", stderr: "Error: \(message)\n" + Self.usage))
    }

    @Test func aHeaderBothSetAndRemovedIsAUsageError() throws {
        let result = try EndToEnd.run(["edit", "ios9-xml.plist", "--header", "X-A: 1", "--remove-header", "x-a"])
        #expect(result == ToolRunner.Result(status: 64, stdout: "", stderr: """
            Error: the header X-A is both set and removed
              See 'resumetool edit --help' for more information.

            """))
    }

    @Test func unreadableBlobsExit2AndWriteNothing() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("out")
        for (name, diagnostic) in EndToEnd.unreadableSamples {
            let result = try EndToEnd.run(["edit", name, "--url", Self.newURL, "-o", output])
            #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: diagnostic + "\n"), "\(name)")
        }
        let missing = try EndToEnd.run(["edit", "no-such.plist", "--url", Self.newURL, "-o", output])
        #expect(missing == ToolRunner.Result(status: 2, stdout: "", stderr: "no-such.plist: error: no such file\n"))
        #expect(try folder.contents() == [])
    }

    @Test func anUndecodableRequestIsAnErrorNotALoss() throws {
        var resume = try ResumeData(data: try EndToEnd.sample("ios9-xml.plist"))
        resume.entries[ResumeDataKey.currentRequest] = .data(Data("not an archive".utf8))
        let result = try EndToEnd.run(["edit", "-", "--url", Self.newURL], stdin: try resume.encoded())
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("<stdin>: error: NSURLSessionResumeCurrentRequest: "))
    }
}
