@testable import ResumeSystemCalls
import Testing

/// The package's one path value (``BytePath``), value by value: POSIX `dirname(3)`/`basename(3)` and the lexical
/// clean-up `URL.standardizedFileURL` makes, for every shape an argument or a blob can take,
/// the one-character names Foundation traps on among them.
@Suite struct BytePathTests {
    @Test(arguments: [
        ("a", "."), ("-", "."), (".", "."), ("..", "."), ("", "."), ("ab", "."),
        ("a/", "."), ("/a", "/"), ("/", "/"), ("//", "/"), ("///a", "/"),
        ("x/a", "x"), ("x//a", "x"), ("x/a/", "x"), ("/x/y/a", "/x/y"), ("./a", "."), ("../a", ".."),
        ("x/\n", "x"), ("é/ü", "é"),
        // A name that begins with a combining mark: `String` joins it to the `/` before it.
        ("x/\u{301}a", "x"), ("\u{301}/a", "\u{301}"), ("/x/\u{301}", "/x"),
    ])
    func folder(_ path: String, _ folder: String) {
        #expect(BytePath(path).folder == BytePath(folder))
    }

    @Test(arguments: [
        ("a", "a"), ("-", "-"), (".", "."), ("..", ".."), ("", "."), ("a/", "a"), ("a//", "a"),
        ("/a", "a"), ("/", "/"), ("//", "/"), ("x/a", "a"), ("/x/y/name.part", "name.part"),
        ("x/\n", "\n"), ("é/ü", "ü"),
        ("x/\u{301}a", "\u{301}a"), ("/x/\u{301}/", "\u{301}"),
    ])
    func lastName(_ path: String, _ name: String) {
        #expect(BytePath(path).lastName == BytePath(name))
    }

    @Test(arguments: [
        ("a", "/w/d/a"), ("-", "/w/d/-"), (".", "/w/d"), ("..", "/w"), ("", "/w/d"), ("../../..", "/"),
        ("./x/../y/", "/w/d/y"), ("x//y", "/w/d/x/y"), ("/abs/./p", "/abs/p"), ("/..", "/"), ("/", "/"),
        ("//a/b/../c", "/a/c"),
        ("x/../\u{301}y", "/w/d/\u{301}y"), ("\u{301}/../y", "/w/d/y"),
    ])
    func absolute(_ path: String, _ absolute: String) {
        #expect(BytePath(path).absolute(in: "/w/d") == BytePath(absolute))
    }

    @Test(arguments: [
        ("/a//b/", false, ["a", "b"]), ("/a//b/", true, ["", "a", "", "b", ""]), ("", false, []),
        ("x/\u{301}y/..", false, ["x", "\u{301}y", ".."]), ("caf\u{e9}/cafe\u{301}", false, ["caf\u{e9}", "cafe\u{301}"]),
    ])
    func names(_ path: String, _ keepingEmpty: Bool, _ names: [String]) {
        // As bytes: `==` on the strings would take `caf\u{e9}` and `cafe\u{301}` for one.
        #expect(BytePath(path).names(keepingEmpty: keepingEmpty) == names.map { BytePath($0) })
    }

    @Test(arguments: [
        ("DIR/", "DIR"), ("DIR", "DIR"), ("DIR///", "DIR"), ("/", "/"), ("///", "/"), ("", ""), ("/a/", "/a"),
        // The slash and a combining mark after it are one `Character`: not a trailing slash.
        ("x/\u{301}", "x/\u{301}"), ("x\u{301}/", "x\u{301}"),
    ])
    func trailingSlashes(_ path: String, _ trimmed: String) {
        #expect(BytePath(path).trimmingTrailingSlashes == BytePath(trimmed))
    }

    @Test func theFirstNameIsCutAtTheFirstSlashByte() {
        #expect(BytePath("AppDomain-x/\u{301}a/b").firstNameAndRest.map { [$0.first, $0.rest] } == ["AppDomain-x", BytePath("\u{301}a/b")])
        #expect(BytePath("name").firstNameAndRest == nil)
    }

    @Test func aRelativePathIsTakenFromTheWorkingFolder() {
        let folder = BytePath.workingFolder()
        #expect(folder.isAbsolute)
        #expect(BytePath("a").absolute == BytePath("a").absolute(in: folder))
    }

