import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// A walked folder's `tasks.plist` as nsurlsessiond's older ledger (``TaskArchive``): the file is
/// one when its content is a task list, wherever it lies, or when it lies where the layout puts
/// one (`<bundle SHA-1>/<session SHA-1>/tasks.plist`), where a file that does not read is an
/// error for that file alone. Its bundle and session come from the `sessions.plist` and
/// `bundles.plist` above it when the walk holds them, opened without following a link.
struct FolderTaskArchives {
    var calls: FileSystemCalls
    var walkRoots: [String]

    /// Whether a walked file is worth reading as a task list at all: by its name.
    static func mayBeTaskArchive(_ file: TreeWalker.File) -> Bool { file.rawName == nil && file.shownName.utf8.elementsEqual(TaskArchive.fileName.utf8) }

    /// Whether the path is where the layout puts a session's task list.
    static func isInLayout(_ path: String) -> Bool {
        let names = BytePath(path).names().map(\.text)
        return names.count >= 3 && LedgerFolderNames.isHashName(names[names.count - 2]) && LedgerFolderNames.isHashName(names[names.count - 3])
    }

    /// The ledger the file is, nil when it is none (then it is probed as any other file).
    func probe(_ file: TreeWalker.File, descriptor: Int32) -> FileProbe.Outcome? {
        guard case .success(let status) = calls.fstat(descriptor), status.kind == .regular,
              status.size <= Int64(TaskArchive.maximumSize), let data = readWhole(descriptor, size: Int(status.size)),
              TaskArchive.isPropertyList(data) else { return nil }
        let inLayout = Self.isInLayout(file.path)
        guard inLayout || TaskArchive.isTaskArchive(data) else { return nil }
        var owner = TaskArchive.Owner()
        if inLayout {
            let session = BytePath(file.path).folder
            let bundle = session.folder
            let daemon = bundle.folder
            owner.sessionFolder = session.lastName.text
            owner.sessionID = LedgerFolderNames(data: read("sessions.plist", inFolder: bundle.text))[session.lastName.text]
            owner.bundleID = LedgerFolderNames(data: read("bundles.plist", inFolder: daemon.text))[bundle.lastName.text]
        }
        let placement = LedgerPlacement.forLedger(at: file.path, root: nil)
        do {
            let contents = try TaskArchive.read(data, path: file.path, owner: owner, placement: placement)
            let ledger = TaskLedger.assemble(path: file.path, placement: placement, contents: contents, walkRoots: walkRoots)
            return .found(FileProbe.Finding(path: file.path, status: FileStatus(status), blobs: [], isPartialFile: false,
                                            sha256: EvidenceHash.hex(of: data), ledger: ledger))
        } catch let error as EvidenceDatabaseError {
            // The reader's own message names the list when the file is none.
            let named = error.message.hasPrefix("not nsurlsessiond's task list")
            return .failed(ScanProblem(path: file.path, message: named ? error.message : "nsurlsessiond's task list: " + error.message))
        } catch {
            return .failed(ScanProblem(path: file.path, message: "nsurlsessiond's task list: \(error)"))
        }
    }

    /// A small file of a folder the walk holds, read without following a link; nil when absent.
    private func read(_ name: String, inFolder folder: String) -> Data? {
        guard let descriptor = TreeWalker.openFolder(atPath: folder, roots: walkRoots, calls: calls) else { return nil }
        let handle = FolderHandle(descriptor, calls: calls)
        return try? TaskLedger.readEvidenceFile(in: handle, name, calls: calls, ifPresent: true)
    }

    /// The file's bytes from its start, with `pread` so that the descriptor's position is left
    /// where the other probes expect it.
    private func readWhole(_ descriptor: Int32, size: Int) -> Data? {
        var data = Data(count: size)
        var filled = 0
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            while filled < buffer.count {
                guard case .success(let got) = calls.pread(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), Int64(filled)),
                      got > 0 else { return false }
                filled += got
            }
            return true
        }
        return complete ? data : nil
    }
}
