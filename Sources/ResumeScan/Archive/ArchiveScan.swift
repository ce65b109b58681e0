import Crypto
import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scans one zip or tar extraction (forensic-formats §3) in one streaming pass of
/// ``ArchiveReader``, never unpacking it: each regular member is decided by its first bytes as
/// ``FileProbe`` decides a file, a property list within ``readLimit`` is searched for blobs, and
/// partial files are hashed as they stream by. The layout (app containers, their metadata plist,
/// container UUID folders, where `private/var/` starts beneath a leading folder) is collected on
/// the way and used once the pass is over, since a container's metadata plist may come after its
/// blob.
///
/// Memory follows what is worth reporting, not the archive: one member's bytes at most (up to
/// ``readLimit``), the findings, and the names of members in `tmp/` folders (where a blob's
/// `TempFileName` is looked up), containers and UUID folders, each bounded by
/// ``maximumRemembered``; and nsurlsessiond's ledgers with their WALs (``ArchiveLedgers``), held
/// until the pass is over within ``LedgerProbe/maximumHeldSize``.
struct ArchiveScan: Sendable {
    /// The archive file as given.
    let root: String
    /// The search of a folder scan's files (its `readLimit` does not apply: ``readLimit`` does).
    var probe = FileProbe()
    var limits = ArchiveReader.Limits()
    /// Property lists larger than this are hashed when they are partial files, never searched:
    /// one member is held at a time, and its parse must fit in the scan's 128 MiB too.
    var readLimit = 32 << 20
    /// Members in `tmp/` folders, containers and UUID folders remembered at most (each).
    var maximumRemembered = 200_000
    /// The archive, already open (an archive met in a walked folder, opened without following a
    /// link): read instead of opening ``root``, and closed once read.
    var descriptor: Int32? = nil

    init(root: String) {
        self.root = root
    }

    /// What is at a path of the archive that no finding is: a member in a `tmp/` folder.
    struct Entry: Sendable {
        /// The member's name as the archive spells it.
        var name: String
        var entry: PartialFileResolution.Entry
        /// Its status and SHA-256, for a regular member.
        var status: FileStatus?
        var sha256: String?
    }

    /// What the scan of one archive found.
    struct Outcome: Sendable {
        var summary: ArchiveSummary
        /// Members holding blobs or being partial files, by path (``ArchiveMemberName/path``).
        var findings: [FileProbe.Finding] = []
        /// Problems with single members, then (last) why the pass stopped, if it did.
        var errors: [ScanProblem] = []
        /// The members in `tmp/` folders, by path.
        var entries: [BytePath: Entry] = [:]
        /// Folders holding a `Library/` or `tmp/` folder: the app containers.
        var containers: Set<BytePath> = []
        /// Folders named like a container UUID, by that name in upper case.
        var uuidFolders: [String: [String]] = [:]
        /// Each container's `MCMMetadataIdentifier`, by container path.
        var bundleIDs: [BytePath: String] = [:]
        /// Where the device's `/private/var` is in the archive (`filesystem1/private/var`), in
        /// the order first met.
        var deviceRoots: [String] = []

        /// The container a path is in.
        func container(of path: String) -> String? {
            AppContainerLayout.containerRoot(of: path, containers: containers)
        }

        /// Paths of the archive where a device's `LocalPath` may be, best first: the device
        /// path beneath each place `private/var/` was found, then as a folder scan looks for it.
        func localPathCandidates(_ localPath: String, container: String?) -> [String] {
            AppContainerLayout.localPathCandidates(localPath, roots: [], deviceRoots: deviceRoots, containerRoot: container, uuidFolders: uuidFolders)
        }
    }