    /// Bytes that are not UTF-8 are a path's own: two Latin-1 names that would both decode to
    /// U+FFFD stay two paths, and sort by their bytes.
    @Test func bytesThatAreNotUTF8AreKept() {
        let e9 = BytePath(bytes: Array("ev/caf".utf8) + [0xE9, UInt8(ascii: "/")] + Array("x".utf8))
        let ff = BytePath(bytes: Array("ev/caf".utf8) + [0xFF, UInt8(ascii: "/")] + Array("x".utf8))
        #expect(e9 != ff)
        #expect(e9.text == ff.text)
        #expect(e9 < ff)
        #expect(Set([e9, ff, e9]).count == 2)
        #expect(e9.folder.lastName.bytes == Array("caf".utf8) + [0xE9])
        #expect(e9.folder.appending("y").bytes == Array("ev/caf".utf8) + [0xE9] + Array("/y".utf8))
    }

    /// Canonically equivalent spellings are one `String` and two paths.
    @Test func canonicallyEquivalentNamesAreTwoPaths() {
        let composed = BytePath("caf\u{e9}")
        let decomposed = BytePath("cafe\u{301}")
        #expect("caf\u{e9}" == "cafe\u{301}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed, BytePath("caf\u{e9}")]).count == 2)
        var map: [BytePath: Int] = [composed: 1]
        map[decomposed, default: 0] += 2
        #expect(map == [composed: 1, decomposed: 2])
    }

    @Test(arguments: [
        ("/a/b", "/a", true), ("/a", "/a", true), ("/ab", "/a", false), ("/a/b", "/a/", true), ("/a", "/", true),
        ("a", "/", false), ("/x/caf\u{e9}/f", "/x/cafe\u{301}", false), ("/x/cafe\u{301}/f", "/x/cafe\u{301}", true),
        ("ev/\u{301}app/f", "ev", true), ("ev\u{301}", "ev", false),
    ])
    func isInside(_ path: String, _ folder: String, _ inside: Bool) {
        #expect(BytePath(path).isInside(BytePath(folder)) == inside)
    }

    @Test(arguments: [
        ("/a/b/c", "/a", "b/c"), ("/a", "/a", ""), ("/a/b", "/a/", "b"), ("/ab", "/a", nil), ("x/\u{301}y", "x", "\u{301}y"),
    ] as [(String, String, String?)])
    func relative(_ path: String, _ folder: String, _ relative: String?) {
        #expect(BytePath(path).relative(to: BytePath(folder)) == relative.map { BytePath($0) })
    }

    @Test func namesAndEnds() {
        #expect(BytePath("..").isParentName && !BytePath("...").isParentName && !BytePath(".").isParentName)
        #expect(BytePath(".").isCurrentName && !BytePath("..").isCurrentName)
        #expect(BytePath("a/b.download").ends(with: ".download") && !BytePath("download").ends(with: ".download"))
        #expect(BytePath("a").appending("b") == "a/b" && BytePath("a/").appending("b") == "a/b" && BytePath("").appending("b") == "/b")
    }

    @Test func joiningNames() {
        #expect(BytePath(joining: ["a", "b", "c"]) == "a/b/c")
        #expect(BytePath(joining: ["", "a"]) == "/a")
        #expect(BytePath(joining: [String]()) == "")
        #expect(BytePath(joining: ["x", "a", "b"][1...]) == "a/b")
        #expect(BytePath(joining: [BytePath(bytes: [0xE9]), "b"]).bytes == [0xE9, UInt8(ascii: "/"), UInt8(ascii: "b")])
        #expect(BytePath(joining: ["caf\u{e9}", "cafe\u{301}"]).names() == [BytePath("caf\u{e9}"), BytePath("cafe\u{301}")])
        // The names a path splits into join back to it.
        for path in ["/a//b/", "a/b", "/", ""] as [BytePath] {
            #expect(BytePath(joining: path.names(keepingEmpty: true)) == path)
        }
    }

    @Test func aSuffixIsRemovedByItsBytes() {
        #expect(BytePath("a/tasks.sqlite-wal").removingSuffix("-wal") == "a/tasks.sqlite")
        #expect(BytePath("-wal").removingSuffix("-wal") == "")
        #expect(BytePath("a/tasks.sqlite").removingSuffix("-wal") == nil)
        #expect(BytePath("wal").removingSuffix("-wal") == nil)
    }

    /// The walk's text join follows ``BytePath/appending(_:)``'s rule.
    @Test(arguments: [("a", "b"), ("a/", "b"), ("/", "b"), ("", "b"), ("x/\u{301}", "y")])
    func theTextJoinIsTheValuesJoin(_ folder: String, _ name: String) {
        #expect(BytePath(BytePath.appending(name, toFolder: folder)) == BytePath(folder).appending(name))
    }
}

