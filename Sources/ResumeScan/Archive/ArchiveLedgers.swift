import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// nsurlsessiond's ledger in a zip or tar extraction (issue 26), gathered in the archive's one
/// streaming pass: a member whose content is SQLite with the `session_tasks` schema on its first
/// page (or an empty schema, the tables still in its WAL) is held, and so is a `-wal` member,
/// since the two may come in either order; once the pass is over each ledger is read with its
/// WAL and its tasks' partial files are placed among the members under the same leading folder.
///
/// What is held is bounded by ``LedgerProbe/maximumHeldSize``: a ledger with its WAL larger than
/// that is reported, not read, and `-wal` members whose database has not come yet are held only
/// up to that many bytes together (one left out is said when its database turns out a ledger).
struct ArchiveLedgers {
    /// A member held as a possible ledger.
    struct Database {
        var name: String
        var index: Int
        var components: [String]
        var bytes: Data?
        var status: FileStatus
        /// The schema is on the first page; otherwise the page has an empty schema and the WAL decides.
        var schemaOnPage: Bool
        /// Its size, when it was over the limit and not held.
        var overLimit: Int64?
    }

    /// Possible ledgers, by path (a later member of the same path replaces an earlier one).
    private(set) var databases: [BytePath: Database] = [:]
    /// `-wal` members' bytes, by the path of their database.
    private(set) var wals: [BytePath: Data] = [:]
    /// `-wal` members not held (over the limit), with their size, by the path of their database.
    private(set) var walsLeftOut: [BytePath: Int64] = [:]
    /// The bytes of the held `-wal` members.
    private var walBytes = 0
    /// Empty members held (a ledger whose every page is in its WAL is an empty file beside it).
    private var emptyCount = 0
    static let maximumEmptyMembers = 10_000
    /// Members in nsurlsessiond's Downloads folders: where ledger tasks' partial files are.
    var downloads: [BytePath: ArchiveScan.Entry] = [:]

    static let walMagic: [[UInt8]] = [[0x37, 0x7F, 0x06, 0x82], [0x37, 0x7F, 0x06, 0x83]]

    /// What one member's bytes say while they stream by.
    struct Hold {
        enum Kind { case undecided, none, database, wal }
        private(set) var kind: Kind = .undecided
        /// The first page at most, kept to decide whatever the limit.
        private var head = Data()
        /// The whole content, while within the limit.
        private(set) var bytes = Data()
        /// How many bytes came, held or not.
        private(set) var total: Int64 = 0
        /// Bytes given up on: more than the limit.
        private(set) var overLimit = false
        /// Whether the first page holds the schema itself (else it is empty and the WAL decides).
        private(set) var schemaOnPage = false
        let isWALName: Bool
        /// A partial file by its name: never a ledger (``EvidenceTriage``).
        let isPartialFile: Bool
        let limit: Int

        init(name: String, isPartialFile: Bool, limit: Int) {
            isWALName = name.hasSuffix("-wal")
            self.isPartialFile = isPartialFile
            self.limit = limit
        }

        mutating func take(_ chunk: UnsafeRawBufferPointer) {
            total += Int64(chunk.count)
            guard kind != .none else { return }
            if kind == .undecided {
                head.append(contentsOf: chunk.prefix(max(0, LedgerProbe.firstPageLimit - head.count)))
                decide(atEnd: false)
                guard kind != .none else { return }
            }
            guard !overLimit else { return }
            if bytes.count + chunk.count > limit {
                overLimit = true
                bytes = Data()
                return
            }
            bytes.append(contentsOf: chunk)
        }

        /// Decides from the first bytes: what ``EvidenceTriage`` holds a ledger may be (SQLite's
        /// magic, or an empty member: its WAL may still come) and a first page that names
        /// `session_tasks` or has an empty schema, or a WAL's magic in a `-wal` member.
        mutating func decide(atEnd: Bool) {
            guard kind == .undecided else { return }
            if isWALName {
                guard head.count >= 4 || atEnd else { return }
                kind = ArchiveLedgers.walMagic.contains(where: { head.starts(with: $0) }) ? .wal : .none
            } else {
                guard head.count >= 16 || atEnd else { return }
                if EvidenceTriage.mayBeLedger(prefix: head, isEmpty: total == 0, isPartialFile: isPartialFile, wal: .unknown) {
                    // The first page decides: wait for it, or for the end.
                    guard atEnd || head.count >= LedgerProbe.firstPageLimit else { return }
                    let page = LedgerProbe.FirstPage(head)
                    schemaOnPage = page == .schema
                    kind = page == .other ? .none : .database
                } else {
                    kind = .none
                }
            }
            head = Data()
            if kind == .none { bytes = Data() }
        }
    }

    /// How many bytes a `-wal` member may still be held with.
    var walRoom: Int { max(0, LedgerProbe.maximumHeldSize - walBytes) }

