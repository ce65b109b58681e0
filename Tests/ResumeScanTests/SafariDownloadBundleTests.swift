import Foundation
import Testing
@testable import ResumeScan
@testable import ResumeDataCodec

/// A legacy bundle as a real one is on disk, read with real files: the partial file is the data
/// file, never Finder's `Icon\r`, and the resume data made from it carries the server's
/// Last-Modified (`NSURLDownloadServerModificationDate`) as its validator.
@Suite struct SafariDownloadBundleTests {
    @Test func aLegacyBundleResumesWithItsLastModified() throws {
        let folder = NSTemporaryDirectory() + "safari-bundle-\(UUID().uuidString)/setup.pkg.download"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let info = try PropertyListWriter().write(.dictionary([
            "DownloadEntryPath": "/Users/examiner/Desktop/setup.pkg",
            "DownloadEntryResumeInformation": .dictionary([
                "NSURLDownloadBytesReceived": 2048,
                "NSURLDownloadServerModificationDate": "Tue, 15 Nov 2016 08:12:31 GMT",
                "DownloadEntryURL": "http://downloads.example.net/setup.pkg",
            ]),
        ]), as: .binary)
        try info.write(to: URL(fileURLWithPath: folder + "/Info.plist"))
        try Data(repeating: 7, count: 2048).write(to: URL(fileURLWithPath: folder + "/setup.pkg"))
        try Data().write(to: URL(fileURLWithPath: folder + "/Icon\r"))
        try Data(repeating: 0, count: 32).write(to: URL(fileURLWithPath: folder + "/._setup.pkg"))

        let bundle = try SafariDownloadBundle(path: folder, hashing: nil)
        #expect(bundle.info.lastModified == "Tue, 15 Nov 2016 08:12:31 GMT")
        #expect(bundle.partialFile?.name == "setup.pkg")
        #expect(bundle.partialFile?.status.size == 2048)
        let (blob, partialFile) = try bundle.resumeData()
        #expect(partialFile == folder + "/setup.pkg")
        let resume = try ResumeData(data: blob)
        #expect(resume.downloadURL == "http://downloads.example.net/setup.pkg")
        #expect(resume.bytesReceived == 2048)
        #expect(resume.serverDownloadDate == "Tue, 15 Nov 2016 08:12:31 GMT")
        #expect(resume.entityTag == nil)
        // Evidence: nothing in the bundle changed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["._setup.pkg", "Icon\r", "Info.plist", "setup.pkg"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/Info.plist")) == info)
    }
}
