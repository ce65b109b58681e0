import Foundation

/// What `scan` makes of one file of any evidence (issue 34): its first bytes decide
/// (``EvidenceTriage``), a candidate within the source's bound is read whole and searched
/// (``HeldContent``), and a file with blobs, Safari's, or a partial download is hashed and
/// reported with its status. The sources differ only in how they answer
/// (``EvidenceSource``); what they are asked, and what is made of the answers, is here once.
struct EvidenceProbe: Sendable {
    var search = ResumeBlobSearch()
    /// Which files are hashed: a sparse or large one is described, not read to its end.
    var hashLimit = HashLimit.standard

    enum Outcome {
        /// Nothing in it matters: forgotten at once.
        case nothing
        /// SQLite's header (or an empty file a WAL may fill): the source's ledger collector decides.
        case ledger
        /// A finding, with a note when its status is not the device's own.
        case found(FileProbe.Finding, note: ScanProblem?)
        case failed(ScanProblem)
    }

    func probe<Source: EvidenceSource>(_ member: inout Source.Member, in source: Source) -> Outcome {
        do throws(ScanProblem) {
            let first = try source.firstBytes(of: &member)
            let isPartialFile = source.isPartialFile(member)
            let verdict = EvidenceTriage.verdict(prefix: first.bytes, isPartialFile: isPartialFile, size: first.size,
                                                 wal: source.wal(beside: member))
            let name = source.name(of: member)
            // A file named as Safari's is read whatever its first bytes say: one that does not
            // read as Safari's is reported, not passed over (an empty or a foreign Info.plist
            // leaves its bundle's data file an orphan, and the examiner must know why).
            let safariRole = SafariEvidence.Role(name: name, parentName: { source.parentName(of: member) })
            if verdict == .ledger, safariRole == nil { return .ledger }
            if verdict == .skip, safariRole == nil {
                // A zip or tar archive is listed, told by the bytes already read; never read here
                // (`--open-archives` reads a folder's as a root archive is read).
                guard let kind = ArchiveSignature.kind(prefix: first.bytes), try source.size(of: &member) != nil else { return .nothing }
                let (status, note) = source.status(of: &member)
                var finding = FileProbe.Finding(path: source.path(of: member), status: status, blobs: [], isPartialFile: false,
                                                source: source.findingSource(of: member))
                finding.archiveKind = kind
                return .found(finding, note: note)
            }
            guard verdict != .skip || safariRole != nil, let size = try source.size(of: &member) else { return .nothing }
            var held: Data?
            if verdict.mayHoldBlobs || safariRole != nil, size <= Int64(source.readLimit) { held = try source.whole(of: &member, size: size) }
            if safariRole != nil, held == nil {
                throw ScanProblem(path: source.path(of: member), message: "not read as Safari's: larger than \(source.readLimit) bytes")
            }
            var content = HeldContent()
            // A verdict from a hopeful first block is made again from the decrypted start.
            if let held, first.isWhole || safariRole != nil || ScanContentKind(prefix: held.prefix(ScanContentKind.prefixLength)).isCandidate {
                content = HeldContent(held, name: name, parentName: source.parentName(of: member), search: search)
            }
            if let problem = content.safari.problem, content.blobs.isEmpty {
                throw ScanProblem(path: source.path(of: member), message: "not read as Safari's: \(problem)")
            }
            guard content.isFound || isPartialFile else { return .nothing }
            let (status, note) = source.status(of: &member)
            // A partial file not held is hashed as it is read: it may be gigabytes, or a terabyte
            // of holes, which the limit spares. The limit is one rule for every file but an
            // archive's, which were hashed as they streamed by.
            let skipped = source.hashesOnDemand ? hashLimit.skip(size: status.size, allocatedSize: status.allocatedSize) : nil
            let digest = skipped != nil ? nil : content.sha256 ?? held.map { EvidenceHash.hex(of: $0) } ?? source.digest(of: &member)
            var finding = FileProbe.Finding(path: source.path(of: member), status: status, blobs: content.blobs, isPartialFile: isPartialFile,
                                            sha256: digest, source: source.findingSource(of: member),
                                            safariDownload: content.safari.download, safariHistory: content.safari.history)
            finding.hashSkipped = skipped
            return .found(finding, note: note)
        } catch {
            return .failed(error)
        }
    }
}
