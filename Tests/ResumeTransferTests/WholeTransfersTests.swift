import Foundation
@testable import ResumeSystemCalls
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The package's one "write every byte" loop and its one user-space copy, on real files, with
/// the seam's `pwrite` scripted where a test needs a short write, a failure or no progress.
@Suite struct WholeTransfersTests {
    /// `pwrite` answering with the next of `answers` (a count, or an errno as a negative number)
    /// and recording the offsets it was asked for; past the list it writes for real.
    private final class ScriptedPwrite: Sendable {
        private let state: Mutex<(answers: [Int], offsets: [Int64])>
        init(_ answers: [Int]) { self.state = Mutex((answers, [])) }
        var offsets: [Int64] { self.state.withLock { $0.offsets } }

        var calls: FileSystemCalls {
            var calls = FileSystemCalls.system
            let real = calls.pwrite
            calls.pwrite = { descriptor, bytes, offset in
                let answer: Int? = self.state.withLock { state in
                    state.offsets.append(offset)
                    return state.answers.isEmpty ? nil : state.answers.removeFirst()
                }
                guard let answer else { return real(descriptor, bytes, offset) }
                guard answer >= 0 else { return .failure(FileSystemCalls.Failure(Int32(-answer))) }
                return real(descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<min(answer, bytes.count)]), offset)
            }
            return calls
        }
    }

    private final class Files {
        let folder: String
        let input: Int32
        let output: Int32
        let bytes: [UInt8]

        init(size: Int) throws {
            self.folder = NSTemporaryDirectory() + "whole-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: false)
            self.bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try Data(self.bytes).write(to: URL(fileURLWithPath: self.folder + "/in"))
            self.input = Glibc.open(self.folder + "/in", O_RDONLY)
            self.output = Glibc.open(self.folder + "/out", O_RDWR | O_CREAT | O_EXCL, 0o600)
        }

        func written() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: self.folder + "/out"))) }

        deinit {
            Glibc.close(self.input)
            Glibc.close(self.output)
            try? FileManager.default.removeItem(atPath: self.folder)
        }
    }

    @Test func writeAllAtAnOffsetGoesOnAfterShortWrites() throws {
        let files = try Files(size: 0)
        let script = ScriptedPwrite([2, 1])
        let outcome = Array("hello\n".utf8).withUnsafeBytes { script.calls.writeAll(files.output, $0, at: 10) }
        #expect(outcome.written == 6)
        #expect(outcome.failure == nil)
        #expect(script.offsets == [10, 12, 13])
        #expect(try files.written() == [UInt8](repeating: 0, count: 10) + Array("hello\n".utf8))
    }

    @Test func aWriteOfNothingIsAnIOErrorNotALoop() throws {
        let files = try Files(size: 0)
        let script = ScriptedPwrite([3, 0])
        let outcome = Array("hello\n".utf8).withUnsafeBytes { script.calls.writeAll(files.output, $0, at: 0) }
        #expect(outcome.written == 3)
        #expect(outcome.failure == FileSystemCalls.Failure(EIO))
        #expect(script.offsets == [0, 3])
    }

    @Test func aFailureKeepsTheCountWrittenBeforeIt() throws {
        let files = try Files(size: 0)
        let outcome = Array("hello\n".utf8).withUnsafeBytes { ScriptedPwrite([4, -Int(ENOSPC)]).calls.writeAll(files.output, $0, at: 0) }
        #expect(outcome.written == 4)
        #expect(outcome.failure == FileSystemCalls.Failure(ENOSPC))
        #expect(try files.written() == Array("hell".utf8))
    }

    @Test func copyThroughBufferCopiesTheRangeToTheSameOffsets() throws {
        let files = try Files(size: 3000)
        let outcome = FileSystemCalls.system.copyThroughBuffer(from: files.input, to: files.output, start: 100, end: 2900, bufferSize: 1024)
        #expect(outcome.reached == 2900)
        #expect(outcome.failure == nil)
        #expect(try files.written() == [UInt8](repeating: 0, count: 100) + files.bytes[100..<2900])
    }

    @Test func aShortInputEndsTheCopyWithoutAFailure() throws {
        let files = try Files(size: 3000)
        let outcome = FileSystemCalls.system.copyThroughBuffer(from: files.input, to: files.output, start: 0, end: 5000, bufferSize: 1024)
        #expect(outcome.reached == 3000)
        #expect(outcome.failure == nil)
        #expect(try files.written() == files.bytes)
    }

    @Test func aFailedReadSaysItWasTheRead() throws {
        let files = try Files(size: 3000)
        var calls = FileSystemCalls.system
        calls.pread = { _, _, _ in .failure(FileSystemCalls.Failure(EIO)) }
        let outcome = calls.copyThroughBuffer(from: files.input, to: files.output, start: 7, end: 3000)
        #expect(outcome.reached == 7)
        #expect(outcome.failure?.side == .read)
        #expect(outcome.failure?.error == FileSystemCalls.Failure(EIO))
    }

    @Test func aFailedWriteSaysWhereItStopped() throws {
        let files = try Files(size: 3000)
        let script = ScriptedPwrite([1024, 500, -Int(ENOSPC)])
        let outcome = script.calls.copyThroughBuffer(from: files.input, to: files.output, start: 0, end: 3000, bufferSize: 1024)
        #expect(outcome.reached == 1524)
        #expect(outcome.failure?.side == .write)
        #expect(outcome.failure?.error == FileSystemCalls.Failure(ENOSPC))
        #expect(script.offsets == [0, 1024, 1524])
        #expect(try files.written() == Array(files.bytes[..<1524]))
    }
}
