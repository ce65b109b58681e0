import Foundation
import Testing
@testable import ResumeDataCodec

/// Makes every blob in `Samples/` with this package's own writer, so the samples can be
/// regenerated (`RESUMETOOL_WRITE_SAMPLES=1 swift test --filter SamplesTests`) and checked.
enum SampleGenerator {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = repository.appendingPathComponent("Samples")
    static let realFixtures = repository.appendingPathComponent("Tests/ResumeDataCodecTests/Fixtures/real")

    static let url = "https://downloads.example.com/releases/Example-2.4.1.dmg"
    static let entityTag = "\"5f1c3e-6a2f\""
    static let lastModified = "Tue, 17 Nov 2026 09:12:44 GMT"
    static let partialName = "CFNetworkDownload_Occ2S2.tmp"
    static let partialSize = 4096
    static let headers: [(name: String, value: String)] = [
        ("User-Agent", "Example/2.4 CFNetwork/1494.0.7 Darwin/23.4.0"),
        ("Accept", "*/*"),
        ("Accept-Language", "en-GB,en;q=0.9"),
        ("Accept-Encoding", "gzip, deflate, br"),
    ]

    /// The partial file: deterministic bytes so tests can check what was kept.
    static var partialFile: Data { Data((0..<partialSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }) }

    /// File name → bytes, for every sample.
    static func all() throws -> [(name: String, bytes: Data)] {
        var files: [(String, Data)] = [(partialName, partialFile)]

        // iOS 8: info version 1, the partial file named by its absolute path, legacy request layout.
        var ios8 = try base(container: .xml, layout: .legacy)
        ios8.tempFileName = nil
        ios8.localPath = "/private/var/mobile/Containers/Data/Application/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F/tmp/" + partialName
        ios8.infoVersion = 1
        files.append(("ios8-local-path.plist", try ios8.encoded()))

        // iOS 9: info version 2, TempFileName, legacy layout, XML.
        files.append(("ios9-xml.plist", try base(container: .xml, layout: .legacy).encoded()))

        // iOS 10.1: the real dictionary of ../shared/samples/real with Apple's own request
        // archives, in the secure layout those systems could not read back.
        var ios10 = ResumeData(container: .xml)
        ios10.downloadURL = "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg"
        ios10.bytesReceived = 2_339_054
        ios10.entries[ResumeDataKey.currentRequest] = .data(try Data(contentsOf: realFixtures.appendingPathComponent("ios10.1-current-request.bplist")))
        ios10.entityTag = "\"afda885a630e48ae4a3bedd3d0bc7094\""
        ios10.tempFileName = "CFNetworkDownload_Occ2S2.tmp"
        ios10.infoVersion = 2
        ios10.entries[ResumeDataKey.originalRequest] = .data(try Data(contentsOf: realFixtures.appendingPathComponent("ios10.1-original-request.bplist")))
        ios10.serverDownloadDate = "Fri, 24 Mar 2017 02:43:46 GMT"
        files.append(("ios10-corrupted-requests.plist", try ios10.encoded()))

        // iOS 11.0–11.2: info version 4 and the harmful byte range.
        var ios11 = try base(container: .xml, layout: .secure)
        ios11.infoVersion = 4
        ios11.byteRange = "bytes=0-4095"
        files.append(("ios11-byte-range.plist", try ios11.encoded()))

        // iOS 12+: keyed archive, binary and as WebKit saves it (XML); and a plain binary dictionary.
        let modern = try base(container: .keyedArchive, layout: .secure)
        files.append(("ios12-keyed-archive.resumedata", try modern.encoded()))
        files.append(("webkit-keyed-archive.plist", try modern.encoded(as: .keyedArchiveXML)))
        files.append(("binary-dictionary.bplist", try base(container: .binary, layout: .legacy).encoded()))

        // Network-framework resume data (spec §6), from the real iOS 10.1 request archives: both
        // layouts, and WebKit's wrapper.
        let nested = try network(layout: .nested)
        files.append(("nwurlsession-ios17.resumedata", try nested.encoded()))
        var flat = try network(layout: .flat)
        flat.entries["taskIdentifier"] = 3
        flat.entries["startTime"] = .real(PropertyListReal(785_476_211.5))
        files.append(("nwurlsession-ios26.resumedata", try flat.encoded()))
        var wrapped = nested
        wrapped.localPath = "/Users/me/Library/Containers/com.apple.Safari/Data/tmp/WebKitDownload/" + partialName
        files.append(("nwurlsession-webkit.resumedata", try wrapped.encoded(as: .networkFrameworkWebKit)))

        // Broken ones.
        let whole = try modern.encoded()
        files.append(("broken-truncated.resumedata", whole.prefix(whole.count - 40)))
        let xml = try base(container: .xml, layout: .legacy).encoded()
        let badXML = String(decoding: xml, as: UTF8.self).replacingOccurrences(of: "</string>\n\t<key>NSURLSessionResumeBytesReceived", with: "</key>\n\t<key>NSURLSessionResumeBytesReceived")
        files.append(("broken-xml.plist", Data(badXML.utf8)))
        var noValidator = try base(container: .keyedArchive, layout: .secure)
        noValidator.entityTag = nil
        noValidator.serverDownloadDate = nil
        files.append(("broken-missing-validator.resumedata", try noValidator.encoded()))
        let tiny = ResumeData(container: .keyedArchive)
        files.append(("broken-too-small.resumedata", try tiny.encoded()))
        let obscured = zip(whole.prefix(8), Array("TedLasso".utf8)).map { $0 ^ $1 } + whole.dropFirst(8)
        files.append(("newer-obscured-format.resumedata", Data(obscured)))
        return files
    }

