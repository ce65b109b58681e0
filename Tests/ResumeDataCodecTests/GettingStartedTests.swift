import Foundation
@testable import ResumeDataCodec
import Testing

/// The snippets of the DocC article `GettingStarted.md` (Documentation.docc), line for line, with
/// what their comments claim checked. Only the paths differ: the article names `Samples/…` from the
/// package root, these find the same files from this file's place. A plain (not `@testable`)
/// import, so every call must be public API, as it is for a reader of the article.
@Suite struct GettingStartedTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    @Test func readABlob() throws {
        let blob = try Data(contentsOf: Self.samples.appendingPathComponent("ios12-keyed-archive.resumedata"))
        let resume = try ResumeData(data: blob)
        #expect(resume.container == .keyedArchive)
        #expect(resume.container.description == "keyed-archive")
        #expect(resume.downloadURL == "https://downloads.example.com/releases/Example-2.4.1.dmg")
        #expect(resume.bytesReceived == 4096)
        #expect(resume.entityTag == "\"5f1c3e-6a2f\"")
        let request = try #require(resume.currentRequest)
        #expect(request.method == "GET")
        #expect(request.headerValue("Range") == "bytes=4096-")
    }

    @Test func checkIt() throws {
        let blob = try Data(contentsOf: Self.samples.appendingPathComponent("ios11-byte-range.plist"))
        let resume = try ResumeData(data: blob)
        let validator = ResumeDataValidator(blobSize: blob.count)
        let findings = validator.findings(for: resume)
        #expect(findings.map(\.code) == [.ios11ByteRange])
        #expect(findings.map(\.description).first?.hasPrefix("error[ios11-byte-range] NSURLSessionResumeByteRange: ") == true)
    }

    @Test func mendItAndWriteItBack() throws {
        let broken = try ResumeData(data: Data(contentsOf: Self.samples.appendingPathComponent("ios11-byte-range.plist")))
        let (fixed, changes) = try broken.repaired(for: .ios11)
        #expect(changes == ["removed NSURLSessionResumeByteRange"])
        let xml = try fixed.encoded()
        #expect(PropertyListReader.format(of: xml) == .xml)
        #expect(try ResumeData(data: xml).byteRange == nil)
        let modern = try fixed.encoded(as: .keyedArchive)
        let reread = try ResumeData(data: modern)
        #expect(reread.container == .keyedArchive)
        #expect(reread.downloadURL == fixed.downloadURL)
        #expect(reread.bytesReceived == fixed.bytesReceived)
    }

    @Test func rebuildFromAPartialFile() throws {
        let rebuilder = ResumeDataRebuilder(
            url: "https://downloads.example.com/releases/Example-2.4.1.dmg", entityTag: "\"5f1c3e-6a2f\"")
        let rebuilt = try rebuilder.rebuild(fromPartialFile: Self.samples.appendingPathComponent("CFNetworkDownload_Occ2S2.tmp").path)
        #expect(rebuilt.bytesReceived == 4096)
        let bytes = try rebuilt.encoded()
        #expect(try ResumeData(data: bytes).container == .keyedArchive)
        #expect(try ResumeData(data: bytes).currentRequest?.headerValue("Range") == "bytes=4096-")
    }

    @Test func readAnyPropertyListOrKeyedArchive() throws {
        let blob = try Data(contentsOf: Self.samples.appendingPathComponent("ios12-keyed-archive.resumedata"))
        let (value, format) = try PropertyListReader().read(blob)
        #expect(format == .binary)
        let text = try PropertyListWriter(keyOrder: .sorted).write(value, as: .xml)
        #expect(try PropertyListReader().read(text) == (value: value, format: .xml))

        let archive = try KeyedArchive(data: blob)
        guard case .dictionary(let entries) = try archive.decodeRoot() else {
            Issue.record("the root of a resume archive is a dictionary")
            return
        }
        #expect(Array(entries.map(\.key).prefix(2)) == ["NSURLSessionResumeInfoVersion", "NSURLSessionResumeInfoTempFileName"])
    }
}
