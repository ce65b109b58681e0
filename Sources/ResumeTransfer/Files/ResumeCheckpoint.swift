import Foundation
import ResumeSystemCalls
import ResumeDataCodec

/// The one place that converts between ``DownloadCheckpoint`` and the resume blob on disk.
///
/// The blob is Apple's resume data (an iOS 12+ style keyed archive), so a blob written here can
/// be handed to `downloadTask(withResumeData:)` on a device, and a device's blob can be finished here.
package enum ResumeCheckpoint {
    /// A blob read back: the checkpoint and where it says the partial file is.
    struct Decoded: Equatable, Sendable {
        var checkpoint: DownloadCheckpoint
        /// `NSURLSessionResumeInfoTempFileName`: the partial file's bare name.
        var tempFileName: String?
        /// `NSURLSessionResumeInfoLocalPath`: the partial file's absolute path.
        var localPath: String?
        /// The container the blob came in.
        var container: ResumeDataContainer
        /// The blob states no byte count (the Network-framework format): the checkpoint's is 0
        /// until the caller sets it to the size of the partial file it trusts.
        var offsetFromPartialFile = false
    }

    /// Our own key (spec §8): the expected SHA-256 the download was started with. Apple's reader
    /// ignores it.
    static let expectedSHA256Key = "ResumeToolExpectedSHA256"

    /// Our own key (spec §8): the ranges a segmented download (`--connections`) wrote beyond
    /// `NSURLSessionResumeBytesReceived`, as `FIRST-LAST,…`. Apple's reader ignores it and sees
    /// the contiguous prefix only, which is true of the partial file's first bytes.
    package static let finishedRangesKey = "ResumeToolFinishedRanges"

    /// Headers that describe one connection or one range, never the resource: not carried over.
    private static let dropped: Set<String> = ["range", "if-range", "accept-encoding", "host", "content-length", "connection"]

    static func resumeData(_ checkpoint: DownloadCheckpoint, partialPath: String) throws(TransferError) -> ResumeData {
        // The current URL was checked where it entered; a refused original is archived back as
        // the blob recorded it, when Foundation can hold it at all.
        let current = checkpoint.currentURL.url
        let original: URL
        switch checkpoint.originalURL {
        case .checked(let url):
            original = url.url
        case .refused(let text):
            guard let url = URL(string: text) else { throw .invalidResumeData("not a URL: \(checkpoint.currentURL)") }
            original = url
        }
        let headers = checkpoint.extraHeaders.map { (name: $0.name, value: $0.value) }
        // A device continuing this blob sends the current request as it is: it must not carry
        // credentials to an origin they were not given for.
        let currentHeaders = TrustPolicy.headers(checkpoint.extraHeaders, to: checkpoint.currentURL, startedAt: checkpoint.originalURL)
            .map { (name: $0.name, value: $0.value) }
        var resume = ResumeData(container: .keyedArchive)
        resume.infoVersion = 4
        let absolute = absolute(partialPath)
        resume.tempFileName = BytePath(absolute).lastName.text
        resume.bytesReceived = checkpoint.bytesReceived
        resume.localPath = absolute
        resume.downloadURL = checkpoint.currentURL.string
        do {
            var range = currentHeaders
            if checkpoint.bytesReceived > 0 { range.append((name: "Range", value: "bytes=\(checkpoint.bytesReceived)-")) }
            try resume.setRequest(URLRequestArchive(url: current, headers: range), .current)
            try resume.setRequest(URLRequestArchive(url: original, headers: headers), .original)
        } catch {
            throw .invalidResumeData("cannot archive the request: \(error)")
        }
        resume.serverDownloadDate = checkpoint.lastModified
        resume.entityTag = checkpoint.entityTag
        if let sha256 = checkpoint.expectedSHA256 {
            resume.entries[expectedSHA256Key] = .string(sha256)
        }
        let beyond = checkpoint.finishedRanges.filter { $0.lowerBound > checkpoint.bytesReceived }
        if !beyond.isEmpty {
            resume.entries[finishedRangesKey] = .string(SegmentPlan.format(beyond))
        }
        return resume
    }

    static func encode(_ checkpoint: DownloadCheckpoint, partialPath: String) throws(TransferError) -> Data {
        let resume = try resumeData(checkpoint, partialPath: partialPath)
        do {
            return try resume.encoded(as: .keyedArchive)
        } catch {
            throw .invalidResumeData("cannot encode: \(error)")
        }
    }

    static func decode(_ data: Data) throws(TransferError) -> Decoded {
        let resume: ResumeData
        do {
            if let upload = try UploadResumeData.read(data) {
                throw TransferError.invalidResumeData("upload resume data (a URLSession upload task's, draft \(upload.draftVersion.map(VisibleText.escaping) ?? "unknown")), not a download's: resumetool cannot continue uploads yet; inspect shows where the upload continues")
            }
            resume = try ResumeData(data: data)
        } catch let error as TransferError {
            throw error
        } catch {
            throw .invalidResumeData("\(error)")
        }
        return try decode(resume)
    }

    static func decode(_ resume: ResumeData) throws(TransferError) -> Decoded {
        let currentRequest: URLRequestArchive?
        let originalRequest: URLRequestArchive?
        do {
            currentRequest = try resume.request(.current)
            originalRequest = try resume.request(.original)
        } catch {
            throw .invalidResumeData("\(error)")
        }
        // Apple's reader takes the current request, else the original, else DownloadURL.
        guard let url = currentRequest?.urlString ?? resume.downloadURL ?? originalRequest?.urlString else {
            throw .invalidResumeData("no URL: neither a request nor NSURLSessionDownloadURL")
        }
        let currentURL: HTTPURL
        do {
            currentURL = try HTTPURL(validating: url)
        } catch {
            throw .invalidResumeData(HTTPURL.message(for: url, error))
        }
        if let method = currentRequest?.httpMethod, method.uppercased() != "GET" {
            throw .invalidResumeData("the request is \(method), only GET can be resumed")
        }
        let offsetFromPartialFile = resume.bytesReceived == nil && resume.container.isNetworkFramework
        guard let bytes = offsetFromPartialFile ? 0 : resume.bytesReceived else {
            throw .invalidResumeData("NSURLSessionResumeBytesReceived is missing")
        }
        guard bytes >= 0 else {
            throw .invalidResumeData("NSURLSessionResumeBytesReceived is negative (\(bytes))")
        }
        // The original request holds the caller's headers as given; the current one may have had
        // credentials removed for another origin.
        var headers: [HTTPHeaderField] = []
        for header in (originalRequest ?? currentRequest)?.headers ?? [] where !dropped.contains(header.name.lowercased()) {
            do {
                headers.append(try HTTPHeaderField(name: header.name, value: header.value))
            } catch {
                // The same rule as -H and the library's callers: nothing a blob holds reaches a request line unchecked.
                throw .invalidResumeData("a request header: \(error)")
            }
        }
        let checkpoint = DownloadCheckpoint(
            originalURL: Self.originalURL(originalRequest?.urlString, current: currentURL),
            currentURL: currentURL,
            extraHeaders: headers,
            bytesReceived: bytes,
            // A Network-framework blob keeps its validators only in the archived response.
            entityTag: resume.effectiveEntityTag,
            lastModified: resume.effectiveServerDownloadDate,
            // A malformed value is ignored rather than failing every finished download.
            expectedSHA256: resume.entries[expectedSHA256Key]?.stringValue.flatMap(SHA256Hex.init)?.text,
            // A malformed value is dropped: those bytes are fetched again, which is always safe.
            finishedRanges: (resume.entries[finishedRangesKey]?.stringValue.flatMap { SegmentPlan.parse($0) } ?? [])
                .filter { $0.lowerBound > bytes }
        )
        return Decoded(
            checkpoint: checkpoint, tempFileName: resume.tempFileName, localPath: resume.localPath,
            container: resume.container, offsetFromPartialFile: offsetFromPartialFile)
    }

    /// Where the download `resume` describes started, as the engine takes it (`decode`:
    /// the original request's URL, else the URL it goes on from): the origin a login given for
    /// it (`-u`, `--netrc`) belongs to. Nil when the blob cannot be resumed or its original URL
    /// is refused.
    package static func startURL(of resume: ResumeData) -> HTTPURL? {
        (try? decode(resume))?.checkpoint.originalURL.checked
    }

    /// The original request's URL, checked; without one, the download started where it is now.
    private static func originalURL(_ recorded: String?, current: HTTPURL) -> OriginalURL {
        guard let recorded else { return .checked(current) }
        if recorded == current.string { return .checked(current) }
        return HTTPURL(recorded).map(OriginalURL.checked) ?? .refused(recorded)
    }

    static func absolute(_ path: String) -> String {
        BytePath(path).absolute.text
    }
}
