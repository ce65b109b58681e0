import Foundation
import ResumeDataCodec

/// One run of `scan`: walks the roots, hands each batch of files to all cores, and keeps only
/// the files worth reporting, so memory follows the number of blobs, not of files.
struct ScanJob {
    let roots: [String]
    var probe = FileProbe()

    /// - Returns: the inventory, and whether every root could be read.
    func run() -> (inventory: ScanInventory, allRootsRead: Bool) {
        let roots = self.roots.map(Self.normalized)
        var walker = TreeWalker()
        var found: [FileProbe.Finding] = []
        var probeErrors: [Diagnostic] = []
        var allRootsRead = true
        var progress = ScanProgress()
        var blobCount = 0
        var fileCount = 0
        let probe = self.probe
        for root in roots {
            let rootRead = walker.walk(root: root) { batch in
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
                progress.update(files: fileCount, blobs: blobCount, current: batch.last?.path ?? root)
            }
            if !rootRead { allRootsRead = false }
        }
        progress.finish()
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
