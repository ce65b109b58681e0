import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct ResumeDataRebuilderTests {
    typealias Support = ResumeDataTestSupport

    @Test(arguments: [ResumeDataContainer.xml, .keyedArchive, .binary, .keyedArchiveXML])
    func rebuildsFromAPartialFile(_ container: ResumeDataContainer) throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let partial = directory.appendingPathComponent("CFNetworkDownload_Z9.tmp")
        try Data(repeating: 7, count: 1234).write(to: partial)
        let rebuilder = ResumeDataRebuilder(url: "https://example.com/a.zip", entityTag: "\"e1\"",
                                            lastModified: "Tue, 17 Nov 2026 09:12:44 GMT",
                                            headers: [try HTTPHeaderField(name: "Authorization", value: "Bearer t")], container: container)
        let resume = try ResumeData(data: try rebuilder.rebuild(fromPartialFile: partial.path).encoded())
        #expect(resume.container == container)
        #expect(resume.bytesReceived == 1234)
        #expect(resume.tempFileName == "CFNetworkDownload_Z9.tmp")
        #expect(resume.downloadURL == "https://example.com/a.zip")
        #expect(resume.entityTag == "\"e1\"")
        #expect(resume.serverDownloadDate == "Tue, 17 Nov 2026 09:12:44 GMT")
        #expect(resume.infoVersion == (container.isKeyedArchive ? 4 : 2))
        let current = try #require(try resume.request(.current))
        #expect(current.headers.map { "\($0.name): \($0.value)" } == ["Authorization: Bearer t", "Range: bytes=1234-"])
        #expect(current.layout == (container.isKeyedArchive ? .secure : .legacy))
        #expect(try resume.request(.original)?.headers.count == 1)
        #expect(ResumeDataValidator(partialFileDirectory: directory).findings(for: resume).isEmpty)
    }

    @Test func localPathStyleNamesTheAbsolutePath() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let partial = directory.appendingPathComponent("p.tmp")
        try Data(count: 3).write(to: partial)
        let resume = try ResumeDataRebuilder(url: "http://e.example/x", entityTag: "\"1\"", useLocalPath: true)
            .rebuild(fromPartialFile: partial.path)
        #expect(resume.localPath == partial.standardizedFileURL.path)
        #expect(resume.tempFileName == nil)
    }

    @Test func badInputsAreClearErrors() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try #require(throws: ResumeDataError.self) {
            try ResumeDataRebuilder(url: "https://e.example/x").rebuild(fromPartialFile: directory.path + "/nope")
        }
        #expect(missing.code == .partialFile)
        #expect(missing.reason == "\(directory.path)/nope: no such file")
        let folder = try #require(throws: ResumeDataError.self) {
            try ResumeDataRebuilder(url: "https://e.example/x").rebuild(fromPartialFile: directory.path)
        }
        #expect(folder.reason == "\(directory.path) is not a regular file")
        let partial = directory.appendingPathComponent("p")
        try Data(count: 1).write(to: partial)
        let scheme = try #require(throws: ResumeDataError.self) {
            try ResumeDataRebuilder(url: "ftp://e.example/x").rebuild(fromPartialFile: partial.path)
        }
        #expect(scheme.code == .invalidArgument)
        #expect(scheme.reason == #""ftp://e.example/x" is not an absolute http or https URL: its scheme is "ftp""#)
    }
}
