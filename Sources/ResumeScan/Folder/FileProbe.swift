import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `scan` makes of one file: its first bytes decide whether it is read further, and only a
/// property list within ``readLimit`` is read whole and searched for blobs.
package struct FileProbe: Sendable {
    /// Property lists larger than this are not read: a resume blob is a few KiB, a preferences
    /// plist rarely over a MiB, and two workers each holding one at most bound the memory.
    package var readLimit = 64 << 20
    package var search = ResumeBlobSearch()
    /// The system's calls; a failing wrapper in tests.
    package var calls: FileSystemCalls = .system

    /// A file worth reporting: it holds blobs, or is a partial download, or both, or is
    /// nsurlsessiond's ledger.
    package struct Finding: Sendable {
        let path: String
        let status: FileStatus
        let blobs: [FoundResumeBlob]
        let isPartialFile: Bool
        /// The SHA-256 of the whole content, lower-case hex; nil when it could not be read.
        var sha256: String? = nil
        /// Where it is, for a finding that is not in a walked folder (a backup's file).
        var source: FindingSource? = nil
        /// nsurlsessiond's task ledger, when the file is one (issue 26).
        var ledger: TaskLedger? = nil
        /// What the file says when it is a Safari `.download` bundle's `Info.plist`.
        var safariDownload: SafariDownloadInfo? = nil
        /// Safari's list of downloads, when the file is `Safari/Downloads.plist`.
        var safariHistory: SafariDownloadHistory? = nil
    }

    package enum Outcome: Sendable {
        /// Neither a blob nor a partial file: forgotten at once.
        case nothing
        case found(Finding)
        case failed(ScanProblem)
    }

    package func probe(_ file: TreeWalker.File) -> Outcome {
        // O_NONBLOCK: a file replaced by a FIFO after the listing must not block the scan.
        let descriptor: Int32
        switch calls.openEvidence(in: file.folder.descriptor, file.name) {
        case .success(let opened): descriptor = opened
        case .failure(let failure):
            // ELOOP: replaced by a link after the listing; ENOENT: deleted meanwhile.
            if failure.code == ELOOP || failure.code == ENOENT { return .nothing }
            return .failed(ScanProblem(path: file.path, message: "cannot open: \(TreeWalker.describe(failure.code))"))
        }
        defer { _ = calls.close(descriptor) }
        let prefixLength = ScanContentKind.prefixLength
        let verdict: EvidenceTriage.Verdict
        do {
            verdict = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefixLength) { buffer throws(ScanProblem) in
                let count = try readFully(descriptor, into: UnsafeMutableRawBufferPointer(buffer), path: file.path)
                // The WAL beside an empty file is looked at only if it turns out to matter.
                return EvidenceTriage.verdict(prefix: UnsafeBufferPointer(rebasing: buffer[..<count]), isPartialFile: file.isPartialFile,
                                              size: nil, wal: .unknown)
            }
        } catch {
            return .failed(error)
        }
        if verdict == .ledger { return LedgerProbe(calls: calls).probe(file, descriptor: descriptor) }
        guard verdict != .skip else { return .nothing }
        let raw: FileSystemCalls.Status
        switch calls.fstat(descriptor) {
        case .success(let found): raw = found
        case .failure(let failure):
            return .failed(ScanProblem(path: file.path, message: "cannot read: \(TreeWalker.describe(failure.code))"))
        }
        guard raw.kind == .regular else { return .nothing }
        let status = FileStatus(raw)
        var content = HeldContent()
        if verdict.mayHoldBlobs, status.size <= Int64(readLimit) {
            // Read again from the start: the prefix was a small stack buffer, and a blob is small.
            var data = Data(count: Int(status.size))
            // Data's closure rethrows untyped errors: carry the diagnostic out as a Result.
            let outcome = data.withUnsafeMutableBytes { buffer in
                Result { () throws(ScanProblem) in
                    if case .failure(let failure) = calls.seek(descriptor, 0) {
                        throw ScanProblem(path: file.path, message: "cannot read: \(TreeWalker.describe(failure.code))")
                    }
                    return try readFully(descriptor, into: buffer, path: file.path)
                }
            }
            let count: Int
            switch outcome {
            case .success(let read): count = read
            case .failure(let error): return .failed(error)
            }
            data.count = count
            content = HeldContent(data, name: file.name, parentName: FilePathText.lastName(of: FilePathText.folder(of: file.path)), search: search)
        }
        guard content.isFound || file.isPartialFile else { return .nothing }
        var digest = content.sha256
        if digest == nil {
            // A partial file is hashed as it is read, never held whole: it may be gigabytes.
            digest = EvidenceHash.hex(ofDescriptor: descriptor, calls: calls)
        }
        return .found(Finding(path: file.path, status: status, blobs: content.blobs, isPartialFile: file.isPartialFile, sha256: digest,
                              safariDownload: content.safari.download, safariHistory: content.safari.history))
    }

    /// Reads until the buffer is full or the file ends.
    private func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws(ScanProblem) -> Int {
        var filled = 0
        while filled < buffer.count {
            let got: Int
            switch calls.read(descriptor, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) {
            case .success(let count): got = count
            case .failure(let failure): throw ScanProblem(path: path, message: "cannot read: \(TreeWalker.describe(failure.code))")
            }
            if got == 0 { break }
            filled += got
        }
        return filled
    }
}