    /// Reads the archive; nil when `root` is not an archive libarchive recognises (a plain file
    /// keeps a folder scan's behaviour). `progress` is called every few thousand members.
    func run(progress: (_ files: Int, _ blobs: Int, _ current: String) -> Void = { _, _, _ in }) -> Outcome? {
        // The user named the file: a link given here is followed, as a folder root's is.
        let path = FileSystemCalls.system.resolved(BytePath(spelled: root))?.spelled ?? root
        let reader: ArchiveReader
        do {
            if let descriptor {
                reader = try ArchiveReader(descriptor: descriptor, limits: limits, calls: probe.calls)
            } else {
                reader = try ArchiveReader(path: path, limits: limits, calls: probe.calls)
            }
        } catch {
            if case .notAnArchive = error { return nil }
            var outcome = Outcome(summary: ArchiveSummary(root: root, format: "", memberCount: 0, fileCount: 0, isComplete: false))
            outcome.errors.append(ScanProblem(path: root, message: error.description))
            return outcome
        }
        var state = State(scan: self)
        var lastName = ""
        do {
            while let member = try reader.next() {
                if state.outcome.summary.memberCount == 0 { state.outcome.summary.format = reader.format }
                state.outcome.summary.memberCount += 1
                lastName = member.name
                try state.take(member, from: reader)
                if state.outcome.summary.memberCount % 4096 == 0 {
                    progress(state.outcome.summary.fileCount, state.blobCount, member.name)
                }
            }
            if state.outcome.summary.memberCount == 0 {
                // An empty file is not an archive of nothing: keep a folder scan's answer.
                if reader.format.isEmpty { return nil }
                state.outcome.summary.format = reader.format
            }
            state.outcome.summary.isComplete = true
            state.readLedgers()
        } catch let failure as ArchiveReader.Failure {
            if case .notAnArchive = failure, state.outcome.summary.memberCount == 0 { return nil }
            state.readLedgers()
            state.stopped(failure, lastName: lastName)
        } catch {
            state.readLedgers()
            state.stopped(.corrupt(member: state.outcome.summary.memberCount, "\(error)"), lastName: lastName)
        }
        return state.finish()
    }

    /// The pass's state: the outcome so far, findings by path (a later member of the same name
    /// replaces an earlier one, as unpacking would).
    private struct State {
        let scan: ArchiveScan
        var outcome: Outcome
        var findingIndex: [BytePath: Int] = [:]
        var blobCount = 0
        var rememberedUUIDs = 0
        var warnedForgetting = false
        /// The folders the last member lay in (its components, and how many are folders).
        var lastFolders: (components: [String], count: Int) = ([], 0)
        /// nsurlsessiond's ledgers and their WALs, held until the pass is over.
        var ledgers = ArchiveLedgers()
        /// The last member of each path that is not a folder, by the path's SHA-256 cut to 128
        /// bits: a later member of the same name is told whatever either is, and an archive of a
        /// million members costs a few dozen MiB here, not its names.
        var memberOfPath: [PathDigest: Int] = [:]
        /// Members that had an earlier member's name, past those told one by one.
        var untoldDuplicates = 0

        struct PathDigest: Hashable {
            let high: UInt64
            let low: UInt64

            init(_ path: String) {
                var words = (UInt64(0), UInt64(0))
                withUnsafeMutableBytes(of: &words) { buffer in
                    for (index, byte) in SHA256.hash(data: Data(path.utf8)).prefix(16).enumerated() { buffer[index] = byte }
                }
                (high, low) = words
            }
        }

        init(scan: ArchiveScan) {
            self.scan = scan
            outcome = Outcome(summary: ArchiveSummary(root: scan.root, format: "", memberCount: 0, fileCount: 0, isComplete: false))
        }

        mutating func problem(_ member: ArchiveReader.Member, _ message: String) {
            outcome.errors.append(ScanProblem(path: member.name, message: "member \(member.index): \(message)"))
        }

