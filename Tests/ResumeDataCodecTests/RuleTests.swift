import Foundation
import Testing
@testable import ResumeDataCodec

/// The rules every command carries out (``HTTPURL``, ``PartialFileResolution``, ``SHA256Hex``),
/// driven value by value, without I/O.
@Suite struct HTTPURLTests {
    @Test(arguments: [
        ("http://example.com/a.bin", "http", "example.com", 80),
        ("HTTPS://Example.COM:8443/x?y#z", "https", "example.com", 8443),
        ("https://[::1]/file", "https", "[::1]", 443),
        ("http://user:pw@127.0.0.1:1/", "http", "127.0.0.1", 1),
        ("http://a/%20b", "http", "a", 80),
    ])
    func accepted(_ text: String, _ scheme: String, _ host: String, _ port: Int) throws {
        let url = try HTTPURL(validating: text)
        #expect(url.string == text)
        #expect(url.scheme == scheme)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.url.absoluteString == text)
        #expect(HTTPURL.problemMessage(for: text) == nil)
    }

    /// What is printed of a URL: the password masked, everything else as given; an `@` or `:`
    /// in the path or query is not user information.
    @Test(arguments: [
        ("http://example.com/a.bin", "http://example.com/a.bin"),
        ("http://ann:s3cr3t@example.com/a", "http://ann:***@example.com/a"),
        ("https://ann:p%40ss:w@h:8443/", "https://ann:***@h:8443/"),
        ("http://ann@example.com/a", "http://ann@example.com/a"),
        ("http://:pw@example.com", "http://:***@example.com"),
        ("http://ann:@example.com/", "http://ann:***@example.com/"),
        ("http://example.com/a@b:c", "http://example.com/a@b:c"),
        ("http://example.com?x=a:b@c", "http://example.com?x=a:b@c"),
        ("http://example.com#u:p@h", "http://example.com#u:p@h"),
        ("http://u:p@[::1]:8080/x", "http://u:***@[::1]:8080/x"),
    ])
    func shownWithoutItsPassword(_ text: String, _ shown: String) throws {
        #expect(try HTTPURL(validating: text).shown == shown)
    }

    /// The login curl sends for a URL's user information: decoded, the password empty when absent.
    @Test func theLoginInAURL() throws {
        #expect(try HTTPURL(validating: "http://example.com/a").login == nil)
        #expect(try HTTPURL(validating: "http://ann:s3cr3t@example.com/a").login == "ann:s3cr3t")
        #expect(try HTTPURL(validating: "http://ann%40corp:p%3Aw%20d@h/").login == "ann@corp:p:w d")
        #expect(try HTTPURL(validating: "http://ann@h/").login == "ann:")
        #expect(try HTTPURL(validating: "http://h/a@b").login == nil)
    }

    @Test(arguments: [
        ("http://", HTTPURL.Problem.noHost),
        ("http:/a", .noHost),
        ("http:a", .noHost),
        ("http://a b/x", .space(offset: 8)),
        ("http://a/x y", .space(offset: 10)),
        (" http://a/", .space(offset: 0)),
        ("http://[::1/x", .malformed),
        ("", .malformed),
        ("example.com/file", .notAbsolute),
        ("/etc/passwd", .notAbsolute),
        ("ftp://example.com/file", .unsupportedScheme("ftp")),
        ("FILE:///etc/passwd", .unsupportedScheme("file")),
        ("javascript:alert(1)", .unsupportedScheme("javascript")),
        ("http://a:0/", .invalidPort),
        ("http://a:65536/", .invalidPort),
        ("http://a/x\r\nHost: evil", .controlCharacter(offset: 10)),
        ("http://a/\nx", .controlCharacter(offset: 9)),
        ("http://a/\0", .controlCharacter(offset: 9)),
        ("http://a/\t", .controlCharacter(offset: 9)),
        ("http://a/\u{7F}", .controlCharacter(offset: 9)),
        ("\nhttp://a/", .controlCharacter(offset: 0)),
    ])
    func refused(_ text: String, _ problem: HTTPURL.Problem) {
        #expect(throws: problem) { try HTTPURL(validating: text) }
        #expect(HTTPURL(text) == nil)
    }

