import Foundation
import ResumeDataCodec

/// What a ``ScanJob`` found, once the walk is over: every blob paired with its partial file, the
/// partial files no blob names, and what could not be read. Paths are spelled from the roots as given.
public struct ScanInventory: Sendable {
    /// A resume blob, in a file of its own or as a data value inside one.
    public struct Blob: Sendable {
        /// The file holding the blob.
        public let path: String
        /// Where in the file, `nil` when the file is the blob.
        public let keyPath: String?
        /// The app container of the file (the nearest folder above it holding `Library/` or `tmp/`), if any.
        public let appContainer: String?
        /// The blob as decoded.
        public let found: FoundResumeBlob
        /// The partial file, if one was found in the scanned tree.
        public let partialFile: (path: String, size: Int64)?
        /// The file's modification time.
        public let modified: Date
        /// The validator's findings, and the partial file's, most severe first.
        public let findings: [ResumeDataFinding]
    }

    /// A partial download (`CFNetworkDownload_*.tmp`, or a WebKit `.download` folder's data) that no blob names.
    public struct PartialFile: Sendable {
        /// Its path.
        public let path: String
        /// Its app container, if any.
        public let appContainer: String?
        /// Its size and modification time.
        public let status: FileStatus
    }

    /// The blobs, sorted by path.
    public private(set) var blobs: [Blob] = []
    /// The partial files no blob and no ledger task names, sorted by path.
    public private(set) var orphanPartialFiles: [PartialFile] = []
    /// nsurlsessiond's ledgers (`tasks.sqlite`) found by content, sorted by path.
    package private(set) var ledgers: [TaskLedger] = []
    /// What could not be read or was skipped, sorted by path.
    public let errors: [ScanProblem]
    /// Regular files seen.
    public let fileCount: Int

    /// Pairs what the walk found.
    /// - Parameters:
    ///   - roots: the scanned folders, as the walk spelled them.
    ///   - found: the files holding blobs or being partial files, in any order.
    init(roots: [String], found: [FileProbe.Finding], walker: TreeWalker, errors: [ScanProblem]) {
        self.errors = errors
        fileCount = walker.fileCount
        let sorted = found.sorted { TreeWalker.byteOrder($0.path, $1.path) }
        var knownFiles: [String: FileStatus] = [:]
        for file in sorted { knownFiles[file.path] = file.status }
        // Names are looked up in the walk's own findings first; the rest (a TempFileName not
        // named like CFNetwork's) costs a few system calls each, and blobs are few.
        func entry(at path: String) -> PartialFileResolution.Entry {
            if let known = knownFiles[path] { return .regularFile(size: known.size) }
            return TreeWalker.entry(atPath: path, roots: roots)
        }
        let absoluteRoots = roots.map { (absolute: Self.absolutePath(of: $0), spelled: $0) }
        var paired: Set<String> = []
        for file in sorted {
            let container = AppContainerLayout.containerRoot(of: file.path, containers: walker.containers)
            for found in file.blobs {
                let pairing = Self.pair(found, container: container, roots: absoluteRoots, uuidFolders: walker.uuidFolders, entry: entry)
                if let partial = pairing.partial { paired.insert(partial.path) }
                blobs.append(Blob(path: file.path, keyPath: found.keyPath, appContainer: container, found: found,
                                  partialFile: pairing.partial, modified: file.status.modified,
                                  findings: Self.findings(for: found, pairing: pairing)))
            }
        }
        for file in sorted {
            guard let ledger = file.ledger else { continue }
            ledgers.append(ledger)
            // The partial files its tasks name, mapped into the extraction the ledger lies in.
            for task in ledger.tasks {
                if let partial = task.partialFile, let path = partial.path, partial.size != nil { paired.insert(path) }
            }
        }
        for file in sorted where file.isPartialFile && !paired.contains(file.path) {
            orphanPartialFiles.append(PartialFile(path: file.path,
                                                  appContainer: AppContainerLayout.containerRoot(of: file.path, containers: walker.containers),
                                                  status: file.status))
        }
    }

    /// The root with links and `..` resolved, as a device's absolute `LocalPath` would name it.
    private static func absolutePath(of root: String) -> String {
        guard let resolved = realpath(root, nil) else { return root }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private struct Pairing {
        var partial: (path: String, size: Int64)?
        /// The resume key that named the partial file (or would have), and where it was looked for.
        var key: String?
        var expectedPath: String?
        /// Why the file `PartialFileResolution` found in the container's `tmp/` may not be used.
        var refusal: PartialFileResolution.Verdict?
    }

    /// First `PartialFileResolution` with the container's `tmp/` as the folder (what `resume
    /// --tmp-dir CONTAINER/tmp` would use; devices since iOS 9 keep partial files there), then
    /// `LocalPath` wherever the scanned tree now holds the device's path.
    private static func pair(_ found: FoundResumeBlob, container: String?, roots: [(absolute: String, spelled: String)], uuidFolders: [String: [String]],
                             entry: (String) -> PartialFileResolution.Entry) -> Pairing {
        var pairing = Pairing()
        if let name = found.resumeData?.tempFileName {
            pairing.key = ResumeDataKey.tempFileName
            pairing.expectedPath = AppContainerLayout.tempFilePath(name: name, containerRoot: container) ?? name
        }
        if let container, let resume = found.resumeData {
            let verdict = PartialFileResolution(resume: resume, folder: AppContainerLayout.join(container, "tmp")).resolve(entry)
            switch verdict {
            case .file(let path, let size, let key):
                pairing.partial = (path, size)
                pairing.key = key
                return pairing
            case .refused:
                pairing.refusal = verdict
                return pairing
            case .missing:
                break
            }
        }
        if let localPath = found.localPath {
            if pairing.key == nil {
                pairing.key = ResumeDataKey.localPath
                pairing.expectedPath = localPath
            }
            for path in AppContainerLayout.localPathCandidates(localPath, roots: roots, containerRoot: container, uuidFolders: uuidFolders) {
                if case .regularFile(let size) = entry(path) {
                    pairing.key = ResumeDataKey.localPath
                    pairing.partial = (path, size)
                    return pairing
                }
            }
        }
        return pairing
    }

    /// The validator's findings, and the partial file's against the bytes received, most severe first.
    private static func findings(for found: FoundResumeBlob, pairing: Pairing) -> [ResumeDataFinding] {
        guard case .resumeData(let resume) = found.content else {
            if case .undecodedNetworkFramework(_, let reason) = found.content { return [FoundResumeBlob.undecodedNote(reason: reason)] }
            return []
        }
        var findings = ResumeDataValidator(blobSize: found.size).findings(for: resume)
        if let refusal = pairing.refusal {
            findings += ResumeDataValidator.partialFileFindings(refusal, bytesReceived: resume.bytesReceived)
        } else if let key = pairing.key, let expected = pairing.partial?.path ?? pairing.expectedPath {
            findings += ResumeDataValidator.partialFileFindings(path: expected, size: pairing.partial?.size,
                                                                 bytesReceived: resume.bytesReceived, key: key)
        }
        return findings.enumerated()
            .sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
            .map(\.element)
    }
}
