/// The two serialisations of a property list.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
    /// Apple's XML plist (`<?xml …?><plist version="1.0">…`).
    case xml
    /// Apple's binary plist (`bplist00`).
    case binary
}
