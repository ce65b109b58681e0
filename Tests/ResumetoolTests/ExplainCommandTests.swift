import Foundation
import Testing
@testable import ResumeDataCodec
@testable import ResumeReports

/// `resumetool explain` without the server: the verdict each of the blob's conditions leads to.
/// (With `--probe`: ResumeTransferTests' ExplainProbeTests.)
@Suite struct ExplainCommandTests {
    static func json(_ arguments: [String], stdin: Data? = nil, in directory: URL? = nil) throws -> (status: Int32, object: [String: Any]) {
        let result = try EndToEnd.run(["explain"] + arguments + ["--json"], stdin: stdin, in: directory)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        #expect(Set(object.keys) == ["verdict", "offset", "reasons", "checks"])
        for reason in object["reasons"] as? [[String: Any]] ?? [] {
            #expect(Set(reason.keys) == ["code", "message", "fix"])
        }
        for check in object["checks"] as? [[String: Any]] ?? [] {
            #expect(Set(check.keys) == ["code", "outcome", "message"])
        }
        return (result.status, object)
    }

    static func codes(_ object: [String: Any], _ key: String = "reasons") -> [String] {
        (object[key] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    static func outcomes(_ object: [String: Any]) -> [String: String] {
        var out: [String: String] = [:]
        for check in object["checks"] as? [[String: Any]] ?? [] {
            if let code = check["code"] as? String { out[code] = check["outcome"] as? String }
        }
        return out
    }

    @Test func aGoodBlobContinuesAtItsByteCount() throws {
        let result = try EndToEnd.run(["explain", "ios9-xml.plist", "--tmp-dir", "."])
        #expect(result == ToolRunner.Result(status: 0, stdout: """
            continue at byte 4096
            checks:
              pass    get: the request is GET
              pass    validator: ETag "5f1c3e-6a2f", Last-Modified Tue, 17 Nov 2026 09:12:44 GMT
              unknown ranges: no stored response says; --probe asks the server
              skipped unchanged: only the server can tell: --probe asks it
              pass    partial-file: ./CFNetworkDownload_Occ2S2.tmp has 4096 bytes, the blob says 4096

            """, stderr: ""))
        let (status, object) = try Self.json(["ios9-xml.plist"])
        #expect(status == 0)
        #expect(object["verdict"] as? String == "continue")
        #expect(object["offset"] as? Int == 4096)
        // The partial file is looked for beside the blob, as `resume` looks for it.
        #expect(Self.outcomes(object) == ["get": "pass", "validator": "pass", "ranges": "unknown", "unchanged": "skipped", "partial-file": "pass"])
        #expect(try EndToEnd.run(["explain", "ios9-xml.plist"]) == result)
        // From standard input the blob has no folder: the file is not looked for.
        let (_, piped) = try Self.json(["-"], stdin: try EndToEnd.sample("ios9-xml.plist"))
        #expect(Self.outcomes(piped)["partial-file"] == "skipped")
    }

    /// A blob whose partial file is not beside it: what `resume BLOB` would meet, said before it.
    @Test func thePartialFileIsLookedForBesideTheBlob() throws {
        let folder = try TemporaryDirectory()
        let blob = try folder.copySample("ios9-xml.plist")
        let alone = try Self.json([blob])
        #expect(alone.status == 1)
        #expect(Self.codes(alone.object) == ["temp-file-missing"])
        _ = try folder.copySample(EndToEnd.partialName)
        let beside = try Self.json([blob])
        #expect(beside.status == 0)
        #expect(Self.outcomes(beside.object)["partial-file"] == "pass")
    }

    @Test func iOS10RequestArchivesFailWithTheRepair() throws {
        let result = try EndToEnd.run(["explain", "ios10-corrupted-requests.plist"])
        #expect(result.status == 1)
        // The sample's partial file beside it is shorter than the blob says: a reason too.
        #expect(result.stdout.hasPrefix("fail: request archives that iOS 10.0/10.1 cannot read (error -3003); "))
        let (status, object) = try Self.json(["ios10-corrupted-requests.plist"])
        #expect(status == 1)
        #expect(object["verdict"] as? String == "fail")
        #expect(object["offset"] is NSNull)
        let reasons = try #require(object["reasons"] as? [[String: Any]])
        #expect(reasons.map { $0["code"] as? String } == ["ios10-request-archive", "ios10-request-archive", "temp-file-size"])
        #expect(reasons.first?["fix"] as? String == "resumetool repair ios10-corrupted-requests.plist --target ios10")
    }

    @Test func iOS11ByteRangeFailsWithTheRepair() throws {
        let (status, object) = try Self.json(["ios11-byte-range.plist"])
        #expect(status == 1)
        #expect(object["verdict"] as? String == "fail")
        let reasons = try #require(object["reasons"] as? [[String: Any]])
        #expect(reasons.map { $0["code"] as? String } == ["ios11-byte-range"])
        #expect(reasons.first?["fix"] as? String == "resumetool repair ios11-byte-range.plist --target ios11")
    }

    /// `resume` proves unvalidated bytes by their last 64 KiB and goes on: explain says what it does.
    @Test func noValidatorContinuesAfterComparingBytes() throws {
        let (status, object) = try Self.json(["broken-missing-validator.resumedata"])
        #expect(status == 0)
        #expect(object["verdict"] as? String == "continue")
        #expect(object["offset"] as? Int == 4096)
        #expect(Self.codes(object) == ["missing-validator"])
        let first = try #require((object["reasons"] as? [[String: Any]])?.first?["message"] as? String)
        #expect(first.hasSuffix("; " + ResumeExplanation.tailProof), "\(first)")
        #expect(Self.outcomes(object)["validator"] == "fail")
        let reasons = try #require(object["reasons"] as? [[String: Any]])
        #expect(reasons.first?["fix"] as? String
            == "resumetool rebuild --partial PARTIAL --url https://downloads.example.com/releases/Example-2.4.1.dmg --etag 'ETAG'")
    }

    @Test func aWeakETagAloneContinuesAfterComparingBytes() throws {
        var resume = try ResumeData(data: try EndToEnd.sample("ios9-xml.plist"))
        resume.entityTag = "W/\"weak\""
        resume.serverDownloadDate = nil
        let (status, object) = try Self.json(["-"], stdin: try resume.encoded())
        #expect(status == 0)
        #expect(object["verdict"] as? String == "continue")
        #expect(Self.codes(object) == ["weak-etag-only"])
    }

    /// A tag without its quotes, or of 200 KB, cannot go in If-Range: the bytes are compared,
    /// as resume does, and explain says which it is.
    @Test(arguments: [("v1", "not an entity-tag (it needs its quotes)"), ("\"" + String(repeating: "a", count: 200_000) + "\"", "longer than the 1024 bytes resumetool sends")])
    func anETagIfRangeCannotCarryContinuesAfterComparingBytes(tag: String, why: String) throws {
        var resume = try ResumeData(data: try EndToEnd.sample("ios9-xml.plist"))
        resume.entityTag = tag
        resume.serverDownloadDate = nil
        let (status, object) = try Self.json(["-"], stdin: try resume.encoded())
        #expect(status == 0)
        #expect(object["verdict"] as? String == "continue")
        #expect(Self.codes(object) == ["etag-not-sendable"])
        let message = try #require((object["reasons"] as? [[String: Any]])?.first?["message"] as? String)
        #expect(message.contains(", \(why), which If-Range cannot carry: " + ResumeExplanation.tailProof), "\(message.prefix(300))")
    }

    @Test func aBlobForAnotherURLSaysSoAndHowToFix() throws {
        var resume = try ResumeData(data: try EndToEnd.sample("ios9-xml.plist"))
        resume.downloadURL = "https://old.example.com/Example.dmg"
        let (status, object) = try Self.json(["-"], stdin: try resume.encoded())
        // Apple's reader takes the current request: the download continues, at that request's URL.
        #expect(status == 0)
        #expect(object["verdict"] as? String == "continue")
        let reasons = try #require(object["reasons"] as? [[String: Any]])
        #expect(reasons.map { $0["code"] as? String } == ["url-mismatch"])
        #expect((reasons.first?["message"] as? String)?.hasPrefix("NSURLSessionResumeCurrentRequest: the blob was made for another URL: ") == true)
        #expect(reasons.first?["fix"] as? String == "resumetool edit '<stdin>' --url NEW_URL")
    }

    @Test func aPostFails() throws {
        var resume = try ResumeData(data: try EndToEnd.sample("ios9-xml.plist"))
        var request = try #require(resume.currentRequest)
        request.httpMethod = "POST"
        try resume.setRequest(request, .current)
        let (status, object) = try Self.json(["-"], stdin: try resume.encoded())
        #expect(status == 1)
        #expect(object["verdict"] as? String == "fail")
        #expect(Self.codes(object) == ["unsupported-method"])
        #expect(Self.outcomes(object)["get"] == "fail")
    }

    @Test func thePartialFileMustExistAndBeLongEnough() throws {
        let folder = try TemporaryDirectory()
        // Missing.
        let missing = try Self.json(["ios9-xml.plist", "--tmp-dir", folder.url.path])
        #expect(missing.status == 1)
        #expect(missing.object["verdict"] as? String == "fail")
        #expect(Self.codes(missing.object) == ["temp-file-missing"])
        #expect(Self.outcomes(missing.object)["partial-file"] == "fail")
        let reasons = try #require(missing.object["reasons"] as? [[String: Any]])
        #expect(reasons.first?["fix"] as? String == "resumetool relocate ios9-xml.plist --temp-file NAME (the partial file's name now)")
        // Shorter than the blob says.
        try Data(count: 100).write(to: folder.url.appendingPathComponent(EndToEnd.partialName))
        let short = try Self.json(["ios9-xml.plist", "--tmp-dir", folder.url.path])
        #expect(short.status == 1)
        #expect(Self.codes(short.object) == ["temp-file-size"])
        // Longer: continues at the blob's count, the rest is fetched again.
        try Data(count: 5000).write(to: folder.url.appendingPathComponent("longer.tmp"))
        let longer = try Self.json(["ios9-xml.plist", "--partial", folder.path("longer.tmp")])
        #expect(longer.status == 0)
        #expect(longer.object["offset"] as? Int == 4096)
        #expect(Self.codes(longer.object) == ["temp-file-size"])
        // A folder where the file should be.
        let notAFile = try Self.json(["ios9-xml.plist", "--partial", folder.url.path])
        #expect(notAFile.status == 1)
        #expect(Self.codes(notAFile.object) == ["temp-file-missing"])
    }

    @Test(arguments: EndToEnd.networkSamples)
    func aNetworkFrameworkBlobContinuesAtItsFileSize(_ sample: String) throws {
        let folder = try TemporaryDirectory()
        try Data(count: 1234).write(to: folder.url.appendingPathComponent(EndToEnd.partialName))
        // From standard input: no folder to look in, so the offset is unknown.
        let unknown = try Self.json(["-"], stdin: try EndToEnd.sample(sample))
        #expect(unknown.status == 0)
        #expect(unknown.object["verdict"] as? String == "continue")
        #expect(unknown.object["offset"] is NSNull)
        #expect(Self.codes(unknown.object) == ["offset-from-partial-file"])
        let known = try Self.json([sample, "--partial", folder.path(EndToEnd.partialName)])
        #expect(known.status == 0)
        #expect(known.object["offset"] as? Int == 1234)
        let text = try EndToEnd.run(["explain", sample, "--partial", folder.path(EndToEnd.partialName)])
        #expect(text.stdout.hasPrefix("continue at byte 1234\n"))
    }

    @Test func everySampleGetsAVerdictAndTheExitStatusMatches() throws {
        for sample in EndToEnd.readableSamples {
            let (status, object) = try Self.json([sample])
            let verdict = try #require(object["verdict"] as? String)
            #expect(status == (verdict == "continue" ? 0 : 1), "\(sample)")
        }
    }

    @Test func unreadableBlobsExit2() throws {
        for (name, diagnostic) in EndToEnd.unreadableSamples {
            let result = try EndToEnd.run(["explain", name])
            #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: diagnostic + "\n"), "\(name)")
        }
    }

    @Test func usageErrors() throws {
        let both = try EndToEnd.run(["explain", "ios9-xml.plist", "--partial", "a", "--tmp-dir", "."])
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("Error: give at most one of --partial and --tmp-dir\n"))
        let noFolder = try EndToEnd.run(["explain", "ios9-xml.plist", "--tmp-dir", "no-such-folder"])
        #expect(noFolder.status == 64)
        #expect(noFolder.stderr.hasPrefix("Error: --tmp-dir no-such-folder is not a folder\n"))
        let trust = try EndToEnd.run(["explain", "ios9-xml.plist", "--insecure"])
        #expect(trust.status == 64)
        #expect(trust.stderr.hasPrefix("Error: --cacert and --insecure only go with --probe\n"))
    }

    @Test func anUnreadableCertificateFileExits2() throws {
        let result = try EndToEnd.run(["explain", "ios9-xml.plist", "--probe", "--cacert", "no-such.pem"])
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: "no-such.pem: error: cannot read the certificate file\n"))
    }
}
