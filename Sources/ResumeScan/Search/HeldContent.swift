import Foundation

/// What the whole bytes of a file that triage let through make of it: the blobs in them, what the
/// file is to Safari (``SafariEvidence``), and their SHA-256 when either makes the file worth a
/// finding. The one step after triage that a folder's file and an archive's member share, so
/// that what is searched, decided and hashed from held bytes is written once (a backup's file is
/// read and hashed its own way, decrypted on the fly).
struct HeldContent {
    var blobs: [FoundResumeBlob] = []
    var safari = SafariEvidence()
    /// The bytes' SHA-256 when they hold a blob or are Safari's; nil otherwise (a partial file
    /// is hashed as it streams, never held).
    var sha256: String?

    /// Nothing held: a file too large to read whole, or one triage skipped.
    init() {}

    init(_ data: Data, name: String, parentName: String, search: ResumeBlobSearch) {
        blobs = search.blobs(in: data)
        safari = SafariEvidence(name: name, parentName: parentName, data: data)
        if !blobs.isEmpty || safari.isFound { sha256 = EvidenceHash.hex(of: data) }
    }

    /// Whether the bytes alone make the file worth a finding.
    var isFound: Bool { !blobs.isEmpty || safari.isFound }
}
