import Foundation
import ResumeDataCodec

/// One run of `scan`: one thread walks the roots while the files already listed are probed in
/// batches on all cores; only the files worth reporting are kept, so memory follows the number
/// of blobs, not of files.
struct ScanJob {
    let roots: [String]
    var probe = FileProbe()

    private enum WalkEvent: Sendable {
        case files([TreeWalker.File])
        case finished(TreeWalker, allRootsRead: Bool)
    }

    /// - Returns: the inventory, and whether every root could be read.
    func run() -> (inventory: ScanInventory, allRootsRead: Bool) {
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
        var probeErrors: [Diagnostic] = []
        var progress = ScanProgress()
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
                    case .failed(let diagnostic): probeErrors.append(diagnostic)
                    }
                }
                progress.update(files: fileCount, blobs: blobCount, current: batch.last?.path ?? "")
            case .finished(let walker, let allRootsRead):
                result = (walker, allRootsRead)
            }
        }
        progress.finish()
        guard let (walker, allRootsRead) = result else { preconditionFailure("the walk thread always ends with .finished") }
        let errors = (walker.errors + probeErrors).sorted { TreeWalker.byteOrder($0.file, $1.file) }
        return (ScanInventory(roots: roots, found: found, walker: walker, errors: errors), allRootsRead)
    }

    /// `DIR/` → `DIR`, so paths print once with one slash; `/` stays.
    static func normalized(_ root: String) -> String {
        var root = Substring(root)
        while root.count > 1, root.hasSuffix("/") { root = root.dropLast() }
        return String(root)
    }
}
