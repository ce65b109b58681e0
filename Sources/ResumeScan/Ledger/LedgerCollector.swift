import Foundation

/// How one kind of evidence answers the ledger collector (issue 34): a folder's file
/// (``FolderLedgers``), a backup's row (``BackupLedgers``), an archive's held member
/// (``ArchiveLedgers``). The decision (first page, then the WAL), the bound on what is held and
/// how a failure is told are ``LedgerCollector``'s, once.
protocol LedgerSource {
    /// A file whose first bytes triage took for a possible ledger.
    associatedtype Candidate

    /// What its first page says; nil when it cannot be read (replaced since it was listed): not
    /// a ledger, and nothing to tell.
    func firstPage(of candidate: Candidate) throws(ScanProblem) -> LedgerProbe.FirstPage?
    /// Whether its WAL holds the `session_tasks` schema: asked only of an empty schema.
    mutating func walHoldsSchema(of candidate: Candidate) throws(ScanProblem) -> Bool
    /// How many bytes the ledger and its WAL would hold in memory, for the bound; nil when it is
    /// read from where it lies (a folder's, through a private copy).
    func heldSize(of candidate: Candidate) throws(LedgerCollector.Failure) -> Int64?
    /// The ledger read, its tasks' partial files placed; nil when nothing is to be said.
    mutating func read(_ candidate: Candidate) throws -> FileProbe.Finding?
    /// A problem with the candidate: where it is, and `message`.
    func problem(_ candidate: Candidate, _ message: String) -> ScanProblem
}

/// nsurlsessiond's ledgers told from other SQLite files and read, the same way for every kind of
/// evidence: the first page holds the schema, or has an empty one and the WAL holds it
/// (``LedgerProbe/isLedger(_:walHoldsSchema:)``); a ledger over ``LedgerProbe/maximumHeldSize``
/// is reported, not read; a failure is said of the file as "nsurlsessiond's ledger: …".
enum LedgerCollector {
    enum Failure: Error {
        /// The ledger and its WAL together are over ``LedgerProbe/maximumHeldSize``.
        case overLimit(Int64)
        case unreadable(String)
    }

    /// What one candidate turned out to be.
    enum Outcome {
        case notALedger
        case found(FileProbe.Finding)
        case failed(ScanProblem)
    }

    static func collect<Source: LedgerSource>(_ candidate: Source.Candidate, from source: inout Source) -> Outcome {
        do {
            guard let page = try source.firstPage(of: candidate),
                  try LedgerProbe.isLedger(page, walHoldsSchema: { try source.walHoldsSchema(of: candidate) }) else { return .notALedger }
            if let size = try source.heldSize(of: candidate), size > Int64(LedgerProbe.maximumHeldSize) { throw Failure.overLimit(size) }
            guard let finding = try source.read(candidate) else { return .notALedger }
            return .found(finding)
        } catch Failure.overLimit(let size) {
            return .failed(source.problem(candidate, LedgerProbe.overLimit(size)))
        } catch {
            return .failed(source.problem(candidate, "nsurlsessiond's ledger: " + message(of: error)))
        }
    }

    /// The candidates that are ledgers read in order, the rest forgotten.
    static func collect<Source: LedgerSource>(_ candidates: some Sequence<Source.Candidate>, from source: inout Source)
        -> (findings: [FileProbe.Finding], problems: [ScanProblem]) {
        var findings: [FileProbe.Finding] = []
        var problems: [ScanProblem] = []
        for candidate in candidates {
            switch collect(candidate, from: &source) {
            case .notALedger: continue
            case .found(let finding): findings.append(finding)
            case .failed(let problem): problems.append(problem)
            }
        }
        return (findings, problems)
    }

    private static func message(of error: any Error) -> String {
        switch error {
        case let error as ScanProblem: error.message
        case let error as EvidenceDatabaseError: error.message
        case Failure.unreadable(let message): message
        default: "\(error)"
        }
    }
}
