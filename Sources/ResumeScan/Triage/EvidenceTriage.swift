/// What `scan` does with one file of any evidence (a folder's file, a backup's stored file, an
/// archive's member), decided from its first bytes, its name and parent folder, its size when
/// known, and whether a `-wal` sits beside it: one decision for every kind of evidence, without
/// I/O, so that a folder, a backup and an archive treat the same bytes alike.
///
/// The verdict only says what is worth reading further: a ``Verdict/ledger`` is nsurlsessiond's
/// ledger only if its first page (or its WAL) holds the `session_tasks` schema, and a
/// ``Verdict/candidate`` holds blobs only if the search finds them.
enum EvidenceTriage {
    /// Whether a `-wal` file sits beside the file.
    enum WAL: Sendable, Hashable {
        case beside
        case none
        /// Not known when the file is triaged: a folder's sibling is looked at only for an
        /// empty file, and an archive's `-wal` member may still come.
        case unknown
    }

    /// What to do with the file.
    enum Verdict: Sendable, Hashable {
        /// SQLite's header, or an empty file that a WAL may fill (a ledger created moments before
        /// the extraction): read its first page (and WAL) for the ledger's schema, never search it.
        case ledger
        /// A property list or a Network-framework blob: read whole within the bound and search.
        case candidate
        /// A partial download by its name: hashed and reported, and searched too when its
        /// content may hold blobs. Never a ledger, whatever its bytes.
        case partialFile(mayHoldBlobs: Bool)
        /// Nothing in it can matter: forgotten at once.
        case skip

        /// Whether the content is read whole and searched for blobs.
        var mayHoldBlobs: Bool {
            switch self {
            case .candidate, .partialFile(mayHoldBlobs: true): true
            case .ledger, .partialFile(mayHoldBlobs: false), .skip: false
            }
        }

        var isPartialFile: Bool {
            if case .partialFile = self { return true }
            return false
        }
    }

    /// The verdict on a file named `name` in a folder named `parentName`.
    static func verdict(prefix: some Collection<UInt8>, name: String, parentName: String, size: Int64?, wal: WAL) -> Verdict {
        verdict(prefix: prefix, isPartialFile: AppContainerLayout.isPartialFile(name: name, parentName: parentName), size: size, wal: wal)
    }

    /// The verdict on a file whose name was already judged (``AppContainerLayout/isPartialFile(name:parentName:)``).
    /// - Parameters:
    ///   - prefix: its first ``ScanContentKind/prefixLength`` bytes (all of it when shorter); fewer
    ///     only where reading more costs (an encrypted backup's first AES block), with `size` given.
    ///   - size: its size, when known before reading; nil takes `prefix` as all there is of the
    ///     first ``ScanContentKind/prefixLength`` bytes.
    static func verdict(prefix: some Collection<UInt8>, isPartialFile: Bool, size: Int64?, wal: WAL) -> Verdict {
        let isEmpty = size.map { $0 == 0 } ?? prefix.isEmpty
        if mayBeLedger(prefix: prefix, isEmpty: isEmpty, isPartialFile: isPartialFile, wal: wal) { return .ledger }
        let blobs = mayHoldBlobs(prefix: prefix, size: size)
        if isPartialFile { return .partialFile(mayHoldBlobs: blobs) }
        return blobs ? .candidate : .skip
    }

    /// Whether a file may be nsurlsessiond's ledger: not a partial file, and SQLite's header, or
    /// empty unless no WAL sits beside it (a ledger whose every page is still in its WAL is an
    /// empty file; SQLite deletes a WAL beside a file that has none).
    static func mayBeLedger(prefix: some Collection<UInt8>, isEmpty: Bool, isPartialFile: Bool, wal: WAL) -> Bool {
        guard !isPartialFile else { return false }
        if isEmpty { return wal != .none }
        return LedgerProbe.isSQLite(prefix)
    }

    /// Whether the content may hold blobs: decided by ``ScanContentKind`` from a whole prefix, or
    /// hoped for from a shorter one (an encrypted backup's first block) until more is decrypted.
    static func mayHoldBlobs(prefix: some Collection<UInt8>, size: Int64?) -> Bool {
        let isWhole = size.map { Int64(prefix.count) >= min($0, Int64(ScanContentKind.prefixLength)) } ?? true
        return isWhole ? ScanContentKind(prefix: prefix).isCandidate : ScanContentKind.mayBeCandidate(start: prefix)
    }
}
