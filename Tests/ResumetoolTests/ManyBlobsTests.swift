import Foundation
@testable import ResumeDataCodec
import Testing

/// `inspect` and `validate` over folders and `--files-from` lists, and the order of their output
/// when blobs are decoded in parallel.
@Suite struct ManyBlobsTests {
    /// A folder with two blobs, a hidden file and a subfolder (neither of which is read).
    private func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        _ = try folder.copySample("ios9-xml.plist", as: "b.plist")
        _ = try folder.copySample("ios12-keyed-archive.resumedata", as: "a.resumedata")
        try Data("not a blob".utf8).write(to: folder.url.appendingPathComponent(".hidden"))
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: false)
        _ = try folder.copySample("broken-xml.plist", as: "sub/c.plist")
        return folder
    }

    private func single(_ arguments: [String]) throws -> String {
        try EndToEnd.run(arguments).stdout
    }

    @Test func aFolderStandsForItsFilesSortedWithoutHiddenOnesOrSubfolders() throws {
        let folder = try folder()
        let text = try EndToEnd.run(["inspect", folder.url.path])
        let a = try single(["inspect", folder.path("a.resumedata")])
        let b = try single(["inspect", folder.path("b.plist")])
        #expect(text == ToolRunner.Result(status: 0, stdout: a + "\n" + b, stderr: ""))

        // A trailing slash does not double it in the names.
        let slashed = try EndToEnd.run(["inspect", folder.url.path + "/"])
        #expect(slashed == text)

        let validate = try EndToEnd.run(["validate", folder.url.path])
        #expect(validate == ToolRunner.Result(status: 0, stdout: "\(folder.path("a.resumedata")): ok\n\(folder.path("b.plist")): ok\n", stderr: ""))
    }

    /// Which arguments are folders is asked of the file system in parallel: files, folders (also
    /// through a symbolic link), a missing name and a name given twice keep their order.
    @Test func foldersAmongNamesExpandInPlace() throws {
        let folder = try folder()
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: folder.path("sub"))
        let a = folder.path("a.resumedata"), b = folder.path("b.plist")
        let names = [b, folder.path("sub"), folder.path("missing"), folder.path("link"), a, b]
        let result = try EndToEnd.run(["validate"] + names)
        #expect(result == ToolRunner.Result(status: 2, stdout: "\(b): ok\n\(a): ok\n\(b): ok\n", stderr: """
            \(folder.path("sub/c.plist")):6:66: error: expected </string> (opened on line 6), found </key>
            \(folder.path("missing")): error: no such file
            \(folder.path("link/c.plist")):6:66: error: expected </string> (opened on line 6), found </key>

            """))
        let inspect = try EndToEnd.run(["inspect"] + names)
        let shownA = try single(["inspect", a]), shownB = try single(["inspect", b])
        #expect(inspect.stdout == shownB + "\n" + shownA + "\n" + shownB)
        #expect(inspect.status == 2)
    }

    /// One shape however the blob was named, so `jq '.[]'` works on one file too.
    @Test func aFolderAndANameGiveTheSameArrayForOneBlob() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.copySample("ios9-xml.plist")
        let byName = try single(["inspect", "--json", path])
        #expect(byName.hasPrefix("[\n  {\n"))
        let byFolder = try EndToEnd.run(["inspect", "--json", folder.url.path])
        #expect(byFolder == ToolRunner.Result(status: 0, stdout: byName, stderr: ""))
    }

    /// Nothing to read is said, in every output mode, with status 2: silence and 0 read as "all
    /// well" to a script.
    @Test func anEmptyFolderSaysSo() throws {
        let folder = try TemporaryDirectory()
        let said = "\(folder.url.path): error: no files directly inside this folder to read (its subfolders are not searched: "
            + "find FOLDER -type f | resumetool COMMAND --files-from - reads them)\n"
        for arguments in [["inspect"], ["inspect", "--json"], ["validate"], ["validate", "--json"]] {
            #expect(try EndToEnd.run(arguments + [folder.url.path]) == ToolRunner.Result(status: 2, stdout: "", stderr: said), "\(arguments)")
        }
    }

    @Test func filesFromReadsOneNamePerLine() throws {
        let folder = try folder()
        // CR LF line ends, a blank line, no final newline.
        let list = "ios9-xml.plist\r\n\nios12-keyed-archive.resumedata"
        try Data(list.utf8).write(to: folder.url.appendingPathComponent("list.txt"))
        let expected = try single(["inspect", "--json", "ios9-xml.plist", "ios12-keyed-archive.resumedata"])

        let fromFile = try EndToEnd.run(["inspect", "--json", "--files-from", folder.path("list.txt")])
        #expect(fromFile == ToolRunner.Result(status: 0, stdout: expected, stderr: ""))
        let fromStdin = try EndToEnd.run(["inspect", "--json", "--files-from", "-"], stdin: Data(list.utf8))
        #expect(fromStdin == fromFile)

        // Arguments come first, then the list; one listed name still makes a list.
        let mixed = try EndToEnd.run(["validate", "--files-from", "-", "binary-dictionary.bplist"], stdin: Data("ios9-xml.plist\n".utf8))
        #expect(mixed == ToolRunner.Result(status: 0, stdout: "binary-dictionary.bplist: ok\nios9-xml.plist: ok\n", stderr: ""))
        let one = try EndToEnd.run(["inspect", "--json", "--files-from", "-"], stdin: Data("ios9-xml.plist\n".utf8))
        #expect(one.stdout.hasPrefix("[\n  {\n"))
    }

    @Test func badListsAreClearErrors() throws {
        let missing = try EndToEnd.run(["inspect", "--files-from", "no-such-list.txt"])
        #expect(missing == ToolRunner.Result(status: 2, stdout: "", stderr: "no-such-list.txt: error: no such file\n"))
        let missingValidate = try EndToEnd.run(["validate", "--files-from", "no-such-list.txt"])
        #expect(missingValidate == ToolRunner.Result(status: 2, stdout: "", stderr: "no-such-list.txt: error: no such file\n"))

        var bytes = Data("ios9-xml.plist\n\n".utf8)
        bytes.append(contentsOf: [0x66, 0xFF, 0x0A])
        let notUTF8 = try EndToEnd.run(["inspect", "--files-from", "-"], stdin: bytes)
        #expect(notUTF8 == ToolRunner.Result(status: 2, stdout: "", stderr: "<stdin>:3: error: the file name on this line is not UTF-8\n"))

        for command in ["inspect", "validate"] {
            let both = try EndToEnd.run([command, "--files-from", "-", "-"])
            #expect(both.status == 64)
            #expect(both.stderr.hasPrefix("Error: standard input cannot be both a BLOB and the --files-from list\n"))
        }
    }

    @Test func unreadablePathsSayWhy() throws {
        let notAFolder = try EndToEnd.run(["inspect", "README.md/blob"])
        #expect(notAFolder == ToolRunner.Result(status: 2, stdout: "", stderr: "README.md/blob: error: cannot read: Not a directory\n"))
        let listed = try EndToEnd.run(["validate", "--files-from", "-"], stdin: Data("nothing.plist\n.\n".utf8))
        #expect(listed == ToolRunner.Result(status: 2, stdout: "", stderr: "nothing.plist: error: no such file\n.: error: it is a folder, not a regular file\n"))
    }

    /// 600 names cross the 256-blob batches that are decoded in parallel: the output must be
    /// what the blobs give one by one, in the listed order, with each diagnostic between the
    /// reports around it.
    @Test func parallelOutputKeepsTheListedOrder() throws {
        let names = (0..<600).map { index in
            index % 97 == 13 ? "broken-xml.plist" : EndToEnd.readableSamples[index % EndToEnd.readableSamples.count]
        }
        let list = Data((names.joined(separator: "\n") + "\n").utf8)
        var reports: [String: String] = [:]
        for name in Set(names) where name != "broken-xml.plist" {
            reports[name] = try single(["inspect", name])
        }
        let expectedText = try names.filter { $0 != "broken-xml.plist" }.map { try #require(reports[$0]) }.joined(separator: "\n")
        let text = try EndToEnd.run(["inspect", "--files-from", "-"], stdin: list)
        #expect(text.status == 2)
        #expect(text.stdout == expectedText)
        let diagnostic = "broken-xml.plist:6:66: error: expected </string> (opened on line 6), found </key>\n"
        #expect(text.stderr == String(repeating: diagnostic, count: names.filter { $0 == "broken-xml.plist" }.count))

        let validate = try EndToEnd.run(["validate", "--files-from", "-"], stdin: list)
        var expectedLines = ""
        for name in names where name != "broken-xml.plist" {
            expectedLines += try EndToEnd.run(["validate", name]).stdout
        }
        #expect(validate.status == 2)
        #expect(validate.stdout == expectedLines)
    }

    /// 10,000 names on the command line (a shell glob) give what the folder gives; options mixed
    /// among the names, `--` and usage errors still work (the names bypass the parser, see
    /// PositionalNames). Their speed against the folder is a benchmark, not a test.
    @Test func tenThousandNamesOnTheCommandLine() throws {
        let folder = try TemporaryDirectory()
        // A small blob, so 30,000 decodes in a debug build do not starve the suite's timed tests.
        var small = ResumeData(container: .binary)
        small.downloadURL = "https://example.com/a.bin"
        small.bytesReceived = 10
        small.tempFileName = "CFNetworkDownload_a.tmp"
        small.entityTag = "\"t\""
        let sample = try small.encoded()
        let names = (0..<10_000).map { String(format: "b%05d.plist", $0) }
        for name in names { try sample.write(to: folder.url.appendingPathComponent(name)) }
        let byFolder = try ToolRunner.run(["inspect", "--json", "."], in: folder.url)
        #expect(byFolder.status == 0)
        let byName = try ToolRunner.run(["inspect"] + names.prefix(5_000) + ["--json"] + names.dropFirst(5_000), in: folder.url)
        #expect(byName.status == 0)
        #expect(byName.stdout == byFolder.stdout.replacingOccurrences(of: "./b", with: "b"))
        let validated = try ToolRunner.run(["validate", "--tmp-dir", ".", "--"] + names, in: folder.url)
        // The partial file is not there: a finding of severity error for each blob, the last included.
        #expect(validated.status == 1)
        #expect(validated.stdout.contains("b09999.plist: error: "), "\(validated.stdout.suffix(300))")
        let unknown = try ToolRunner.run(["inspect"] + names.prefix(3) + ["--bogus"], in: folder.url)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: Unknown option '--bogus'"))
    }
}