    static let realURL = "http://sw.bos.baidu.com/sw-search-sp/software/78ff35549b3e6/QQ_mac_5.5.0.dmg"
    static let realEntityTag = "\"afda885a630e48ae4a3bedd3d0bc7094\""
    static let realLastModified = "Fri, 24 Mar 2017 02:43:46 GMT"

    /// A Network-framework blob around the real request archives, with the real blob's
    /// validators in a response (the format keeps them nowhere else) and the partial file beside it.
    static func network(layout: NetworkResumeLayout) throws -> ResumeData {
        var resume = ResumeData(container: .networkFramework)
        resume.networkLayout = layout
        resume.tempFileName = partialName
        resume.localPath = "/private/var/mobile/Containers/Data/Application/8C1F2A90-6B7D-4E3C-9A51-2F0D3B4C5E6F/tmp/" + partialName
        resume.entries[ResumeDataKey.currentRequest] = .data(try Data(contentsOf: realFixtures.appendingPathComponent("ios10.1-current-request.bplist")))
        resume.entries[ResumeDataKey.originalRequest] = .data(try Data(contentsOf: realFixtures.appendingPathComponent("ios10.1-original-request.bplist")))
        let response = ArchivedURLResponse(
            url: realURL, statusCode: 200,
            headers: [("Content-Type", "application/octet-stream"), ("Content-Length", "7936993"),
                      ("ETag", realEntityTag), ("Last-Modified", realLastModified), ("Accept-Ranges", "bytes")],
            mimeType: "application/octet-stream", date: Date(timeIntervalSinceReferenceDate: 785_476_200))
        resume.entries[ResumeDataKey.response] = .data(try response.archiveData())
        resume.entries["earliestBeginDate"] = .date(Date(timeIntervalSinceReferenceDate: 785_476_190))
        resume.entries["countOfBytesClientExpectsToSend"] = -1
        resume.entries["countOfBytesClientExpectsToReceive"] = -1
        resume.entries["priority"] = .real(PropertyListReal(0.5))
        resume.entries["prefersIncrementalDelivery"] = false
        resume.entries["_keepDownloadTaskFile"] = false
        return resume
    }

    static func base(container: ResumeDataContainer, layout: URLRequestArchive.Layout) throws -> ResumeData {
        var resume = ResumeData(container: container)
        resume.infoVersion = container.isKeyedArchive ? 4 : 2
        resume.tempFileName = partialName
        resume.bytesReceived = Int64(partialSize)
        resume.downloadURL = url
        let requestURL = try #require(URL(string: url))
        let current = URLRequestArchive(url: requestURL, headers: headers + [("Range", "bytes=\(partialSize)-")])
        let original = URLRequestArchive(url: requestURL, headers: headers)
        try resume.setRequest(current.converted(to: layout), .current)
        try resume.setRequest(original.converted(to: layout), .original)
        resume.serverDownloadDate = lastModified
        resume.entityTag = entityTag
        return resume
    }
}