        mutating func take(_ member: ArchiveReader.Member, from reader: ArchiveReader) throws {
            let name: ArchiveMemberName
            switch ArchiveMemberName.parse(member.name) {
            case .relative(let parsed): name = parsed
            case .root:
                // The root's entry says nothing; a file named only by dots and slashes is drained
                // like any member, so the bomb bound applies.
                if member.kind == .regular { try drain(reader) }
                return
            case .unsafe(let reason):
                problem(member, "skipped: \(reason); never written out")
                // Drained through the reader, not skipped by libarchive, so the bomb bound applies.
                if member.kind == .regular { try drain(reader) }
                return
            }
            noteLayout(name, isFolder: member.kind == .directory)
            let path = name.path
            let components = name.components
            let fileName = components.last ?? path
            let parentName = components.count > 1 ? components[components.count - 2] : ""
            if member.kind != .directory {
                let key = PathDigest(path)
                if let earlier = memberOfPath.updateValue(member.index, forKey: key) { duplicate(member, of: earlier, path: path) }
            }
            switch member.kind {
            case .directory:
                return
            case .symbolicLink, .hardLink:
                let what = member.kind == .symbolicLink ? "a symbolic link" : "a hard link"
                problem(member, "skipped: \(what) member, never followed")
                remember(path, Entry(name: member.name, entry: .other(what)), parentName: parentName)
                if Self.isInDownloads(components) { rememberDownload(path, Entry(name: member.name, entry: .other(what))) }
                return
            case .other:
                remember(path, Entry(name: member.name, entry: .other("not a regular file")), parentName: parentName)
                try drain(reader)
                return
            case .regular:
                break
            }
            outcome.summary.fileCount += 1
            let isPartialFile = AppContainerLayout.isPartialFile(name: fileName, parentName: parentName)
            let inTmp = parentName == "tmp" && outcome.entries.count < scan.maximumRemembered
            let isMetadata = fileName == AppContainerLayout.metadataName
            let inDownloads = Self.isInDownloads(components)
            var hold = ArchiveLedgers.Hold(name: path, isPartialFile: isPartialFile,
                                           limit: path.hasSuffix("-wal") ? ledgers.walRoom : LedgerProbe.maximumHeldSize)

            // First bytes decide; a candidate is kept whole (within the read limit), a partial
            // file (or a file of tmp/, which a blob may name) is hashed as it streams by.
            var hasher: SHA256? = isPartialFile || inTmp || inDownloads ? SHA256() : nil
            let prefixLength = ScanContentKind.prefixLength
            let limit = scan.readLimit
            var data: Data? = (member.declaredSize ?? 0) <= Int64(limit) ? Data() : nil
            var verdict: EvidenceTriage.Verdict?
            var head: [UInt8] = []
            // Whether a -wal member will follow is not known while this one streams by.
            func triage() -> EvidenceTriage.Verdict {
                EvidenceTriage.verdict(prefix: head, isPartialFile: isPartialFile, size: nil, wal: .unknown)
            }
            let total: Int64
            do {
                total = try reader.read { chunk in
                    hasher?.update(bufferPointer: chunk)
                    hold.take(chunk)
                    if verdict == nil {
                        head.append(contentsOf: chunk.prefix(prefixLength - head.count))
                        if head.count >= prefixLength {
                            verdict = triage()
                            if verdict?.mayHoldBlobs != true { data = nil }
                        }
                    }
                    if data != nil {
                        if (data?.count ?? 0) + chunk.count > limit {
                            data = nil
                        } else if let base = chunk.baseAddress {
                            data?.append(base.assumingMemoryBound(to: UInt8.self), count: chunk.count)
                        }
                    }
                }
            } catch let failure as ArchiveReader.Failure {
                if case .longerThanDeclared = failure {
                    // The header lied; what came is not this member: skip it, read on.
                    problem(member, "skipped: \(failure.description)")
                    return
                }
                throw failure
            }
            var status = FileStatus(size: total, modified: Date(timeIntervalSince1970: Double(member.modified ?? 0)))
            // libarchive's zip reader sets a change time of 0 when the zip has no extended
            // timestamp: the epoch itself is never a device's time, so 0 is no time at all.
            status.changed = member.changed.flatMap { $0 == 0 ? nil : Date(timeIntervalSince1970: Double($0)) }
            status.created = member.created.flatMap { $0 == 0 ? nil : Date(timeIntervalSince1970: Double($0)) }
            status.mode = member.mode == 0 ? nil : member.mode
            if !(verdict ?? triage()).mayHoldBlobs { data = nil }
            if isMetadata, components.count > 1, let data, let bundleID = AppContainerLayout.bundleID(inMetadata: data) {
                outcome.bundleIDs[BytePath(spelled: BytePath(joining: components.dropLast()).text)] = bundleID
            }
            var held = ArchiveEvidence.Member(name: member.name, path: path, fileName: fileName, parentName: parentName,
                                              isPartialFile: isPartialFile, head: head, data: data, status: status,
                                              sha256: hasher.map { SHA256Hex(digest: $0.finalize()).text })
            var finding: FileProbe.Finding?
            switch EvidenceProbe(search: scan.probe.search, hashLimit: scan.probe.hashLimit).probe(&held, in: ArchiveEvidence(readLimit: limit, root: scan.root)) {
            case .found(let found, _): finding = found
            case .nothing, .ledger, .failed: finding = nil
            }
            // A file of tmp/ or of nsurlsessiond's Downloads is remembered with the digest a finding has.
            let digest = finding?.sha256 ?? held.sha256
            if inTmp { remember(path, Entry(name: member.name, entry: .regularFile(size: total), status: status, sha256: digest), parentName: parentName) }
            if inDownloads { rememberDownload(path, Entry(name: member.name, entry: .regularFile(size: total), status: status, sha256: digest)) }
            hold.decide(atEnd: true)
            ledgers.keep(hold, name: member.name, index: member.index, components: components, path: path, status: status)
            guard let finding else {
                if let index = findingIndex.removeValue(forKey: BytePath(spelled: path)) { drop(index) }
                return
            }
            let blobs = finding.blobs
            if let index = findingIndex[BytePath(spelled: path)] {
                blobCount += blobs.count - outcome.findings[index].blobs.count
                outcome.findings[index] = finding
            } else {
                findingIndex[BytePath(spelled: path)] = outcome.findings.count
                outcome.findings.append(finding)
                blobCount += blobs.count
            }
        }

