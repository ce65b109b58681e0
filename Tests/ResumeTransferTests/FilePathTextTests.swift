@testable import ResumeSystemCalls
import Testing

/// The package's one path rule, value by value: POSIX `dirname(3)`/`basename(3)` and the lexical
/// clean-up `URL.standardizedFileURL` makes, for every shape an argument or a blob can take,
/// the one-character names Foundation traps on among them.
@Suite struct FilePathTextTests {
    @Test(arguments: [
        ("a", "."), ("-", "."), (".", "."), ("..", "."), ("", "."), ("ab", "."),
        ("a/", "."), ("/a", "/"), ("/", "/"), ("//", "/"), ("///a", "/"),
        ("x/a", "x"), ("x//a", "x"), ("x/a/", "x"), ("/x/y/a", "/x/y"), ("./a", "."), ("../a", ".."),
        ("x/\n", "x"), ("é/ü", "é"),
        // A name that begins with a combining mark: `String` joins it to the `/` before it.
        ("x/\u{301}a", "x"), ("\u{301}/a", "\u{301}"), ("/x/\u{301}", "/x"),
    ])
    func folder(_ path: String, _ folder: String) {
        #expect(FilePathText.folder(of: path) == folder)
    }

    @Test(arguments: [
        ("a", "a"), ("-", "-"), (".", "."), ("..", ".."), ("", "."), ("a/", "a"), ("a//", "a"),
        ("/a", "a"), ("/", "/"), ("//", "/"), ("x/a", "a"), ("/x/y/name.part", "name.part"),
        ("x/\n", "\n"), ("é/ü", "ü"),
        ("x/\u{301}a", "\u{301}a"), ("/x/\u{301}/", "\u{301}"),
    ])
    func lastName(_ path: String, _ name: String) {
        #expect(FilePathText.lastName(of: path) == name)
    }

    @Test(arguments: [
        ("a", "/w/d/a"), ("-", "/w/d/-"), (".", "/w/d"), ("..", "/w"), ("", "/w/d"), ("../../..", "/"),
        ("./x/../y/", "/w/d/y"), ("x//y", "/w/d/x/y"), ("/abs/./p", "/abs/p"), ("/..", "/"), ("/", "/"),
        ("//a/b/../c", "/a/c"),
        ("x/../\u{301}y", "/w/d/\u{301}y"), ("\u{301}/../y", "/w/d/y"),
    ])
    func absolute(_ path: String, _ absolute: String) {
        #expect(FilePathText.absolute(path, in: "/w/d") == absolute)
    }

    @Test(arguments: [
        ("/a//b/", false, ["a", "b"]), ("/a//b/", true, ["", "a", "", "b", ""]), ("", false, []),
        ("x/\u{301}y/..", false, ["x", "\u{301}y", ".."]), ("caf\u{e9}/cafe\u{301}", false, ["caf\u{e9}", "cafe\u{301}"]),
    ])
    func names(_ path: String, _ keepingEmpty: Bool, _ names: [String]) {
        // As bytes: `==` on the strings would take `caf\u{e9}` and `cafe\u{301}` for one.
        #expect(FilePathText.names(of: path, keepingEmpty: keepingEmpty).map { Array($0.utf8) } == names.map { Array($0.utf8) })
    }

    @Test(arguments: [
        ("DIR/", "DIR"), ("DIR", "DIR"), ("DIR///", "DIR"), ("/", "/"), ("///", "/"), ("", ""), ("/a/", "/a"),
        // The slash and a combining mark after it are one `Character`: not a trailing slash.
        ("x/\u{301}", "x/\u{301}"), ("x\u{301}/", "x\u{301}"),
    ])
    func trailingSlashes(_ path: String, _ trimmed: String) {
        #expect(Array(FilePathText.trimmingTrailingSlashes(path).utf8) == Array(trimmed.utf8))
    }

    @Test func theFirstNameIsCutAtTheFirstSlashByte() {
        #expect(FilePathText.firstName(of: "AppDomain-x/\u{301}a/b").map { [Array($0.first.utf8), Array($0.rest.utf8)] }
                == [Array("AppDomain-x".utf8), Array("\u{301}a/b".utf8)])
        #expect(FilePathText.firstName(of: "name") == nil)
    }

    @Test func aRelativePathIsTakenFromTheWorkingFolder() {
        let folder = FilePathText.workingFolder()
        #expect(folder.hasPrefix("/"))
        #expect(FilePathText.absolute("a") == FilePathText.absolute("a", in: folder))
    }
}
