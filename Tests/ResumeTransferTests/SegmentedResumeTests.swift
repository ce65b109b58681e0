import Foundation
@testable import ResumeDataCodec
@testable import ResumeSystemCalls
import Testing

@testable import ResumeTransfer

#if canImport(Glibc)
import Glibc
#endif

/// ``SegmentedResume``: the engine's rule for a segmented blob leaving for a device, carried out
/// through the seam on a real file, with the seam's calls failing one at a time.
@Suite struct SegmentedResumeTests {
    private func resume(count: Int64?, segmented: Bool = true) -> ResumeData {
        var resume = ResumeData()
        resume.bytesReceived = count
        if segmented { resume.entries[ResumeCheckpoint.finishedRangesKey] = .string("200-299") }
        return resume
    }

    /// A file of `size` bytes in a fresh folder.
    private func partialFile(size: Int) throws -> (folder: String, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segmented-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/f.part"
        try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    private func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }

    @Test func onlyABlobWithTheKeyIsSegmented() {
        #expect(SegmentedResume.isSegmented(self.resume(count: 100)))
        #expect(!SegmentedResume.isSegmented(self.resume(count: 100, segmented: false)))
        #expect(SegmentedResume.countedBytes(self.resume(count: 100)) == 100)
        #expect(SegmentedResume.countedBytes(self.resume(count: nil)) == 0)
    }

    @Test func theFileIsCutToTheCountAndTheKeyDropped() throws {
        let (folder, path) = try self.partialFile(size: 300)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let trimmed = try SegmentedResume.trimmed(self.resume(count: 100), partialFile: path)
        #expect(trimmed.entries[ResumeCheckpoint.finishedRangesKey] == nil)
        #expect(trimmed.bytesReceived == 100)
        #expect(self.size(path) == 100)
    }

    @Test func aShorterFileIsRefusedUntouched() throws {
        let (folder, path) = try self.partialFile(size: 50)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: SegmentedResume.TrimFailure.tooShort(size: 50)) {
            try SegmentedResume.trimmed(self.resume(count: 100), partialFile: path)
        }
        #expect(self.size(path) == 50)
    }

    @Test func aMissingFileAFolderAndALinkAreRefused() throws {
        let (folder, path) = try self.partialFile(size: 300)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: SegmentedResume.TrimFailure.cannotOpen(FileSystemCalls.Failure(ENOENT))) {
            try SegmentedResume.trimmed(self.resume(count: 100), partialFile: folder + "/missing")
        }
        // A folder cannot be opened for writing.
        #expect(throws: SegmentedResume.TrimFailure.cannotOpen(FileSystemCalls.Failure(EISDIR))) {
            try SegmentedResume.trimmed(self.resume(count: 100), partialFile: folder)
        }
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: path)
        #expect(throws: SegmentedResume.TrimFailure.cannotOpen(FileSystemCalls.Failure(ELOOP))) {
            try SegmentedResume.trimmed(self.resume(count: 100), partialFile: folder + "/link")
        }
        #expect(self.size(path) == 300)
    }

    @Test(arguments: [("fstat", EIO), ("ftruncate", EIO), ("fsync", ENOSPC)])
    func aFailingCallThroughTheSeamIsReported(call: String, code: Int32) throws {
        let (folder, path) = try self.partialFile(size: 300)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var calls = FileSystemCalls.system
        let failure = FileSystemCalls.Failure(code)
        switch call {
        case "fstat": calls.fstat = { _ in .failure(failure) }
        case "ftruncate": calls.ftruncate = { _, _ in .failure(failure) }
        default: calls.fsync = { _ in .failure(failure) }
        }
        let expected: SegmentedResume.TrimFailure = call == "fstat" ? .notRegularFile : .cannotCut(failure)
        #expect(throws: expected) {
            try SegmentedResume.trimmed(self.resume(count: 100), partialFile: path, calls: calls)
        }
        #expect(self.size(path) == (call == "fsync" ? 100 : 300))
    }
}