    /// Keeps what a member turned out to be, once it has streamed by.
    mutating func keep(_ hold: Hold, name: String, index: Int, components: [String], path: String, status: FileStatus) {
        switch hold.kind {
        case .database:
            // Empty members are many in an extraction: only so many wait for a WAL.
            if hold.total == 0 {
                guard databases[BytePath(spelled: path)] != nil || emptyCount < Self.maximumEmptyMembers else { return }
                emptyCount += 1
            }
            databases[BytePath(spelled: path)] = Database(name: name, index: index, components: components, bytes: hold.overLimit ? nil : hold.bytes,
                                       status: status, schemaOnPage: hold.schemaOnPage, overLimit: hold.overLimit ? hold.total : nil)
        case .wal:
            let member = BytePath(spelled: path)
            let owner = member.removingSuffix("-wal") ?? member
            if let earlier = wals.removeValue(forKey: owner) { walBytes -= earlier.count }
            walsLeftOut.removeValue(forKey: owner)
            if hold.overLimit {
                walsLeftOut[owner] = hold.total
            } else {
                wals[owner] = hold.bytes
                walBytes += hold.bytes.count
            }
        case .none, .undecided:
            // A later member of the same path that is not a ledger replaces the earlier one.
            databases.removeValue(forKey: BytePath(spelled: path))
        }
    }

    /// What the archive says of a partial file not among its members.
    static let partialFileNotInArchive = "not in the archive"
    static let partialFileOutsideArchive = "a path outside the device's file system"

    /// Reads each held ledger once the pass is over, in path order.
    /// - Parameter lookUp: what is at a member path (a finding, a remembered member), nil when nothing known.
    func read(root: String, lookUp: @escaping (String) -> ArchiveScan.Entry?) -> (findings: [FileProbe.Finding], problems: [ScanProblem]) {
        var source = Source(held: self, root: root, lookUp: lookUp)
        return LedgerCollector.collect(databases.keys.map(\.spelled).sorted(by: TreeWalker.byteOrder), from: &source)
    }

    /// The held members as ``LedgerCollector`` asks: the page was judged while the member
    /// streamed by, the WAL is the `-wal` member held, and the partial files are looked up among
    /// the members under the ledger's own leading folder.
    struct Source: LedgerSource {
        let held: ArchiveLedgers
        let root: String
        let lookUp: (String) -> ArchiveScan.Entry?

        func firstPage(of path: String) throws(ScanProblem) -> LedgerProbe.FirstPage? {
            held.databases[BytePath(spelled: path)].map { $0.schemaOnPage ? .schema : .emptySchema }
        }

        func walHoldsSchema(of path: String) throws(ScanProblem) -> Bool {
            held.wals[BytePath(spelled: path)].map(LedgerProbe.holdsSchema) ?? false
        }

        func heldSize(of path: String) throws(LedgerCollector.Failure) -> Int64? {
            guard let database = held.databases[BytePath(spelled: path)] else { return nil }
            if let size = database.overLimit { return size }
            return Int64((database.bytes?.count ?? 0) + (held.wals[BytePath(spelled: path)]?.count ?? 0))
        }

        func read(_ path: String) throws -> FileProbe.Finding? {
            guard let database = held.databases[BytePath(spelled: path)], let bytes = database.bytes else { return nil }
            let components = database.components
            let lookUp = self.lookUp
            return try LedgerProbe.readHeld(
                bytes: bytes, wal: held.wals[BytePath(spelled: path)], path: path, status: database.status,
                source: FindingSource(kind: .archive, root: root, inner: database.name),
                warnings: held.walsLeftOut[BytePath(spelled: path)].map { size in
                    ["its -wal member (\(size) bytes) was over the limit of \(LedgerProbe.maximumHeldSize) held in memory: read without it"]
                } ?? [],
                missing: { _ in ArchiveLedgers.partialFileNotInArchive }, unplaceable: ArchiveLedgers.partialFileOutsideArchive
            ) { _, device in
                let member = ArchiveLedgers.memberPath(device, ledger: components)
                return (member, lookUp(member)?.entry ?? .missing)
            }
        }

        func problem(_ path: String, _ message: String) -> ScanProblem {
            guard let database = held.databases[BytePath(spelled: path)] else { return ScanProblem(path: path, message: message) }
            return ScanProblem(path: database.name, message: "member \(database.index): \(message)")
        }
    }

    /// The member path of a device path (`private`, `var`, …) under the ledger's own leading
    /// folder: `filesystem1/private/var/…`, or `var/…` in an extraction that starts at `/var`.
    static func memberPath(_ device: [String], ledger components: [String]) -> String {
        let name = ArchiveMemberName(components: components)
        guard let index = components.indices.first(where: { name.isDeviceVar(at: $0) }) else {
            return BytePath(joining: device).text
        }
        if index > 0, components[index - 1] == "private" {
            return BytePath(joining: components[..<(index - 1)] + device).text
        }
        return BytePath(joining: components[..<index] + device.dropFirst()).text
    }
}
