import ResumeDataCodec
import ResumeSystemCalls

/// What a download may do with whatever is at its destination: the one answer that `download`,
/// `resume`, `recover` and a Safari bundle's resume carry out, decided before any request.
///
/// The rule: a file at the destination that this download did not make is never replaced or
/// appended to. It did make it only when a checkpoint of this tool for the same URL, with the
/// server's validator, is still beside it and no partial file is (a run ended between the final
/// rename and the checkpoint's removal). An input of the run (the resume blob, the partial file,
/// a bundle's `Info.plist`) is never replaced, not even when asked to replace. No I/O: the
/// caller says what one `lstat` and the files beside the destination showed.
enum OutputFileRule {
    /// What `lstat` found at the destination.
    enum Found: Equatable, Sendable {
        case nothing
        /// A regular file of this many bytes.
        case file(size: Int64)
        /// A symbolic link (never followed; it would be replaced, not its target).
        case link
        /// Something a finished file cannot be renamed over: a folder, a device, a socket
        /// (described, as "a folder").
        case unreplaceable(String)
    }

    /// What the download was asked to do, which decides what an unproven file there means.
    enum Purpose: Equatable, Sendable {
        /// `download URL`: "make sure the file is there". A file already there is left as it
        /// is and the run ends without a request, vouched for or not (``ExistingFile``).
        case fetchURL
        /// Continuing a resume blob: the blob's download, and no other file, goes there. A file
        /// nothing vouches for stops the run.
        case continueBlob
    }

    /// What comparing the file with the expected SHA-256 showed, when one was given.
    enum Checksum: Equatable, Sendable {
        case notChecked
        case matches
        case differs(actual: String)
        /// The file could not be read to its end.
        case unreadable(TransferError)
    }

    /// Everything the verdict depends on.
    struct Facts: Equatable, Sendable {
        /// The destination, as the messages name it.
        var destination: String
        var found: Found
        /// When the destination is a file this run reads, what it is ("the resume blob").
        var input: String?
        /// A checkpoint of this tool beside the destination for the same URL, if any.
        var checkpointBeside: DownloadCheckpoint?
        /// Whether `FILE.part` (this download's partial file) is beside it.
        var partialBeside: Bool
        var purpose: Purpose
        /// `--force`: an existing file (not an input) is replaced once the download is complete.
        var replacesExisting: Bool
        var checksum: Checksum = .notChecked
        /// The SHA-256 the caller expected, for the mismatch's message.
        var expectedSHA256: String?
    }

    /// What happens.
    enum Verdict: Equatable, Sendable {
        /// Download; the finished file is renamed over what is there (nothing, or with
        /// ``Facts/replacesExisting`` the file there).
        case fetch
        /// No request: the file is left as it is and the run ends successfully, for this reason.
        case leave(ExistingFile)
        /// No request: the run fails, the file left as it is.
        case refuse(TransferError)
    }

    /// Whether a verdict needs the file's SHA-256 first: only a file that exists, might be kept,
    /// and has an expected checksum to meet is hashed.
    static func needsChecksum(found: Found, input: String?, replacesExisting: Bool, expectedSHA256: String?) -> Bool {
        guard expectedSHA256 != nil, input == nil, !replacesExisting, case .file = found else { return false }
        return true
    }

    static func verdict(_ facts: Facts) -> Verdict {
        let size: Int64
        switch facts.found {
        case .unreplaceable(let kind):
            return .refuse(.untrustedFile("\(facts.destination): it is \(kind), not a file a download can replace"))
        case .nothing:
            return .fetch
        case .file(let bytes):
            size = bytes
        case .link:
            size = -1
        }
        if let input = facts.input {
            return .refuse(.destinationIsInput(path: facts.destination, input: input))
        }
        if facts.replacesExisting { return .fetch }
        switch facts.checksum {
        case .matches: return .leave(.matchesChecksum)
        case .differs(let actual): return .refuse(.checksumMismatch(expected: facts.expectedSHA256 ?? "", actual: actual))
        case .unreadable(let error): return .refuse(error)
        case .notChecked: break
        }
        if !facts.partialBeside, ExistingFile.verdict(size: size, checkpointBeside: facts.checkpointBeside) == .finishedEarlier {
            return .leave(.finishedEarlier)
        }
        switch facts.purpose {
        case .fetchURL where !facts.partialBeside:
            return .leave(.unchecked)
        case .fetchURL, .continueBlob:
            return .refuse(.destinationExists(path: facts.destination, size: size >= 0 ? size : nil))
        }
    }
}

extension FileSystem {
    /// The rule's facts about `destination`, from one `lstat` of it and of each input, and the
    /// checkpoint and partial file beside it. `url` is where the download started: a checkpoint
    /// beside it for another URL vouches for nothing. The destination is hashed only when
    /// ``OutputFileRule/needsChecksum(found:input:replacesExisting:expectedSHA256:)`` says so.
    func outputFacts(
        destination: String, partialPath: String, url: HTTPURL?, purpose: OutputFileRule.Purpose,
        inputs: [(path: String, what: String)], replacesExisting: Bool, expectedSHA256: String?
    ) -> OutputFileRule.Facts {
        let status = try? self.calls.lstat(destination).get()
        let found: OutputFileRule.Found
        switch status.map(PartialFileResolution.entry) {
        case nil: found = .nothing
        case .regularFile(let size): found = .file(size: size)
        case .other where status?.kind == .symbolicLink: found = .link
        case .other(let kind): found = .unreplaceable(kind)
        case .missing: found = .nothing
        }
        var input: String?
        if let status {
            // The same file by identity, whatever name reaches it (`./blob`, a hard link).
            input = inputs.first { candidate in
                guard let other = try? self.calls.lstat(candidate.path).get() else { return false }
                return other.device == status.device && other.inode == status.inode
            }?.what
        }
        // Only a file there can be vouched for: nothing is read for a destination that is free.
        let beside = found == .nothing ? nil : url.flatMap { url in
            self.contents(of: destination + ".resume")
                .flatMap { try? ResumeCheckpoint.decode($0).checkpoint }
                .flatMap { DownloadTask.sameURL($0.originalURL, url) ? $0 : nil }
        }
        var facts = OutputFileRule.Facts(
            destination: destination, found: found, input: input, checkpointBeside: beside,
            partialBeside: self.exists(partialPath), purpose: purpose, replacesExisting: replacesExisting,
            expectedSHA256: expectedSHA256)
        if let expectedSHA256,
           OutputFileRule.needsChecksum(found: found, input: input, replacesExisting: replacesExisting, expectedSHA256: expectedSHA256) {
            do throws(TransferError) {
                let file = try PartialFile(path: destination, access: .readOnly, calls: self.calls)
                let actual = try DownloadTask.sha256(of: file, length: try file.size())
                facts.checksum = actual == expectedSHA256 ? .matches : .differs(actual: actual)
            } catch {
                facts.checksum = .unreadable(error)
            }
        }
        return facts
    }
}
