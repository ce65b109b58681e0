import Foundation

/// One kind of evidence as ``EvidenceProbe`` reads it (issue 34): a folder tree
/// (``FolderEvidence``), a backup's stored files, plain or decrypted on the fly
/// (``BackupEvidence``), an archive's members as they stream by (``ArchiveEvidence``). Each
/// answers the same questions about one of its files, so that the decision made of them
/// (triage, read whole within the bound, search, digest, status) is written once.
///
/// A member is what the source opened for the probe (a descriptor, a decrypted first block,
/// the bytes an archive streamed); the questions are asked in this order, each at most once, and
/// a member the triage rules out is asked nothing past its first bytes.
protocol EvidenceSource {
    associatedtype Member

    /// Property lists larger than this are not read whole: what one worker may hold.
    var readLimit: Int { get }

    /// The member's name and whether it is a partial download by its name.
    func name(of member: Member) -> String
    func isPartialFile(_ member: Member) -> Bool
    /// Whether a `-wal` sits beside the member, as far as the source knows at triage.
    func wal(beside member: Member) -> EvidenceTriage.WAL

    /// The first ``ScanContentKind/prefixLength`` bytes (all of them when fewer), or fewer where
    /// reading more costs (an encrypted file's first AES block) with the size known.
    func firstBytes(of member: inout Member) throws(ScanProblem) -> EvidenceFirstBytes
    /// The size of the content, once the triage let the member through; nil when it is not a
    /// regular file after all (replaced since it was listed): nothing to report.
    func size(of member: inout Member) throws(ScanProblem) -> Int64?
    /// The whole content, `size` bytes (fewer if the file shrank); nil when the source does not
    /// hold it (an archive member that outgrew the bound while it streamed).
    func whole(of member: inout Member, size: Int64) throws(ScanProblem) -> Data?
    /// The SHA-256 of the whole content, streamed; nil when a read fails.
    func digest(of member: inout Member) -> String?
    /// Whether ``digest(of:)`` reads the content for it (a folder's, a backup's), so that a
    /// ``HashLimit`` spares the read; false where it was hashed as it streamed by (an archive's).
    var hashesOnDemand: Bool { get }
    /// The name of the folder the member is in, for ``SafariEvidence``: asked only of a member
    /// whose content is held.
    func parentName(of member: Member) -> String
    /// The member's status, and a note when it is not the device's own (a backup's damaged
    /// record leaves only the stored copy's).
    func status(of member: inout Member) -> (status: FileStatus, note: ScanProblem?)
    /// The path reported and where it is, for a finding.
    func path(of member: Member) -> String
    func findingSource(of member: Member) -> FindingSource?
}

/// What ``EvidenceSource/firstBytes(of:)`` read.
struct EvidenceFirstBytes {
    var bytes: [UInt8]
    /// The content's size when known before reading (an encrypted backup's record says it).
    var size: Int64?

    /// Whether the bytes are all of the first ``ScanContentKind/prefixLength``: triage decided
    /// from them for good, not from a hopeful first block.
    var isWhole: Bool {
        guard let size else { return true }
        return Int64(bytes.count) >= min(size, Int64(ScanContentKind.prefixLength))
    }
}