        /// Told once per member, the first few by name, whatever either member is: unpacking
        /// writes both and leaves the later, so the later is what is reported, and the examiner
        /// should know an earlier one (perhaps a blob) was there.
        private mutating func duplicate(_ member: ArchiveReader.Member, of earlier: Int, path: String) {
            guard outcome.summary.warnings.count < Self.maximumToldDuplicates else {
                untoldDuplicates += 1
                return
            }
            outcome.summary.warnings.append("member \(member.index), \(path), has the name of member \(earlier) before it: "
                                            + "unpacking leaves the later one, which is what is reported")
        }

        /// Duplicates told one by one; the rest are counted in one more warning.
        static let maximumToldDuplicates = 20

        /// Reads a member's bytes to nothing, within the reader's bounds.
        private func drain(_ reader: ArchiveReader) throws {
            do {
                _ = try reader.read { _ in }
            } catch ArchiveReader.Failure.longerThanDeclared {
                return
            }
        }

        /// A later member of the same name that is nothing: the earlier finding goes, as
        /// unpacking would overwrite it.
        private mutating func drop(_ index: Int) {
            blobCount -= outcome.findings[index].blobs.count
            outcome.findings.remove(at: index)
            for (key, value) in findingIndex where value > index { findingIndex[key] = value - 1 }
        }

        private mutating func remember(_ path: String, _ entry: Entry, parentName: String) {
            guard parentName == "tmp" else { return }
            if outcome.entries[BytePath(spelled: path)] == nil, outcome.entries.count >= scan.maximumRemembered {
                forgetting()
                return
            }
            outcome.entries[BytePath(spelled: path)] = entry
        }

        /// Whether a member lies in nsurlsessiond's Downloads folder of a container, where the
        /// ledger's partial files are.
        static func isInDownloads(_ components: [String]) -> Bool {
            guard components.count > 2 else { return false }
            return components.indices.dropLast(2).contains { components[$0] == "com.apple.nsurlsessiond" && components[$0 + 1] == "Downloads" }
        }

        private mutating func rememberDownload(_ path: String, _ entry: Entry) {
            if ledgers.downloads[BytePath(spelled: path)] == nil, ledgers.downloads.count >= scan.maximumRemembered {
                forgetting()
                return
            }
            ledgers.downloads[BytePath(spelled: path)] = entry
        }

        /// The pass is over: the ledgers held are read and their partial files placed.
        mutating func readLedgers() {
            let findings = outcome.findings
            let index = findingIndex
            let downloads = ledgers.downloads
            let entries = outcome.entries
            let result = ledgers.read(root: scan.root) { path in
                if let found = index[BytePath(spelled: path)], findings.indices.contains(found) {
                    let finding = findings[found]
                    return Entry(name: finding.source?.inner ?? path, entry: .regularFile(size: finding.status.size),
                                 status: finding.status, sha256: finding.sha256)
                }
                return downloads[BytePath(spelled: path)] ?? entries[BytePath(spelled: path)]
            }
            outcome.findings += result.findings
            outcome.errors += result.problems
        }

        private mutating func forgetting() {
            guard !warnedForgetting else { return }
            warnedForgetting = true
            outcome.errors.append(ScanProblem(path: scan.root, message:
                "more than \(scan.maximumRemembered) containers, UUID folders or tmp/ files: later ones are not used to pair blobs"))
        }

