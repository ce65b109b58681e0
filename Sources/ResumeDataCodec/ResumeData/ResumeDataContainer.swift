/// The four containers a resume blob comes in (spec §1).
public enum ResumeDataContainer: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An XML property list of the resume dictionary (iOS 7–11).
    case xml
    /// A binary property list of the resume dictionary (apps that re-save blobs themselves).
    case binary
    /// A binary NSKeyedArchiver archive of the dictionary (iOS 12+, macOS 10.14+).
    case keyedArchive = "keyed-archive"
    /// The same keyed archive saved as XML (as WebKit rewrites blobs).
    case keyedArchiveXML = "keyed-archive-xml"

    /// The name `resumetool` prints: `xml`, `binary`, `keyed-archive`, `keyed-archive-xml`.
    public var description: String { rawValue }

    /// Whether the dictionary is wrapped in an NSKeyedArchiver archive.
    public var isKeyedArchive: Bool { self == .keyedArchive || self == .keyedArchiveXML }

    /// The property-list format of the outermost layer.
    public var propertyListFormat: PropertyListFormat {
        switch self {
        case .xml, .keyedArchiveXML: .xml
        case .binary, .keyedArchive: .binary
        }
    }
}
