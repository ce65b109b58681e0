import Foundation
import Testing
@testable import ResumeDataCodec

/// Blobs for the resume-data tests, built from the real iOS 10.1 material.
enum ResumeDataTestSupport {
    static let url = KeyedArchiveTestSupport.realURL
    static let entityTag = "\"afda885a630e48ae4a3bedd3d0bc7094\""
    static let serverDate = "Fri, 24 Mar 2017 02:43:46 GMT"
    static let tempFileName = "CFNetworkDownload_Occ2S2.tmp"

    /// The resume dictionary of the NSLog text in Fixtures/real, with Apple's request archives,
    /// in the sorted order of the iOS 10 XML writer.
    static func realDictionary() throws -> PropertyListDictionary {
        var entries = PropertyListDictionary()
        entries[ResumeDataKey.downloadURL] = .string(url)
        entries[ResumeDataKey.bytesReceived] = 2_339_054
        entries[ResumeDataKey.currentRequest] = .data(try KeyedArchiveTestSupport.realFixture(KeyedArchiveTestSupport.currentRequestName))
        entries[ResumeDataKey.entityTag] = .string(entityTag)
        entries[ResumeDataKey.tempFileName] = .string(tempFileName)
        entries[ResumeDataKey.infoVersion] = 2
        entries[ResumeDataKey.originalRequest] = .data(try KeyedArchiveTestSupport.realFixture(KeyedArchiveTestSupport.originalRequestName))
        entries[ResumeDataKey.serverDownloadDate] = .string(serverDate)
        return entries
    }

    static func realResumeData(_ container: ResumeDataContainer = .xml) throws -> ResumeData {
        ResumeData(entries: try realDictionary(), container: container)
    }

    /// A clean modern blob: secure-layout requests, validators, a Range header matching the size.
    static func modern(bytesReceived: Int64 = 4096) throws -> ResumeData {
        let requestURL = try #require(URL(string: "https://example.com/file.bin"))
        var resume = ResumeData(container: .keyedArchive)
        resume.infoVersion = 4
        resume.tempFileName = "CFNetworkDownload_A1.tmp"
        resume.bytesReceived = bytesReceived
        resume.downloadURL = "https://example.com/file.bin"
        try resume.setRequest(URLRequestArchive(url: requestURL, headers: [("Range", "bytes=\(bytesReceived)-")]), .current)
        try resume.setRequest(URLRequestArchive(url: requestURL), .original)
        resume.entityTag = "\"abc\""
        return resume
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resumedata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
