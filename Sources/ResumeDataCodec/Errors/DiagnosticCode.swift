/// A stable identifier for a kind of failure or finding, e.g. `truncated` or `ios11-byte-range`.
/// New codes may be added.
///
/// `Domain` keeps the codes of each error and of findings apart: a `PropertyListError.Code`
/// never compares with a `KeyedArchiveError.Code`. Each domain's codes are static members,
/// so they read as `.truncated` where a code is expected.
public struct DiagnosticCode<Domain>: Hashable, Sendable, CustomStringConvertible {
    /// The identifier, e.g. `truncated`.
    public let name: String
    package init(_ name: String) { self.name = name }
    /// The identifier.
    public var description: String { name }
}
