import Foundation

/// An archive's members as ``EvidenceProbe`` reads them: the archive is read in one pass, so a
/// member has streamed by before it is probed, and what the probe asks is answered from what
/// was kept on the way: its first bytes, its whole content while within ``readLimit``, its
/// SHA-256 when it was worth hashing, its header's status.
struct ArchiveEvidence: EvidenceSource {
    var readLimit: Int
    var root: String

    struct Member {
        /// The member's name as the archive spells it, its path (``ArchiveMemberName/path``), its
        /// last component and the one before it.
        let name, path, fileName, parentName: String
        let isPartialFile: Bool
        /// Its first ``ScanContentKind/prefixLength`` bytes (all of it when shorter), and its
        /// whole content when that was within the bound and worth keeping.
        let head: [UInt8], data: Data?
        /// Its header's times and mode, its size the bytes that came.
        let status: FileStatus
        /// Its SHA-256, when hashed as it streamed by (a partial file, a file of `tmp/`).
        let sha256: String?
    }

    func name(of member: Member) -> String { member.fileName }
    func isPartialFile(_ member: Member) -> Bool { member.isPartialFile }
    /// Whether a `-wal` member will follow is not known while this one streams by.
    func wal(beside member: Member) -> EvidenceTriage.WAL { .unknown }
    func parentName(of member: Member) -> String { member.parentName }
    func path(of member: Member) -> String { member.path }
    func findingSource(of member: Member) -> FindingSource? { FindingSource(kind: .archive, root: root, inner: member.name) }
    func firstBytes(of member: inout Member) throws(ScanProblem) -> EvidenceFirstBytes { EvidenceFirstBytes(bytes: member.head) }
    func size(of member: inout Member) throws(ScanProblem) -> Int64? { member.status.size }
    func whole(of member: inout Member, size: Int64) throws(ScanProblem) -> Data? { member.data }
    func digest(of member: inout Member) -> String? { member.sha256 }
    var hashesOnDemand: Bool { false }
    func status(of member: inout Member) -> (status: FileStatus, note: ScanProblem?) { (member.status, nil) }
}