    @Test func messagesEscapeControlCharacters() {
        #expect(HTTPURL.problemMessage(for: "http://a/x\r\nHost: evil")
            == #""http://a/x\r\nHost: evil" is not an absolute http or https URL: it holds a control character at byte 10"#)
        #expect(HTTPURL.problemMessage(for: "http://a/\u{1B}[2J") == #""http://a/\u{1b}[2J" is not an absolute http or https URL: it holds a control character at byte 9"#)
        #expect(HTTPURL.problemMessage(for: "ftp://x") == #""ftp://x" is not an absolute http or https URL: its scheme is "ftp""#)
        #expect(HTTPURL.problemMessage(for: "http://") == #""http://" is not an absolute http or https URL: it names no host"#)
        #expect(HTTPURL.problemMessage(for: "x") == #""x" is not an absolute http or https URL: it has no scheme"#)
        #expect(HTTPURL.problemMessage(for: "http://a b") == #""http://a b" is not an absolute http or https URL: it holds a space at byte 8"#)
        #expect(HTTPURL.problemMessage(for: "http://[::1") == #""http://[::1" is not an absolute http or https URL: it is not a valid URL"#)
        #expect(HTTPURL.problemMessage(for: "http://a:99999") == #""http://a:99999" is not an absolute http or https URL: its port is not from 1 to 65535"#)
    }
}

@Suite struct PartialFileResolutionTests {
    typealias Candidate = PartialFileResolution.Candidate
    static let temp = "NSURLSessionResumeInfoTempFileName"
    static let local = "NSURLSessionResumeInfoLocalPath"

    @Test func candidatesAreBareNamesDirectlyInsideTheFolder() {
        func names(_ temp: String?, _ local: String?, _ folder: String = "/data/in") -> [String] {
            PartialFileResolution(tempFileName: temp, localPath: local, folder: folder).candidates.map(\.name)
        }
        #expect(names("CFNetworkDownload_a.tmp", nil) == ["CFNetworkDownload_a.tmp"])
        // A device's LocalPath names another file system: its file name is looked for here.
        #expect(names(nil, "/private/var/mobile/Containers/Data/Application/X/tmp/CFNetworkDownload_b.tmp") == ["CFNetworkDownload_b.tmp"])
        #expect(names(nil, "/data/in/sub/../x.part") == ["x.part"])
        #expect(names("a", "/elsewhere/b") == ["a", "b"])
        #expect(names("a", "/data/in/a") == ["a"])
        // Anything with a folder part, `.`, `..` or nothing at all is never a candidate.
        #expect(names("../../etc/passwd", nil) == [])
        #expect(names("/etc/passwd", nil) == [])
        #expect(names("sub/x", nil) == [])
        #expect(names("..", nil) == [])
        #expect(names(".", nil) == [])
        #expect(names("", nil) == [])
        #expect(names(nil, "x.part") == [])
        #expect(names(nil, "/data/in/..") == [])
        #expect(names(nil, "/data/in/.") == [])
        #expect(names(nil, "/") == [])
        #expect(names(nil, nil) == [])
    }

    @Test func rejectedNamesSayWhy() {
        let resolution = PartialFileResolution(tempFileName: "../x", localPath: "rel/y", folder: "/data/in")
        #expect(resolution.rejected == [
            #"NSURLSessionResumeInfoTempFileName "../x" is not a bare file name"#,
            #"NSURLSessionResumeInfoLocalPath "rel/y" is not an absolute path"#,
        ])
        #expect(PartialFileResolution(tempFileName: nil, localPath: "/data/in/..", folder: "/").rejected
            == [#"NSURLSessionResumeInfoLocalPath "/data/in/.." does not end in a file name"#])
    }

    @Test func pathsKeepTheFolderAsSpelled() {
        #expect(PartialFileResolution(tempFileName: "a", localPath: nil, folder: "/").path(of: "a") == "/a")
        #expect(PartialFileResolution(tempFileName: "a", localPath: nil, folder: "/data/in").path(of: "a") == "/data/in/a")
        #expect(PartialFileResolution(tempFileName: "a", localPath: nil, folder: "/data/in/").path(of: "a") == "/data/in/a")
        #expect(PartialFileResolution(tempFileName: "a", localPath: nil, folder: "./tree/tmp").path(of: "a") == "./tree/tmp/a")
    }

    @Test func theFirstCandidateThatExistsDecides() {
        let resolution = PartialFileResolution(tempFileName: "a", localPath: "/device/tmp/b", folder: "/in")
        var asked: [String] = []
        func lookUp(_ table: [String: PartialFileResolution.Entry]) -> PartialFileResolution.Verdict {
            asked = []
            return resolution.resolve { path in
                asked.append(path)
                return table[path] ?? .missing
            }
        }
        #expect(lookUp(["/in/a": .regularFile(size: 5), "/in/b": .regularFile(size: 9)]) == .file(path: "/in/a", size: 5, key: Self.temp))
        #expect(asked == ["/in/a"])
        #expect(lookUp(["/in/b": .regularFile(size: 9)]) == .file(path: "/in/b", size: 9, key: Self.local))
        #expect(asked == ["/in/a", "/in/b"])
        // A folder, a link or a FIFO under the first name that exists stops the search: nothing may touch it.
        #expect(lookUp(["/in/a": .other("a folder"), "/in/b": .regularFile(size: 9)])
            == .refused(path: "/in/a", key: Self.temp, reason: "it is a folder, not a regular file"))
        #expect(lookUp(["/in/b": .other("a symbolic link")])
            == .refused(path: "/in/b", key: Self.local, reason: "it is a symbolic link, not a regular file"))
        #expect(lookUp([:]) == .missing(expected: ("/in/a", Self.temp)))
        #expect(PartialFileResolution(tempFileName: "../a", localPath: nil, folder: "/in").resolve { _ in .regularFile(size: 1) } == .missing(expected: nil))
    }

    @Test func theLookUpTellsKindsApart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolution-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/Library", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("12345".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/file")
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        #expect(PartialFileResolution.entry(at: folder + "/file") == .regularFile(size: 5))
        #expect(PartialFileResolution.entry(at: folder + "/Library") == .other("a folder"))
        #expect(PartialFileResolution.entry(at: folder + "/link") == .other("a symbolic link"))
        #expect(PartialFileResolution.entry(at: folder + "/fifo") == .other("a FIFO"))
        #expect(PartialFileResolution.entry(at: folder + "/none") == .missing)
    }
}

