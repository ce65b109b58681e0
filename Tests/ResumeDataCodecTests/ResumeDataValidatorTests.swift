import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct ResumeDataValidatorTests {
    typealias Support = ResumeDataTestSupport

    private func codes(_ resume: ResumeData, validator: ResumeDataValidator = ResumeDataValidator()) -> [String] {
        validator.findings(for: resume).map { "\($0.severity.rawValue):\($0.code):\($0.key ?? "-")" }
    }

    @Test func aCleanModernBlobHasNoFindings() throws {
        #expect(codes(try Support.modern()) == [])
    }

    @Test func theRealIOS10BlobHasTheRequestArchiveCorruption() throws {
        #expect(codes(try Support.realResumeData()) == [
            "error:ios10-request-archive:NSURLSessionResumeCurrentRequest",
            "error:ios10-request-archive:NSURLSessionResumeOriginalRequest",
        ])
        // The same archives inside a keyed archive are what iOS 12+ writes: no finding.
        #expect(codes(try Support.realResumeData(.keyedArchive)) == [])
    }

    @Test func byteRangeIsAnError() throws {
        var resume = try Support.modern()
        resume.byteRange = "bytes=0-4095"
        let findings = ResumeDataValidator().findings(for: resume)
        #expect(findings.map(\.code) == [.ios11ByteRange])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.key == ResumeDataKey.byteRange)
        // What mends it is a value; the library spells no command.
        #expect(findings.first?.remedy == .repair(.ios11))
        #expect(findings.first?.message == "iOS 11.0–11.2 added this key, and resuming with it \"completes\" with a truncated file")
    }

    @Test func theIOS10FindingsNameTheirRepairAsAValue() throws {
        let findings = ResumeDataValidator().findings(for: try Support.realResumeData())
        #expect(findings.map(\.remedy) == [.repair(.ios10), .repair(.ios10)])
        #expect(findings.allSatisfy { !$0.message.contains("resumetool") && !$0.description.contains("resumetool") })
    }

    @Test func tinyKeyedArchivesAreTooSmall() throws {
        let tiny = ResumeData(container: .keyedArchive)
        let blob = try tiny.encoded()
        #expect(blob.count < ResumeDataValidator.tooSmallThreshold)
        let findings = ResumeDataValidator(blobSize: blob.count).findings(for: tiny)
        #expect(findings.map(\.code.name) == ["too-small", "missing-url", "missing-partial-file", "missing-validator", "missing-bytes-received"])
        #expect(findings.first?.message == "the blob is only \(blob.count) bytes: iOS 12 background sessions wrote such blobs for servers without range support, and they cannot resume")
        #expect(ResumeDataValidator(blobSize: 5000).findings(for: tiny).map(\.code).contains(.tooSmall) == false)
    }

    @Test func missingValidatorURLAndPartialFile() throws {
        var resume = try Support.modern()
        resume.entityTag = nil
        #expect(codes(resume) == ["error:missing-validator:NSURLSessionResumeEntityTag"])
        resume.serverDownloadDate = "Tue, 17 Nov 2026 09:12:44 GMT"
        #expect(codes(resume) == [])
        var bare = ResumeData()
        bare.bytesReceived = 1
        #expect(codes(bare) == [
            "error:missing-url:NSURLSessionDownloadURL",
            "error:missing-partial-file:NSURLSessionResumeInfoTempFileName",
            "error:missing-validator:NSURLSessionResumeEntityTag",
        ])
    }

    @Test func wrongTypesNegativeSizesAndBadPaths() throws {
        var resume = try Support.modern()
        resume.entries[ResumeDataKey.entityTag] = 5
        resume.bytesReceived = -3
        resume.tempFileName = "../evil"
        #expect(codes(resume) == [
            "error:wrong-type:NSURLSessionResumeEntityTag",
            "error:invalid-size:NSURLSessionResumeBytesReceived",
            "error:invalid-path:NSURLSessionResumeInfoTempFileName",
            "error:missing-validator:NSURLSessionResumeEntityTag",
            "warning:range-mismatch:NSURLSessionResumeCurrentRequest",
        ])
        var dots = try Support.modern()
        dots.tempFileName = ".."
        #expect(codes(dots) == ["error:invalid-path:NSURLSessionResumeInfoTempFileName"])
        var local = try Support.modern()
        local.tempFileName = nil
        local.localPath = "relative/path"
        #expect(codes(local) == ["error:invalid-path:NSURLSessionResumeInfoLocalPath"])
    }

    @Test func inconsistentURLsSchemesMethodsAndRanges() throws {
        var resume = try Support.modern()
        resume.downloadURL = "ftp://example.com/file.bin"
        let post = URLRequestArchive(url: try #require(URL(string: "https://example.com/other")), method: "POST",
                                     headers: [("Range", "bytes=17-")])
        try resume.setRequest(post, .current)
        let findings = ResumeDataValidator().findings(for: resume)
        #expect(findings.map(\.code.name) == ["unsupported-scheme", "unsupported-method", "url-mismatch", "range-mismatch"])
        #expect(findings[0].message == "the URL scheme is \"ftp\"; only http and https downloads resume")
        #expect(findings[2].message == "the current request's URL https://example.com/other differs from the download URL ftp://example.com/file.bin")
        #expect(findings[3].message == "the current request asks for bytes from 17 but 4096 were received")
        #expect(findings[3].severity == .warning)
    }

    @Test func anUndecodableRequestIsReported() throws {
        var resume = try Support.modern()
        resume.entries[ResumeDataKey.originalRequest] = .data(Data("bplist00junk".utf8))
        let findings = ResumeDataValidator().findings(for: resume)
        #expect(findings.map(\.code) == [.invalidRequest])
        #expect(findings.first?.key == ResumeDataKey.originalRequest)
    }

    @Test func thePartialFileIsLookedForInTheGivenFolder() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let resume = try Support.modern(bytesReceived: 10)
        let validator = ResumeDataValidator(partialFileDirectory: directory)
        #expect(codes(resume, validator: validator) == ["error:temp-file-missing:NSURLSessionResumeInfoTempFileName"])
        let file = directory.appendingPathComponent("CFNetworkDownload_A1.tmp")
        try Data(count: 4).write(to: file)
        #expect(codes(resume, validator: validator) == ["error:temp-file-size:NSURLSessionResumeInfoTempFileName"])
        try Data(count: 12).write(to: file)
        #expect(codes(resume, validator: validator) == ["warning:temp-file-size:NSURLSessionResumeInfoTempFileName"])
        try Data(count: 10).write(to: file)
        #expect(codes(resume, validator: validator) == [])
        var local = resume
        local.tempFileName = nil
        local.localPath = "/var/mobile/Containers/Data/Application/X/tmp/CFNetworkDownload_A1.tmp"
        #expect(codes(local, validator: validator) == [])
    }

    @Test func findingsDescribeThemselves() {
        let finding = ResumeDataFinding(.warning, .urlMismatch, "differs", key: "K")
        #expect(finding.description == "warning[url-mismatch] K: differs")
        #expect(ResumeDataFinding.Severity.note < .warning)
        #expect(ResumeDataFinding.Severity.warning < .error)
    }
}
