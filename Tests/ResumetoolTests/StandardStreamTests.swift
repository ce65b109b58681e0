import Foundation
@testable import ResumeDataCodec
@testable import ResumeSystemCalls
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The one writer for standard output and error (``StandardStream``), through the seam's `write`:
/// a failed write is dropped and the command goes on; a short write goes on with the rest.
@Suite struct StandardStreamTests {
    /// Answers each `write` with the next of `answers` (a count, or an errno as a negative
    /// number), recording what each call was given; past the list, it fails with EIO.
    private final class ScriptedWrites: Sendable {
        private let state: Mutex<(answers: [Int], offered: [[UInt8]])>

        init(_ answers: [Int]) { self.state = Mutex((answers, [])) }

        var offered: [[UInt8]] { self.state.withLock { $0.offered } }

        var calls: FileSystemCalls {
            var calls = FileSystemCalls.system
            calls.write = { descriptor, bytes in
                #expect(descriptor == 9)
                return self.state.withLock { state in
                    state.offered.append(Array(bytes))
                    let answer = state.answers.isEmpty ? -Int(EIO) : state.answers.removeFirst()
                    return answer >= 0 ? .success(min(answer, bytes.count)) : .failure(FileSystemCalls.Failure(Int32(-answer)))
                }
            }
            return calls
        }
    }

    private func write(_ text: String, answers: [Int]) -> (written: Int, offered: [String]) {
        let script = ScriptedWrites(answers)
        let written = Array(text.utf8).withUnsafeBytes { StandardStream.write($0, to: 9, calls: script.calls) }
        return (written, script.offered.map { String(decoding: $0, as: UTF8.self) })
    }

    @Test func oneWholeWrite() {
        let result = self.write("hello\n", answers: [6])
        #expect(result.written == 6)
        #expect(result.offered == ["hello\n"])
    }

    @Test func shortWritesGoOnWithTheRest() {
        let result = self.write("hello\n", answers: [2, 1, 3])
        #expect(result.written == 6)
        #expect(result.offered == ["hello\n", "llo\n", "lo\n"])
    }

    @Test(arguments: [EPIPE, ENOSPC, EIO, EBADF])
    func aFailedWriteIsDroppedWithoutATrap(code: Int32) {
        let result = self.write("hello\n", answers: [-Int(code)])
        #expect(result.written == 0)
        #expect(result.offered == ["hello\n"])
    }

    @Test(arguments: [EPIPE, ENOSPC])
    func aFailureAfterAShortWriteDropsOnlyTheRest(code: Int32) {
        let result = self.write("hello\n", answers: [4, -Int(code)])
        #expect(result.written == 4)
        #expect(result.offered == ["hello\n", "o\n"])
    }

    @Test func aWriteOfNothingStops() {
        let result = self.write("hello\n", answers: [0])
        #expect(result.written == 0)
        #expect(result.offered == ["hello\n"])
    }

    @Test func nothingToWriteMakesNoCall() {
        let result = self.write("", answers: [])
        #expect(result.written == 0)
        #expect(result.offered == [])
    }

    /// The binary with its standard output on a full device (`/dev/full`: every write fails with
    /// ENOSPC): the repaired blob still goes to its `-o` file, the change lines are dropped, and
    /// the command exits 0.
    @Test func repairWithAFullStandardOutputStillWritesItsFileAndExitsZero() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("repaired")
        let process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = ["repair", "ios10-corrupted-requests.plist", "-o", output]
        process.currentDirectoryURL = EndToEnd.samples
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let errors = Pipe()
        process.standardOutput = full
        process.standardError = errors
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: stderr, as: UTF8.self) == "")
        let repaired = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(ResumeDataValidator().findings(for: repaired).isEmpty)
        // The same command to a pipe prints the change lines: they were what /dev/full dropped.
        let printed = try EndToEnd.run(["repair", "ios10-corrupted-requests.plist", "-o", folder.path("again")])
        #expect(printed.status == 0)
        #expect(!printed.stdout.isEmpty)
    }
}
