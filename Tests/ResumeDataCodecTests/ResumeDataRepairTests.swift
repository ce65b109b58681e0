import Foundation
import Testing
@testable import ResumeDataCodec

@Suite struct ResumeDataRepairTests {
    typealias Support = ResumeDataTestSupport

    @Test func ios10MovesRequestsToTheLegacyLayoutAndWritesXML() throws {
        let (fixed, changes) = try Support.realResumeData(.keyedArchive).repaired(for: .ios10)
        #expect(changes == [
            "NSURLSessionResumeCurrentRequest: request archive from the secure layout to the legacy layout",
            "NSURLSessionResumeOriginalRequest: request archive from the secure layout to the legacy layout",
            "container: keyed-archive → xml",
        ])
        #expect(fixed.container == .xml)
        let reread = try ResumeData(data: try fixed.encoded())
        let current = try #require(try reread.request(.current))
        #expect(current.layout == .legacy)
        #expect(current.topKey == "root")
        #expect(current.urlString == Support.url)
        #expect(current.headers.count == 4)
        #expect(ResumeDataValidator().findings(for: reread).isEmpty)
        // Idempotent.
        let (again, none) = try reread.repaired(for: .ios10)
        #expect(none.isEmpty)
        #expect(try again.encoded() == (try fixed.encoded()))
    }

    @Test func ios11DropsTheByteRange() throws {
        var resume = try Support.modern()
        resume.byteRange = "bytes=0-4095"
        let (fixed, changes) = try resume.repaired(for: .ios11)
        #expect(changes == ["removed NSURLSessionResumeByteRange", "container: keyed-archive → xml"])
        #expect(fixed.byteRange == nil)
        #expect(fixed.container == .xml)
        #expect(try resume.repaired(for: .ios11).resume.repaired(for: .ios11).changes.isEmpty)
    }

    @Test func modernMovesLegacyRequestsToTheSecureLayout() throws {
        let legacy = try Support.realResumeData().repaired(for: .ios10).resume
        let (fixed, changes) = try legacy.repaired(for: .modern)
        #expect(changes == [
            "NSURLSessionResumeCurrentRequest: request archive from the legacy layout to the secure layout",
            "NSURLSessionResumeOriginalRequest: request archive from the legacy layout to the secure layout",
            "container: xml → keyed-archive",
        ])
        let current = try #require(try fixed.request(.current))
        #expect(current.layout == .secure)
        #expect(current.topKey == "NSKeyedArchiveRootObjectKey")
    }

    @Test func inPlaceRepairMendsOnlyWhatIsFound() throws {
        let (fixed, changes) = try Support.realResumeData(.binary).repairedInPlace()
        #expect(changes.count == 3)
        #expect(changes.last == "container: binary → xml")
        #expect(ResumeDataValidator().findings(for: fixed).isEmpty)
        let clean = try Support.modern()
        #expect(try clean.repairedInPlace().changes.isEmpty)
        var ranged = try Support.modern()
        ranged.byteRange = "bytes=0-1"
        let (mended, lines) = try ranged.repairedInPlace()
        #expect(lines == ["removed NSURLSessionResumeByteRange"])
        #expect(mended.container == .keyedArchive)
    }

    @Test func anUndecodableRequestStopsTheRepair() throws {
        var resume = try Support.modern()
        resume.entries[ResumeDataKey.currentRequest] = .data(Data([0, 1, 2]))
        let error = try #require(throws: ResumeDataError.self) { try resume.repaired(for: .ios10) }
        #expect(error.code == .invalidRequest)
        #expect(error.reason.hasPrefix("NSURLSessionResumeCurrentRequest: "))
    }

    @Test func relocationRewritesTheNameOrPath() throws {
        let resume = try Support.modern()
        #expect(try resume.relocated(tempFileName: "CFNetworkDownload_B2.tmp").tempFileName == "CFNetworkDownload_B2.tmp")
        #expect(try resume.relocated(localPath: "/new/place.tmp").localPath == "/new/place.tmp")
        #expect(throws: ResumeDataError(.invalidArgument, "")) { try resume.relocated(tempFileName: "a/b") }
        #expect(throws: ResumeDataError(.invalidArgument, "")) { try resume.relocated(tempFileName: "") }
        #expect(throws: ResumeDataError(.invalidArgument, "")) { try resume.relocated(localPath: "relative") }
    }
}
