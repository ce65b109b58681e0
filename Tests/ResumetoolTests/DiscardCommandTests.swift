import Foundation
import Testing
import ResumeDataCodec

/// `resumetool discard`: removes the partial file and the blob, refuses paths outside the folder.
@Suite struct DiscardCommandTests {
    @Test func tempFileNameInTheBlobsFolder() throws {
        let folder = try TemporaryDirectory()
        let blob = try folder.copySample("ios12-keyed-archive.resumedata")
        let partial = try folder.copySample(EndToEnd.partialName)
        let result = try EndToEnd.run(["discard", blob])
        #expect(result == ToolRunner.Result(status: 0, stdout: "removed partial file \(partial)\nremoved blob \(blob)\n", stderr: ""))
        #expect(try folder.contents() == [])
    }

    @Test func tempFileNameInTmpDir() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.path("tmp"), withIntermediateDirectories: false)
        let blob = try folder.copySample("ios9-xml.plist")
        let partial = try folder.copySample(EndToEnd.partialName, as: "tmp/\(EndToEnd.partialName)")
        let other = try folder.copySample(EndToEnd.partialName, as: "keep.tmp")
        let result = try EndToEnd.run(["discard", blob, "--tmp-dir", folder.path("tmp")])
        #expect(result == ToolRunner.Result(status: 0, stdout: "removed partial file \(partial)\nremoved blob \(blob)\n", stderr: ""))
        #expect(try folder.contents() == ["keep.tmp", "tmp"])
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test func partialFileAlreadyGone() throws {
        let folder = try TemporaryDirectory()
        let blob = try folder.copySample("binary-dictionary.bplist")
        let result = try EndToEnd.run(["discard", blob])
        #expect(result == ToolRunner.Result(
            status: 0, stdout: "partial file \(folder.path(EndToEnd.partialName)) was already gone\nremoved blob \(blob)\n", stderr: ""))
        #expect(try folder.contents() == [])
    }

    @Test func localPathInsideTmpDir() throws {
        let folder = try TemporaryDirectory()
        let partial = try folder.copySample(EndToEnd.partialName, as: "download.partial")
        let blob = folder.path("blob.plist")
        let made = try EndToEnd.run(["relocate", "ios8-local-path.plist", "--local-path", partial, "-o", blob])
        #expect(made.status == 0)
        let result = try EndToEnd.run(["discard", blob, "--tmp-dir", folder.url.path])
        #expect(result == ToolRunner.Result(status: 0, stdout: "removed partial file \(partial)\nremoved blob \(blob)\n", stderr: ""))
        #expect(try folder.contents() == [])
    }

    @Test func localPathOutsideTmpDirIsRefusedAndNothingIsDeleted() throws {
        let folder = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let partial = try outside.copySample(EndToEnd.partialName)
        let blob = folder.path("blob.plist")
        #expect(try EndToEnd.run(["relocate", "ios8-local-path.plist", "--local-path", partial, "-o", blob]).status == 0)
        let result = try EndToEnd.run(["discard", blob, "--tmp-dir", folder.url.path])
        #expect(result == ToolRunner.Result(
            status: 1, stdout: "",
            stderr: "\(blob): error: refusing to delete: NSURLSessionResumeInfoLocalPath \(partial) is not inside \(folder.url.path) (use --tmp-dir)\n"))
        #expect(try folder.contents() == ["blob.plist"])
        #expect(try outside.contents() == [EndToEnd.partialName])

        // A sibling folder whose name starts with the tmp dir's name is outside too.
        let sibling = folder.url.path + "-sibling"
        try FileManager.default.createDirectory(atPath: sibling, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: sibling) }
        let trap = sibling + "/" + EndToEnd.partialName
        try FileManager.default.copyItem(atPath: partial, toPath: trap)
        #expect(try EndToEnd.run(["relocate", "ios8-local-path.plist", "--local-path", trap, "-o", blob]).status == 0)
        let refused = try EndToEnd.run(["discard", blob, "--tmp-dir", folder.url.path])
        #expect(refused.status == 1)
        #expect(FileManager.default.fileExists(atPath: trap))
        #expect(FileManager.default.fileExists(atPath: blob))

        // And a path climbing out with "..".
        let climbing = folder.url.path + "/../" + outside.url.lastPathComponent + "/" + EndToEnd.partialName
        #expect(try EndToEnd.run(["relocate", "ios8-local-path.plist", "--local-path", climbing, "-o", blob]).status == 0)
        let climbed = try EndToEnd.run(["discard", blob, "--tmp-dir", folder.url.path])
        #expect(climbed.status == 1)
        #expect(try outside.contents() == [EndToEnd.partialName])
        #expect(FileManager.default.fileExists(atPath: blob))
    }

    @Test func aTempFileNameThatClimbsIsRefused() throws {
        let folder = try TemporaryDirectory()
        let blob = folder.path("blob.plist")
        // relocate refuses "..", but a blob from elsewhere may hold it; discard must not follow it.
        var climbing = try ResumeData(data: try EndToEnd.sample("ios9-xml.plist"))
        climbing.tempFileName = ".."
        try climbing.encoded().write(to: URL(fileURLWithPath: blob))
        let result = try EndToEnd.run(["discard", blob])
        #expect(result == ToolRunner.Result(
            status: 1, stdout: "", stderr: "\(blob): error: refusing to delete \"..\": a temp file name must be a bare file name\n"))
        #expect(try folder.contents() == ["blob.plist"])
    }

    @Test func unreadableBlobDeletesNothing() throws {
        let folder = try TemporaryDirectory()
        let blob = try folder.copySample("broken-xml.plist")
        _ = try folder.copySample(EndToEnd.partialName)
        let result = try EndToEnd.run(["discard", blob])
        #expect(result == ToolRunner.Result(
            status: 1, stdout: "", stderr: "\(blob):6:66: error: expected </string> (opened on line 6), found </key>\n"))
        #expect(try folder.contents() == [EndToEnd.partialName, "broken-xml.plist"])
    }

    @Test func standardInputIsAUsageError() throws {
        let result = try EndToEnd.run(["discard", "-"])
        #expect(result == ToolRunner.Result(status: 64, stdout: "", stderr: """
            Error: discard needs a blob file, not standard input
            Usage: resumetool discard <blob> [--tmp-dir <tmp-dir>] [--strict]
              See 'resumetool discard --help' for more information.

            """))
    }
}
