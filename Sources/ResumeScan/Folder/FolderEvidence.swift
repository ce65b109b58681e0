import Foundation
import ResumeSystemCalls

/// A walked folder's files as ``EvidenceProbe`` reads them: each opened read-only without
/// following a link, relative to its open folder, its status from `fstat` once the triage let it
/// through.
struct FolderEvidence: EvidenceSource {
    var readLimit: Int
    var calls: FileSystemCalls

    struct Member {
        let file: TreeWalker.File
        let descriptor: Int32
        var status: FileSystemCalls.Status?
    }

    func name(of member: Member) -> String { member.file.shownName }
    func isPartialFile(_ member: Member) -> Bool { member.file.isPartialFile }
    /// The `-wal` beside an empty file is looked at only if it turns out to matter.
    func wal(beside member: Member) -> EvidenceTriage.WAL { .unknown }
    func parentName(of member: Member) -> String { BytePath(member.file.path).folder.lastName.text }
    func path(of member: Member) -> String { member.file.path }
    func findingSource(of member: Member) -> FindingSource? { nil }

    func firstBytes(of member: inout Member) throws(ScanProblem) -> EvidenceFirstBytes {
        var failure: ScanProblem?
        let bytes = [UInt8](unsafeUninitializedCapacity: ScanContentKind.prefixLength) { buffer, count in
            do throws(ScanProblem) {
                count = try read(member, into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        return EvidenceFirstBytes(bytes: bytes)
    }

    func size(of member: inout Member) throws(ScanProblem) -> Int64? {
        switch calls.fstat(member.descriptor) {
        case .success(let found):
            guard found.kind == .regular else { return nil }
            member.status = found
            return found.size
        case .failure(let failure):
            throw ScanProblem(path: member.file.path, message: "cannot read: \(TreeWalker.describe(failure.code))")
        }
    }

    func whole(of member: inout Member, size: Int64) throws(ScanProblem) -> Data? {
        // Read again from the start: the first bytes were a small buffer, and a blob is small.
        if case .failure(let failure) = calls.seek(member.descriptor, 0) {
            throw ScanProblem(path: member.file.path, message: "cannot read: \(TreeWalker.describe(failure.code))")
        }
        var data = Data(count: Int(size))
        let member = member
        // Data's closure rethrows untyped errors: carry the diagnostic out as a Result.
        let outcome = data.withUnsafeMutableBytes { buffer in Result { () throws(ScanProblem) in try read(member, into: buffer) } }
        switch outcome {
        case .success(let count): data.count = count
        case .failure(let error): throw error
        }
        return data
    }

    func digest(of member: inout Member) -> String? { EvidenceHash.hex(ofDescriptor: member.descriptor, calls: calls) }
    var hashesOnDemand: Bool { true }

    func status(of member: inout Member) -> (status: FileStatus, note: ScanProblem?) {
        // size(of:) stored it: the probe asks for the status only after the size.
        guard let status = member.status else { return (FileStatus(size: 0, modified: Date(timeIntervalSince1970: 0)), nil) }
        return (FileStatus(status), nil)
    }

    /// Reads until the buffer is full or the file ends.
    private func read(_ member: Member, into buffer: UnsafeMutableRawBufferPointer) throws(ScanProblem) -> Int {
        var filled = 0
        while filled < buffer.count {
            let got: Int
            switch calls.read(member.descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) {
            case .success(let count): got = count
            case .failure(let failure): throw ScanProblem(path: member.file.path, message: "cannot read: \(TreeWalker.describe(failure.code))")
            }
            if got == 0 { break }
            filled += got
        }
        return filled
    }
}