@Suite struct SHA256HexTests {
    @Test func sixtyFourASCIIHexDigitsInEitherCase() {
        let upper = String(repeating: "AB", count: 32)
        #expect(SHA256Hex(upper)?.text == String(repeating: "ab", count: 32))
        #expect(SHA256Hex(String(repeating: "0f", count: 32))?.text == String(repeating: "0f", count: 32))
        #expect(SHA256Hex(upper) == SHA256Hex(upper.lowercased()))
        for bad in ["", "abc", String(repeating: "a", count: 63), String(repeating: "a", count: 65), String(repeating: "g", count: 64),
                    String(repeating: "\u{FF11}", count: 64), String(repeating: "a", count: 63) + " ", " " + String(repeating: "a", count: 63)] {
            #expect(SHA256Hex(bad) == nil, "\(bad)")
        }
    }

    @Test func aDigestIsSpelledInLowerCase() {
        #expect(SHA256Hex(digest: [0x00, 0x0F, 0xA5, 0xFF]).text == "000fa5ff")
        #expect(SHA256Hex(digest: [UInt8](repeating: 0xAB, count: 32)).description == String(repeating: "ab", count: 32))
    }
}

/// Which `ETag` is strong: the one rule `If-Range`, the splice check and `explain` share.
@Suite struct EntityTagTests {
    @Test(arguments: [
        ("\"a\"", true),
        ("\"afda885a630e48ae4a3bedd3d0bc7094\"", true),
        // An empty opaque-tag in its quotes is a tag (RFC 9110 §8.8.3).
        ("\"\"", true),
        // Servers that leave the quotes off: the tag is still compared byte for byte.
        ("abc", true),
        ("w/\"a\"", true),
        ("W/\"a\"", false),
        ("W/\"\"", false),
        ("W/", false),
        ("", false),
    ])
    func strength(_ tag: String, _ strong: Bool) {
        #expect(EntityTag.isStrong(tag) == strong)
    }

    @Test func noTagIsNotStrong() {
        #expect(!EntityTag.isStrong(nil))
    }

    /// What `If-Range` may carry: a strong tag in its quotes, etagc bytes only, 1024 bytes at most.
    @Test(arguments: [
        ("\"a\"", true),
        ("\"\"", true),
        ("\"caf\u{e9}\"", true),
        ("\"!#~\"", true),
        ("\"" + String(repeating: "x", count: 1022) + "\"", true),
        ("\"" + String(repeating: "x", count: 1023) + "\"", false),
        ("v1", false),
        ("\"v1", false),
        ("v1\"", false),
        ("\"", false),
        ("\"a\"b\"", false),
        ("\"a b\"", false),
        ("\"a\u{7f}\"", false),
        ("W/\"a\"", false),
        ("", false),
    ])
    func ifRange(_ tag: String, _ sendable: Bool) {
        #expect(EntityTag.canGoInIfRange(tag) == sendable)
    }
}