        /// Containers (folders holding `Library/` or `tmp/`), UUID folders and where
        /// `private/var/` starts, from one member's name: the folders it lies in (or is).
        private mutating func noteLayout(_ name: ArchiveMemberName, isFolder: Bool) {
            let components = name.components
            let folderCount = components.count - (isFolder ? 0 : 1)
            guard folderCount > 0 else { return }
            // Members come folder by folder: what the last member's folders noted, these note
            // again. Only from the first folder that differs (less one: the device-var rule looks
            // one component ahead) is anything new, which halves a large archive's scan.
            var common = 0
            let last = lastFolders
            while common < min(folderCount, last.count), components[common] == last.components[common] { common += 1 }
            lastFolders = (components, folderCount)
            for index in max(0, common - 1)..<folderCount {
                let component = components[index]
                if index > 0, AppContainerLayout.markerFolders.contains(component) {
                    let container = BytePath(spelled: BytePath(joining: components[..<index]).text)
                    if !outcome.containers.contains(container) {
                        if outcome.containers.count < scan.maximumRemembered { outcome.containers.insert(container) } else { forgetting() }
                    }
                }
                if AppContainerLayout.isContainerUUID(component) {
                    let folder = BytePath(joining: components[...index]).text
                    let key = component.uppercased()
                    if outcome.uuidFolders[key]?.contains(where: { $0.utf8.elementsEqual(folder.utf8) }) != true {
                        if rememberedUUIDs < scan.maximumRemembered {
                            outcome.uuidFolders[key, default: []].append(folder)
                            rememberedUUIDs += 1
                        } else {
                            forgetting()
                        }
                    }
                }
                if name.isDeviceVar(at: index) {
                    let deviceRoot = BytePath(joining: components[...index]).text
                    if !outcome.deviceRoots.contains(where: { $0.utf8.elementsEqual(deviceRoot.utf8) }), outcome.deviceRoots.count < 16 {
                        outcome.deviceRoots.append(deviceRoot)
                    }
                }
            }
        }

        /// The pass stopped: what was found is kept, and why is the last problem.
        mutating func stopped(_ failure: ArchiveReader.Failure, lastName: String) {
            outcome.summary.isComplete = false
            // libarchive's texts may end in a newline.
            var message = failure.description.trimmingCharacters(in: .whitespacesAndNewlines)
            switch failure {
            case .corrupt, .bomb, .longerThanDeclared:
                if !lastName.isEmpty { message += " (the last member read: \(lastName))" }
            default:
                break
            }
            outcome.errors.append(ScanProblem(path: scan.root, message: message + "; the findings before it are reported"))
        }

        func finish() -> Outcome {
            var outcome = self.outcome
            if untoldDuplicates > 0 {
                outcome.summary.warnings.append("and \(untoldDuplicates) more member\(untoldDuplicates == 1 ? "" : "s") with an earlier one's name")
            }
            // A `private/var` met before its first `var/mobile` spelling is the better root.
            outcome.deviceRoots.sort { ($0.hasSuffix("private/var") ? 0 : 1) < ($1.hasSuffix("private/var") ? 0 : 1) }
            return outcome
        }
    }

    /// Whether `path` names a regular file (following a link: the user named it).
    static func isRegularFile(_ path: String) -> Bool {
        FileSystemCalls.system.isRegularFile(BytePath(spelled: path))
    }

    /// Whether the file at `path` (a root: a link is followed, the user named it) is worth
    /// handing to libarchive: its first bytes are a zip's or a tar's by ``ArchiveSignature``, the
    /// one test a file met in a folder passes to be listed as an archive. A file that cannot be
    /// opened or read is handed on, so that the reader says why.
    static func mayBeArchive(_ path: String, calls: FileSystemCalls = .system) -> Bool {
        guard case .success(let descriptor) = calls.openEvidenceRoot(BytePath(spelled: path)) else { return true }
        defer { _ = calls.close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: ScanContentKind.prefixLength)
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in calls.read(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) }
            guard case .success(let count) = got else { return true }
            if count == 0 { break }
            filled += count
        }
        return ArchiveSignature.kind(prefix: bytes.prefix(filled)) != nil
    }
}
