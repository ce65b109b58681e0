import Foundation
import Testing

/// A property list that is not resume data (an app's `Info.plist`, made here by Python's
/// plistlib as Xcode's would be, binary) is refused by every blob command, saying what it
/// holds; `plist print` still shows it. A keyed archive of an empty dictionary stays a blob:
/// iOS 12 wrote such (`broken-too-small.resumedata`), and `validate` names it.
@Suite struct NotResumeDataTests {
    static let refusal = "Info.plist: error: not resume data: a property list dictionary with 4 keys "
        + "(CFBundleIdentifier, CFBundleName, CFBundleShortVersionString, …), none of a resume blob's (such as NSURLSessionDownloadURL)\n"

    private func infoPlist() throws -> URL {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory() + "not-resume-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let script = """
            import plistlib, sys
            info = {"CFBundleIdentifier": "com.example.player", "CFBundleName": "Player",
                    "CFBundleShortVersionString": "2.4.1", "MinimumOSVersion": "17.0"}
            with open(sys.argv[1], "wb") as f:
                plistlib.dump(info, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
            """
        let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, folder.path + "/Info.plist"])
        #expect(made.status == 0)
        return folder
    }

    @Test(arguments: [["inspect"], ["validate"], ["explain"], ["repair"], ["convert", "--to", "xml"], ["edit", "--url", "https://example.com/x"]])
    func aPropertyListThatIsNotResumeDataIsRefused(_ command: [String]) throws {
        let folder = try infoPlist()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ToolRunner.run(command + ["Info.plist"], in: folder)
        #expect(result.stdout == "")
        #expect(result.stderr == Self.refusal, "\(command)")
        #expect(result.status != 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Info.plist"])
    }

    @Test func plistPrintStillShowsIt() throws {
        let folder = try infoPlist()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ToolRunner.run(["plist", "print", "Info.plist"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("dictionary (4 entries)\n  CFBundleIdentifier: string \"com.example.player\"\n"))
    }

    /// nsurlsessiond's tasks.plist shape, a keyed archive of a dictionary keyed by task number,
    /// written by the codec tests' plistlib script: a valid archive, not resume data.
    static let tasksScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../ResumeDataCodecTests/Fixtures/archives/make_number_keyed_tasks.py").standardized

    /// A keyed archive of an NSMutableDictionary from 93 and 94 to strings, written with
    /// plistlib as NSKeyedArchiver lays one out: a valid archive, neither resume data nor a task list.
    static let numberKeyedScript = """
        import plistlib, sys
        objects = ["$null",
            {"NS.keys": [plistlib.UID(2), plistlib.UID(3)], "NS.objects": [plistlib.UID(4), plistlib.UID(5)], "$class": plistlib.UID(6)},
            93, 94, "first", "second",
            {"$classname": "NSMutableDictionary", "$classes": ["NSMutableDictionary", "NSDictionary", "NSObject"]}]
        archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(1)}, "$objects": objects}
        with open(sys.argv[1], "wb") as f:
            plistlib.dump(archive, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
        """

    @Test(arguments: [["inspect"], ["validate"], ["explain"]])
    func anArchiveKeyedByNumbersIsNotResumeData(_ command: [String]) throws {
        let directory = try TemporaryDirectory()
        let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.numberKeyedScript, directory.path("numbers.plist")])
        try #require(made.status == 0)
        let result = try ToolRunner.run(command + ["numbers.plist"], in: directory.url)
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: """
            numbers.plist: error: not resume data: the root NSMutableDictionary has keys that are not strings (93, 94); a resume blob's keys are strings

            """), "\(command)")
    }

    @Test func theArchiveCommandStillShowsIt() throws {
        let directory = try TemporaryDirectory()
        let made = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.tasksScript.path, directory.path("tasks.plist")])
        try #require(made.status == 0)
        let result = try ToolRunner.run(["archive", "tasks.plist"], in: directory.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.contains("__NSCFURLSessionTaskInfo"))
    }
}
