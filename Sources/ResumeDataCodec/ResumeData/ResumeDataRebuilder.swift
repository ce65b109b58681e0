import Foundation
import ResumeSystemCalls

/// Makes a resume blob from a partial file when none was saved (spec §4).
public struct ResumeDataRebuilder: Sendable {
    /// The URL being downloaded.
    public var url: String
    /// The server's `ETag`, quotes included, if known.
    public var entityTag: String?
    /// The server's `Last-Modified`, if known.
    public var lastModified: String?
    /// Extra request headers, in order (e.g. `Authorization`), each checked by the one rule.
    public var headers: [HTTPHeaderField]
    /// The container to build for: XML (iOS ≤ 11) or a keyed archive (iOS 12+ / macOS 10.14+).
    public var container: ResumeDataContainer
    /// Name the partial file by its absolute path (`LocalPath`, info version 1) instead of its
    /// bare name (`TempFileName`).
    public var useLocalPath: Bool

    /// Creates a rebuilder.
    public init(url: String, entityTag: String? = nil, lastModified: String? = nil,
                headers: [HTTPHeaderField] = [], container: ResumeDataContainer = .keyedArchive,
                useLocalPath: Bool = false) {
        self.url = url
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.headers = headers
        self.container = container
        self.useLocalPath = useLocalPath
    }

    /// The info version written for each container: 2 (iOS 9–10) for the plain dictionaries, 4
    /// for keyed archives (the latest confirmed value; spec §2).
    static func infoVersion(for container: ResumeDataContainer) -> Int64 {
        container.isKeyedArchive ? 4 : 2
    }

    /// Builds resume data for the partial file at `path`: its size becomes BytesReceived and the
    /// current request asks for `Range: bytes=<size>-`.
    /// - Throws: ``ResumeDataError``: `partial-file` when the file cannot be read,
    ///   `invalid-argument` for a URL that is not absolute http(s).
    public func rebuild(fromPartialFile path: String) throws -> ResumeData {
        let size: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
                throw ResumeDataError(.partialFile, "\(path) is not a regular file")
            }
            size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        } catch let error as ResumeDataError {
            throw error
        } catch {
            throw ResumeDataError(.partialFile, "\(path): no such file")
        }
        let requestURL: URL
        do {
            requestURL = try HTTPURL(validating: url).url
        } catch {
            throw ResumeDataError(.invalidArgument, HTTPURL.message(for: url, error))
        }
        // Secure layout for the systems that write it today, legacy for the XML era, where
        // iOS 10.0/10.1 cannot read the secure one (spec §5.1).
        let layout: URLRequestArchive.Layout = container.isKeyedArchive ? .secure : .legacy
        let fields = headers.map { (name: $0.name, value: $0.value) }
        let original = URLRequestArchive(url: requestURL, headers: fields).converted(to: layout)
        let current = URLRequestArchive(url: requestURL, headers: fields + [(name: "Range", value: "bytes=\(size)-")])
            .converted(to: layout)

        var resume = ResumeData(container: container)
        resume.infoVersion = Self.infoVersion(for: container)
        let absolute = BytePath(path).absolute.text
        if useLocalPath {
            resume.localPath = absolute
        } else {
            resume.tempFileName = BytePath(absolute).lastName.text
        }
        resume.bytesReceived = size
        resume.downloadURL = url
        try resume.setRequest(current, .current)
        try resume.setRequest(original, .original)
        resume.serverDownloadDate = lastModified
        resume.entityTag = entityTag
        return resume
    }
}
