import Foundation
import Testing
@testable import ResumeDataCodec

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

    @Test func aLocalPathElsewhereOnlyNamesAFileInsideTmpDir() throws {
        let folder = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let partial = try outside.copySample(EndToEnd.partialName)
        let blob = folder.path("blob.plist")
        // A device's LocalPath names another file system: only its file name is looked for in DIR,
        // and the file it names elsewhere is never touched.
        #expect(try EndToEnd.run(["relocate", "ios8-local-path.plist", "--local-path", partial, "-o", blob]).status == 0)
        let gone = try EndToEnd.run(["discard", blob, "--tmp-dir", folder.url.path])
        #expect(gone == ToolRunner.Result(
            status: 0, stdout: "partial file \(folder.path(EndToEnd.partialName)) was already gone\nremoved blob \(blob)\n", stderr: ""))
        #expect(try folder.contents() == [])
        #expect(try outside.contents() == [EndToEnd.partialName])

        // A path climbing out with "..", or into a sibling folder: the same, by file name alone.
        for path in [folder.url.path + "/../" + outside.url.lastPathComponent + "/" + EndToEnd.partialName,
                     folder.url.path + "-sibling/" + EndToEnd.partialName] {
            #expect(try EndToEnd.run(["relocate", "ios8-local-path.plist", "--local-path", path, "-o", blob]).status == 0)
            let inside = try folder.copySample(EndToEnd.partialName)
            let result = try EndToEnd.run(["discard", blob, "--tmp-dir", folder.url.path])
            #expect(result == ToolRunner.Result(status: 0, stdout: "removed partial file \(inside)\nremoved blob \(blob)\n", stderr: ""))
            #expect(try folder.contents() == [])
            #expect(try outside.contents() == [EndToEnd.partialName])
        }
    }

    /// A blob whose temp file name is `name`, in a fresh folder.
    private func blob(tempFileName name: String) throws -> (folder: TemporaryDirectory, blob: String) {
        let folder = try TemporaryDirectory()
        let blob = folder.path("blob.plist")
        // relocate refuses such names, but a blob from elsewhere may hold them.
        var resume = try ResumeData(data: try EndToEnd.sample("ios9-xml.plist"))
        resume.tempFileName = name
        try resume.encoded().write(to: URL(fileURLWithPath: blob))
        return (folder, blob)
    }

    @Test(arguments: ["..", ".", "/etc/passwd", "../outside.tmp", "sub/x.tmp", ""])
    func aTempFileNameWithAFolderPartDeletesNothing(_ name: String) throws {
        let (folder, blob) = try blob(tempFileName: name)
        let result = try EndToEnd.run(["discard", blob])
        #expect(result == ToolRunner.Result(
            status: 1, stdout: "",
            stderr: "\(blob): error: refusing to delete: NSURLSessionResumeInfoTempFileName \"\(name)\" is not a bare file name; nothing was deleted\n"))
        #expect(try folder.contents() == ["blob.plist"])
    }

    @Test func aFolderNamedByTheBlobIsNeverRemoved() throws {
        // An app container given as DIR, and a blob naming its Library folder.
        let (folder, blob) = try blob(tempFileName: "Library")
        try FileManager.default.createDirectory(atPath: folder.path("Library/Preferences"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("Library/Preferences/app.plist")))
        let result = try EndToEnd.run(["discard", blob, "--tmp-dir", folder.url.path])
        #expect(result == ToolRunner.Result(
            status: 1, stdout: "",
            stderr: "\(blob): error: refusing to delete \(folder.path("Library")): it is a folder, not a regular file; nothing was deleted\n"))
        #expect(try folder.contents() == ["Library", "blob.plist"])
        #expect(try String(contentsOfFile: folder.path("Library/Preferences/app.plist"), encoding: .utf8) == "keep")
    }

    @Test func aSymbolicLinkNamedByTheBlobIsNeverFollowed() throws {
        let (folder, blob) = try blob(tempFileName: "link.tmp")
        let outside = try TemporaryDirectory()
        let target = try outside.copySample(EndToEnd.partialName)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.tmp"), withDestinationPath: target)
        let result = try EndToEnd.run(["discard", blob])
        #expect(result == ToolRunner.Result(
            status: 1, stdout: "",
            stderr: "\(blob): error: refusing to delete \(folder.path("link.tmp")): it is a symbolic link, not a regular file; nothing was deleted\n"))
        #expect(try folder.contents() == ["blob.plist", "link.tmp"])
        #expect(try outside.contents() == [EndToEnd.partialName])
    }

    @Test func aRejectedNameBesideAUsableOneIsIgnoredWithAWarning() throws {
        // What the engine does: TempFileName is ignored, LocalPath's file in DIR is the partial file.
        let folder = try TemporaryDirectory()
        let partial = try folder.copySample(EndToEnd.partialName)
        let blob = folder.path("blob.plist")
        var resume = try ResumeData(data: try EndToEnd.sample("ios9-xml.plist"))
        resume.tempFileName = "../elsewhere.tmp"
        resume.localPath = "/private/var/mobile/tmp/" + EndToEnd.partialName
        try resume.encoded().write(to: URL(fileURLWithPath: blob))
        let result = try EndToEnd.run(["discard", blob])
        #expect(result == ToolRunner.Result(
            status: 0, stdout: "removed partial file \(partial)\nremoved blob \(blob)\n",
            stderr: "\(blob): warning: NSURLSessionResumeInfoTempFileName \"../elsewhere.tmp\" is not a bare file name; ignored\n"))
        #expect(try folder.contents() == [])
    }

    @Test func unreadableBlobDeletesNothing() throws {
        let folder = try TemporaryDirectory()
        let blob = try folder.copySample("broken-xml.plist")
        _ = try folder.copySample(EndToEnd.partialName)
        let result = try EndToEnd.run(["discard", blob])
        #expect(result == ToolRunner.Result(
            status: 2, stdout: "", stderr: "\(blob):6:66: error: expected </string> (opened on line 6), found </key>\n"))
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
