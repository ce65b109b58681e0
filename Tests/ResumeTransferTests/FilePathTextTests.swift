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
    ])
    func folder(_ path: String, _ folder: String) {
        #expect(FilePathText.folder(of: path) == folder)
    }

    @Test(arguments: [
        ("a", "a"), ("-", "-"), (".", "."), ("..", ".."), ("", "."), ("a/", "a"), ("a//", "a"),
        ("/a", "a"), ("/", "/"), ("//", "/"), ("x/a", "a"), ("/x/y/name.part", "name.part"),
        ("x/\n", "\n"), ("é/ü", "ü"),
    ])
    func lastName(_ path: String, _ name: String) {
        #expect(FilePathText.lastName(of: path) == name)
    }

    @Test(arguments: [
        ("a", "/w/d/a"), ("-", "/w/d/-"), (".", "/w/d"), ("..", "/w"), ("", "/w/d"), ("../../..", "/"),
        ("./x/../y/", "/w/d/y"), ("x//y", "/w/d/x/y"), ("/abs/./p", "/abs/p"), ("/..", "/"), ("/", "/"),
        ("//a/b/../c", "/a/c"),
    ])
    func absolute(_ path: String, _ absolute: String) {
        #expect(FilePathText.absolute(path, in: "/w/d") == absolute)
    }

    @Test func aRelativePathIsTakenFromTheWorkingFolder() {
        let folder = FilePathText.workingFolder()
        #expect(folder.hasPrefix("/"))
        #expect(FilePathText.absolute("a") == FilePathText.absolute("a", in: folder))
    }
}
