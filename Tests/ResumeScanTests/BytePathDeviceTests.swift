import ResumeSystemCalls
import Testing

@testable import ResumeScan

/// A device path as a ``BytePath``, value by value: the `/.nofollow` prefix, `/var` as `/private/var`, and paths
/// read by their bytes (a combining mark after a `/` hides it from `String.hasPrefix`).
@Suite struct BytePathDeviceTests {
    @Test(arguments: [
        ("/.nofollow/private/var/a.tmp", "/private/var/a.tmp"),
        ("/.nofollow", ""),
        ("/.nofollow/", "/"),
        ("/.nofollowing/a.tmp", "/.nofollowing/a.tmp"),
        ("/.nofollow.tmp", "/.nofollow.tmp"),
        ("/private/.nofollow/a", "/private/.nofollow/a"),
        (".nofollow/a", ".nofollow/a"),
        ("/.nofollow/\u{301}x", "/\u{301}x"),
        ("", ""),
    ])
    func withoutNoFollow(path: String, expected: String) {
        #expect(BytePath(path).withoutNoFollow == BytePath(expected))
    }

    @Test func isAbsolute() {
        #expect(BytePath("/a").isAbsolute)
        #expect(BytePath("/").isAbsolute)
        // Swift joins the mark to the slash: one Character that is not "/".
        #expect(!"/\u{301}a".hasPrefix("/"))
        #expect(BytePath("/\u{301}a").isAbsolute)
        #expect(!BytePath("a/b").isAbsolute)
        #expect(!BytePath("").isAbsolute)
    }

    @Test(arguments: [
        ("/private/var/mobile/a.tmp", ["private", "var", "mobile", "a.tmp"]),
        ("/var/mobile/a.tmp", ["private", "var", "mobile", "a.tmp"]),
        ("/private/var/./mobile//a.tmp", ["private", "var", "mobile", "a.tmp"]),
        ("/./var/a", ["private", "var", "a"]),
        ("/private/var/mobile/../../etc/passwd", nil),
        ("/var/..", nil),
        ("/private/var", nil),
        ("/var/", nil),
        ("/private/tmp/a", nil),
        ("/Users/me/a", nil),
        ("private/var/a", nil),
        ("var/a", nil),
        ("/privatevar/a", nil),
        ("/var\u{301}/a", nil),
        ("/\u{301}var/a", nil),
    ] as [(String, [String]?)])
    func privateVarNames(path: String, expected: [String]?) {
        #expect(BytePath(path).privateVarNames == expected.map { $0.map { BytePath($0) } })
    }
}
