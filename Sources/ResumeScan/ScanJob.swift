import Foundation
import ResumeDataCodec

/// One scan of folder trees: one thread walks the roots while the files already listed are
/// probed in batches on all cores; only the files worth reporting are kept, so memory follows
/// the number of blobs, not of files.
///
/// The walk never follows a symbolic link below a root, never enters a folder twice, and reads
/// every file read-only; see ``ScanInventory`` for what it reports.
public struct ScanJob: Sendable {
    /// The folders to walk, as given (a root that is itself a link is followed: the caller named it).
    public let roots: [String]
    var probe = FileProbe()

    /// How far a running scan has got, for a progress line.
    public struct Progress: Sendable {
        /// Regular files listed so far.
        public let files: Int
        /// Blobs found so far.
        public let blobs: Int
        /// The last file probed.
        public let currentPath: String
    }

    /// A scan of `roots`.
    public init(roots: [String]) {
        self.roots = roots
    }

    private enum WalkEvent: Sendable {
        case files([TreeWalker.File])
        case finished(TreeWalker, allRootsRead: Bool)
    }

    /// Walks every root and pairs what it found; `progress` is called on the calling thread after
    /// each batch of files.
    /// - Returns: the inventory, and whether every root could be read.
    public func run(progress: (Progress) -> Void = { _ in }) -> (inventory: ScanInventory, allRootsRead: Bool) {
        let roots = self.roots.map(Self.normalized)
        let queue = BatchQueue<WalkEvent>(capacity: 4)
        let walkThread = Thread {
            var walker = TreeWalker()
            var allRootsRead = true
            for root in roots {
                let read = walker.walk(root: root) { queue.put(.files($0)) }
                if !read { allRootsRead = false }
            }
            queue.put(.finished(walker, allRootsRead: allRootsRead))
            queue.close()
        }
        walkThread.start()

        var found: [FileProbe.Finding] = []
        var probeErrors: [ScanProblem] = []
        var blobCount = 0
        var fileCount = 0
        var result: (walker: TreeWalker, allRootsRead: Bool)?
        let probe = self.probe
        while let event = queue.take() {
            switch event {
            case .files(let batch):
                fileCount += batch.count
                orderedParallelMap(batch) { file in probe.probe(file) } emit: { outcome in
                    switch outcome {
                    case .nothing: break
                    case .found(let finding):
                        found.append(finding)
                        blobCount += finding.blobs.count
                    case .failed(let problem): probeErrors.append(problem)
                    }
                }
                progress(Progress(files: fileCount, blobs: blobCount, currentPath: batch.last?.path ?? ""))
            case .finished(let walker, let allRootsRead):
                result = (walker, allRootsRead)
            }
        }
        guard let (walker, allRootsRead) = result else { preconditionFailure("the walk thread always ends with .finished") }
        let errors = (walker.errors + probeErrors).sorted { TreeWalker.byteOrder($0.path, $1.path) }
        return (ScanInventory(roots: roots, found: found, walker: walker, errors: errors), allRootsRead)
    }

    /// `DIR/` → `DIR`, so paths print once with one slash; `/` stays.
    static func normalized(_ root: String) -> String {
        var root = Substring(root)
        while root.count > 1, root.hasSuffix("/") { root = root.dropLast() }
        return String(root)
    }
}
