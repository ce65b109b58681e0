import Foundation
import ResumeDataCodec
import ResumeSystemCalls
import ResumeSupport

#if canImport(Glibc)
import Glibc
#endif

/// Where an upload that can be continued is recorded: an upload resume blob in Apple's format
/// (``UploadResumeData``, the keys CFNetwork writes, so `inspect`, `validate` and `resume` read
/// it like a device's) and, beside it as `BLOB.identity`, the file's ``UploadFileIdentity``,
/// which the blob has no field for.
///
/// `upload FILE URL` keeps them beside the file, as `FILE.uploadresume` and
/// `FILE.uploadresume.identity`, so the same command in any folder finds them. Each is replaced
/// whole (``AtomicFile``: a `kill -9` leaves the old or the new record, mode 0600); the identity
/// is written first, when the upload starts, and the blob when a 104 names the resume URL, so a
/// blob of ours always has its identity beside it. Both go when the upload completes.
package struct UploadCheckpoint: Sendable {
    /// The blob's path.
    package let blobPath: String
    private let calls: FileSystemCalls

    package init(blobPath: String, calls: FileSystemCalls = .system) {
        self.blobPath = blobPath
        self.calls = calls
    }

    /// The checkpoint `upload FILE URL` keeps beside `file`.
    package static func beside(file: String, calls: FileSystemCalls = .system) -> UploadCheckpoint {
        UploadCheckpoint(blobPath: file + ".uploadresume", calls: calls)
    }

    /// The checkpoint for `file` where ``UploadCheckpointPlace`` puts it: beside the file, or in
    /// `stateDirectory` (`--state-dir`), or in the user's state folder when the file's folder is
    /// not writable (made 0700 when missing). `environment` gives `XDG_STATE_HOME` and `HOME`.
    /// - Throws: ``UploadError/checkpoint(_:)`` when there is nowhere to keep it.
    package static func place(
        for file: String, stateDirectory: String?, environment: [String: String], calls: FileSystemCalls = .system
    ) throws(UploadError) -> UploadCheckpoint {
        let beside = Self.beside(file: file, calls: calls)
        let identity = (try? calls.statFollowingLinks(file).get()).map { (device: $0.device, inode: $0.inode) }
        let facts = UploadCheckpointPlace.Facts(
            fileName: BytePath(file).lastName.text, identity: identity,
            folderWritable: calls.mayWrite(BytePath(file).folder.text),
            checkpointBeside: (try? calls.lstat(beside.blobPath).get()) != nil,
            stateDirectory: stateDirectory, stateHome: environment["XDG_STATE_HOME"], home: environment["HOME"])
        switch UploadCheckpointPlace.verdict(facts) {
        case .beside:
            return beside
        case .nowhere(let reason):
            throw .checkpoint(reason)
        case .inFolder(let folder, let name, let made):
            for path in made {
                if case .failure(let failure) = calls.makeFolder(path, 0o700), failure.code != EEXIST {
                    throw .checkpoint("\(path): cannot make the folder: \(failure)")
                }
            }
            return UploadCheckpoint(blobPath: BytePath(folder).appending(name).text, calls: calls)
        }
    }

    /// The identity record's path.
    package var identityPath: String { self.blobPath + ".identity" }

    /// The most bytes a blob or record of ours is read up to (a blob holds a request, not a body).
    static let maximumSize = 16 << 20

    /// The blob, or nil when there is none.
    /// - Throws: ``UploadError/checkpoint(_:)`` for a blob that cannot be read or is no upload blob.
    func blob() throws(UploadError) -> UploadResumeData? {
        guard let data = try self.read(self.blobPath) else { return nil }
        let upload: UploadResumeData?
        do {
            upload = try UploadResumeData.read(data)
        } catch {
            throw .checkpoint("\(self.blobPath): \(error)")
        }
        guard let upload else { throw .checkpoint("\(self.blobPath) is not upload resume data") }
        return upload
    }

    /// The identity record, or nil when there is none.
    /// - Throws: ``UploadError/checkpoint(_:)``.
    func identity() throws(UploadError) -> UploadFileIdentity? {
        guard let data = try self.read(self.identityPath) else { return nil }
        return try UploadFileIdentity.decoded(data, path: self.identityPath)
    }

    func write(identity: UploadFileIdentity) throws(UploadError) {
        try self.write(identity.encoded(), to: self.identityPath)
    }

    func write(blob: UploadResumeData) throws(UploadError) {
        let data: Data
        do {
            data = try blob.encoded()
        } catch {
            throw .checkpoint("the upload blob cannot be archived: \(error)")
        }
        try self.write(data, to: self.blobPath)
    }

    /// Removes both records (the upload is complete), and what a writer of either killed
    /// mid-write left beside it (`.NAME.tmp-PID-RANDOM`); one already gone is no error.
    func remove() throws(UploadError) {
        for path in [self.blobPath, self.identityPath] {
            if case .failure(let failure) = self.calls.unlink(path), failure.code != ENOENT {
                throw .checkpoint("\(path): cannot remove: \(failure)")
            }
            FileSystem(calls: self.calls).removeStaleTemporaries(of: path)
        }
    }

    private func write(_ data: Data, to path: String) throws(UploadError) {
        do {
            try AtomicFile.write(data, to: path, calls: self.calls)
        } catch {
            throw .checkpoint("\(path): \(error)")
        }
    }

    private func read(_ path: String) throws(UploadError) -> Data? {
        let descriptor: Int32
        switch self.calls.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) {
        case .success(let value): descriptor = value
        case .failure(let failure) where failure.code == ENOENT: return nil
        case .failure(let failure): throw .checkpoint("\(path): \(failure)")
        }
        defer { _ = self.calls.close(descriptor) }
        let size: Int64
        switch self.calls.fstat(descriptor) {
        case .success(let status) where status.kind == .regular: size = status.size
        case .success: throw .checkpoint("\(path) is not a regular file")
        case .failure(let failure): throw .checkpoint("\(path): \(failure)")
        }
        guard size <= Int64(Self.maximumSize) else { throw .checkpoint("\(path) is larger than \(Self.maximumSize) bytes") }
        var data = Data(count: Int(size))
        var done = 0
        while done < data.count {
            let result = data.withUnsafeMutableBytes { raw in
                self.calls.pread(descriptor, UnsafeMutableRawBufferPointer(rebasing: raw[done...]), Int64(done))
            }
            switch result {
            case .success(0): throw .checkpoint("\(path) ended early while it was read")
            case .success(let count): done += count
            case .failure(let failure): throw .checkpoint("\(path): \(failure)")
            }
        }
        return data
    }
}
