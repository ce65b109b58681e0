import Crypto
import Foundation
import ResumeDataCodec

/// How a download ends: verified and moved into place, failed with its checkpoint kept, paused
/// or cancelled; and the checkpoint writes each of them relies on.
extension DownloadTask {
    /// Verifies the partial file, then moves it into place; nil when all went well.
    func complete(length: Int64, checkpoint: DownloadCheckpoint, part: PartialFile) -> TransferError? {
        do {
            let size = try part.size()
            guard size >= length else { return .lengthMismatch(expected: length, received: size) }
            if size > length { try part.truncate(to: length) }
            if let expected = checkpoint.expectedSHA256 {
                let actual = try Self.sha256(of: part, length: length)
                if actual != expected {
                    // Complete but wrong bytes: keeping them would only make the next run finish
                    // with the same wrong file, so start clean next time.
                    self.files.remove(self.resumeDataPath)
                    self.files.remove(self.partialPath)
                    return .checksumMismatch(expected: expected, actual: actual)
                }
            }
            try part.sync()
            try part.close()
            // One folder sync for both changes: a crash leaves the partial file with its blob, or
            // the finished file alone, never the file beside a blob that no longer fits it.
            try self.files.rename(self.partialPath, to: self.destination)
            // The file is whole and in place from here: what fails now is said as a warning,
            // not as a failed download (issue 23).
            if let failure = self.files.removeIfPresent(self.resumeDataPath) {
                self.continuation.yield(.warning(
                    "\(self.resumeDataPath): could not be removed (\(failure)); the download it describes is finished, remove it by hand"))
            }
            do {
                try self.files.syncFolder(of: self.destination)
            } catch {
                self.continuation.yield(.warning(
                    "\(self.destination): finished, but its folder could not be flushed to disk (\(error.diskMessage)); a power loss may undo it"))
            }
            return nil
        } catch {
            return error
        }
    }

    static func sha256(of part: PartialFile, length: Int64) throws(TransferError) -> String {
        var hasher = SHA256()
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while offset < length {
            let wanted = Int(min(Int64(chunk), length - offset))
            let count = try part.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
            guard count > 0 else { throw .disk("read \(part.path): file ended at \(offset) of \(length) bytes") }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += Int64(count)
        }
        return SHA256Hex(digest: hasher.finalize()).text
    }

    /// fsync the partial file first, so the blob never counts bytes that are not on disk.
    func writeCheckpoint(_ checkpoint: DownloadCheckpoint, part: PartialFile) throws(TransferError) {
        try Self.writeCheckpoint(checkpoint, part: part, partialPath: self.partialPath, resumeDataPath: self.resumeDataPath, files: self.files)
    }

    static func writeCheckpoint(
        _ checkpoint: DownloadCheckpoint, part: PartialFile, partialPath: String, resumeDataPath: String, files: FileSystem
    ) throws(TransferError) {
        try part.sync()
        let blob = try ResumeCheckpoint.encode(checkpoint, partialPath: partialPath)
        try files.writeAtomically(blob, to: resumeDataPath)
    }

    /// Best effort: the error, when the checkpoint could not be written.
    func saveCheckpoint(_ checkpoint: DownloadCheckpoint, part: PartialFile) -> TransferError? {
        do {
            try self.writeCheckpoint(checkpoint, part: part)
            return nil
        } catch {
            return error
        }
    }

    func stopped(failing error: TransferError) -> DownloadState {
        self.setState(.failed(error))
        return .failed(error)
    }

    func stopped(failing error: TransferError, checkpoint: DownloadCheckpoint, part: PartialFile) -> DownloadState {
        switch error {
        case .disk:
            // The blob on disk still describes flushed bytes; writing another could fail the same way.
            break
        case .checksumMismatch:
            // The files are already removed.
            break
        default:
            if checkpoint.bytesReceived == 0, (try? part.size()) == 0 {
                // Nothing was received: leave no empty files behind.
                self.files.remove(self.resumeDataPath)
                self.files.remove(self.partialPath)
            } else {
                _ = self.saveCheckpoint(checkpoint, part: part)
            }
        }
        // The lock goes with the result: a receiver's thread may hold the file a moment longer,
        // and the next run of the same download must not find it "in use".
        try? part.close()
        return self.stopped(failing: error)
    }

    /// Pause or cancel, as the caller asked.
    func stop(at point: (DownloadCheckpoint, PartialFile)?) -> DownloadState {
        let intent = self.shared.withLock { $0.intent }
        var failure: TransferError?
        if let (checkpoint, part) = point {
            if case .cancel(removeFile: true) = intent {
                // Removed below.
            } else {
                failure = self.saveCheckpoint(checkpoint, part: part)
            }
            try? part.close()
        }
        if case .cancel(let removeFile) = intent {
            if removeFile {
                self.files.remove(self.resumeDataPath)
                self.files.remove(self.partialPath)
            }
            self.setState(.cancelled)
            return .cancelled
        }
        if let failure { return self.stopped(failing: failure) }
        if case .expire = intent {
            let seconds = self.configuration.maximumDuration.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0
            return self.stopped(failing: .tooLong(seconds: seconds))
        }
        self.setState(.paused)
        return .paused
    }
}
