/// The containers a resume blob comes in: the four of spec §1, and the Network-framework
/// format of spec §6, bare or in WebKit's wrapper.
public enum ResumeDataContainer: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An XML property list of the resume dictionary (iOS 7–11).
    case xml
    /// A binary property list of the resume dictionary (apps that re-save blobs themselves).
    case binary
    /// A binary NSKeyedArchiver archive of the dictionary (iOS 12+, macOS 10.14+).
    case keyedArchive = "keyed-archive"
    /// The same keyed archive saved as XML (as WebKit rewrites blobs).
    case keyedArchiveXML = "keyed-archive-xml"
    /// Network-framework resume data (iOS 17.4+, macOS 14.4+): an `NWURLSessionDownloadResumeInfo`
    /// keyed archive whose first 8 bytes are XOR-ed with `TedLasso` (spec §6).
    case networkFramework = "nwurlsession"
    /// The same, wrapped by WebKit in a keyed archive of `{data, NSURLSessionResumeInfoLocalPath}`.
    case networkFrameworkWebKit = "nwurlsession-webkit"

    /// The name `resumetool` prints: `xml`, `binary`, `keyed-archive`, `keyed-archive-xml`,
    /// `nwurlsession`, `nwurlsession-webkit`.
    public var description: String { rawValue }

    /// Whether the dictionary is wrapped in an NSKeyedArchiver archive (the classic containers
    /// of iOS 12+; not the Network-framework format, which has no resume dictionary).
    var isKeyedArchive: Bool { self == .keyedArchive || self == .keyedArchiveXML }

    /// Whether this is the Network-framework format, bare or wrapped.
    package var isNetworkFramework: Bool { self == .networkFramework || self == .networkFrameworkWebKit }

    /// The property-list format of the outermost layer.
    package var propertyListFormat: PropertyListFormat {
        switch self {
        case .xml, .keyedArchiveXML: .xml
        case .binary, .keyedArchive, .networkFramework, .networkFrameworkWebKit: .binary
        }
    }
}
