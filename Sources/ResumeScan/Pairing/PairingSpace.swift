import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// How one kind of evidence answers the pairing's questions about its paths (issue 34): a
/// folder tree (``FolderPairing``), a backup (``BackupScan/Outcome``) and an archive
/// (``ArchiveScan/Outcome``) each conform once, and ``ScanInventory`` pairs the findings of any
/// of them the same way.
protocol PairingSpace {
    /// The app container (a folder, a backup's domain) a path is in.
    func container(of path: String) -> String?
    /// What is at a path that no finding is.
    func entry(at path: String) -> PartialFileResolution.Entry
    /// Where a `LocalPath` may now be, for a blob in `container`.
    func localPathCandidates(_ localPath: String, container: String?) -> [String]
    /// The app a container belongs to; mutating, so that a folder tree reads each container's
    /// metadata plist once.
    mutating func bundleID(of container: String?) -> String?
    /// Where a path is, for the report.
    func source(of path: String) -> FindingSource
    /// The status and digest of a paired partial file that is not a finding, and why it was not
    /// hashed when it was not (``HashLimit``).
    func evidence(at path: String) -> (status: FileStatus, sha256: String?, hashSkipped: HashSkip?)?
    /// Why a path is absent as expected (a backup leaves `tmp/` out), nil when it is not.
    func expectedAbsence(of path: String) -> String?
}

extension PairingSpace {
    func expectedAbsence(of path: String) -> String? { nil }
}

/// A walked folder tree's answers: containers and UUID folders as the walk found them, and what
/// is at a path, its bundle ID and its evidence looked up below the roots without following links.
struct FolderPairing: PairingSpace {
    let roots: [String]
    /// Which files are hashed (``HashLimit``).
    var hashLimit = HashLimit.standard
    let walker: TreeWalker
    /// The roots with links and `..` resolved, as a device's absolute `LocalPath` would name them,
    /// spelled by the rule a `LocalPath` is (``EvidenceName``).
    private let absoluteRoots: [(absolute: String, spelled: String)]
    private var bundles: [BytePath: String?] = [:]

    init(roots: [String], walker: TreeWalker) {
        self.roots = roots
        self.walker = walker
        absoluteRoots = roots.map { (absolute: Self.absolutePath(of: $0), spelled: $0) }
    }

    func container(of path: String) -> String? { AppContainerLayout.containerRoot(of: path, containers: walker.containers) }

    func entry(at path: String) -> PartialFileResolution.Entry { TreeWalker.entry(atPath: path, roots: roots) }

    func localPathCandidates(_ localPath: String, container: String?) -> [String] {
        AppContainerLayout.localPathCandidates(localPath, roots: absoluteRoots, containerRoot: container, uuidFolders: walker.uuidFolders)
    }

    mutating func bundleID(of container: String?) -> String? {
        guard let container else { return nil }
        if let known = bundles[BytePath(spelled: container)] { return known }
        let found = TreeWalker.containerBundleID(container, roots: roots)
        bundles[BytePath(spelled: container)] = found
        return found
    }

    /// The first root given that holds the path, and the path below it.
    func source(of path: String) -> FindingSource {
        let target = BytePath(path)
        for root in roots {
            if let inner = target.relative(to: BytePath(root)) { return FindingSource(kind: .folder, root: root, inner: inner.text) }
        }
        return FindingSource(kind: .folder, root: path, inner: "")
    }

    func evidence(at path: String) -> (status: FileStatus, sha256: String?, hashSkipped: HashSkip?)? { TreeWalker.evidence(atPath: path, roots: roots, hashLimit: hashLimit) }

    private static func absolutePath(of root: String) -> String {
        FileSystemCalls.system.resolved(BytePath(spelled: root))?.spelled ?? root
    }
}

/// A backup's answers: its domains are the containers, its rows what is at a path, and its
/// `tmp/` and `Library/Caches/` never backed up (``BackupExclusion``).
extension BackupScan.Outcome: PairingSpace {
    func container(of path: String) -> String? { BytePath(path).names().first?.text }

    func entry(at path: String) -> PartialFileResolution.Entry {
        guard let entry = entries[BytePath(spelled: path)], let record = try? entry.fileRecord() else { return .missing }
        return .regularFile(size: record.size)
    }

    func localPathCandidates(_ localPath: String, container: String?) -> [String] {
        AppContainerLayout.localPathCandidates(localPath, roots: [], containerRoot: container, uuidFolders: [:])
    }

    func bundleID(of container: String?) -> String? { container.flatMap(BackupScan.bundleID(ofDomain:)) }

    func source(of path: String) -> FindingSource { FindingSource(kind: kind, root: summary.root, inner: path) }

    /// Its times from its MBFile; its content is not read (a partial file is rarely in a backup,
    /// and one not named like CFNetwork's rarer still).
    func evidence(at path: String) -> (status: FileStatus, sha256: String?, hashSkipped: HashSkip?)? {
        guard let entry = entries[BytePath(spelled: path)], let record = try? entry.fileRecord() else { return nil }
        var status = FileStatus(size: record.size, modified: record.modified ?? Date(timeIntervalSince1970: 0))
        status.changed = record.changed
        status.created = record.created
        status.mode = record.mode
        return (status, nil, nil)
    }

    func expectedAbsence(of path: String) -> String? { BackupExclusion.expectedAbsence(of: path) }
}

/// An archive's answers: the layout collected in its one pass (``ArchiveScan/Outcome/container(of:)``,
/// ``ArchiveScan/Outcome/localPathCandidates(_:container:)``), and the members remembered.
extension ArchiveScan.Outcome: PairingSpace {
    func entry(at path: String) -> PartialFileResolution.Entry { entries[BytePath(spelled: path)]?.entry ?? .missing }

    func bundleID(of container: String?) -> String? { container.flatMap { bundleIDs[BytePath(spelled: $0)] } }

    func source(of path: String) -> FindingSource { FindingSource(kind: .archive, root: summary.root, inner: entries[BytePath(spelled: path)]?.name ?? path) }

    func evidence(at path: String) -> (status: FileStatus, sha256: String?, hashSkipped: HashSkip?)? {
        guard let entry = entries[BytePath(spelled: path)], let status = entry.status else { return nil }
        return (status, entry.sha256, nil)
    }
}
