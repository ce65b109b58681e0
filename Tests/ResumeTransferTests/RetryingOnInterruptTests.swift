@testable import ResumeSystemCalls
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The package's one EINTR helper, value by value: each script is what successive calls return
/// (a result, or -1 with the errno).
@Suite struct RetryingOnInterruptTests {
    /// Runs the helper over `script`, returning its answer and how many calls it made.
    private func run(_ script: [(result: Int, errno: Int32)]) -> (Result<Int, FileSystemCalls.Failure>, calls: Int) {
        var calls = 0
        let result = retryingOnInterrupt { () -> Int in
            let step = script[min(calls, script.count - 1)]
            calls += 1
            errno = step.errno
            return step.result
        }
        return (result, calls)
    }

    @Test func aResultIsReturnedAtOnce() {
        let (result, calls) = self.run([(7, 0)])
        #expect(result == .success(7))
        #expect(calls == 1)
    }

    @Test func zeroIsAResult() {
        // A stale errno of EINTR beside a success must not cause a retry.
        let (result, calls) = self.run([(0, EINTR)])
        #expect(result == .success(0))
        #expect(calls == 1)
    }

    @Test func anInterruptedCallIsMadeAgain() {
        let (result, calls) = self.run([(-1, EINTR), (-1, EINTR), (-1, EINTR), (42, 0)])
        #expect(result == .success(42))
        #expect(calls == 4)
    }

    @Test(arguments: [EIO, EAGAIN, ECONNRESET, EPIPE, ENOSPC, EINPROGRESS, EBADF])
    func anotherErrorIsReturnedWithoutARetry(code: Int32) {
        let (result, calls) = self.run([(-1, code), (5, 0)])
        #expect(result == .failure(FileSystemCalls.Failure(code)))
        #expect(calls == 1)
    }

    @Test func anErrorAfterInterruptionsIsReturned() {
        let (result, calls) = self.run([(-1, EINTR), (-1, ECONNRESET), (5, 0)])
        #expect(result == .failure(FileSystemCalls.Failure(ECONNRESET)))
        #expect(calls == 2)
    }

    @Test func anyNegativeResultIsAFailure() {
        // Some calls return another negative value than -1; errno still says why.
        let (result, calls) = self.run([(-2, EIO)])
        #expect(result == .failure(FileSystemCalls.Failure(EIO)))
        #expect(calls == 1)
    }

    /// The system's calls come through it: a bad descriptor's EBADF and an empty non-blocking
    /// pipe's EAGAIN come back as failures, bytes as counts.
    @Test func theSystemCallsAnswerThroughIt() {
        var bytes = [UInt8](repeating: 0, count: 4)
        let closed = bytes.withUnsafeMutableBytes { FileSystemCalls.system.read(-1, $0) }
        #expect(closed == .failure(FileSystemCalls.Failure(EBADF)))
        guard case .success(let pipe) = SocketCalls.system.pipe() else {
            Issue.record("no pipe")
            return
        }
        defer {
            _ = SocketCalls.system.close(pipe.read)
            _ = SocketCalls.system.close(pipe.write)
        }
        let written = Array("abc".utf8).withUnsafeBytes { SocketCalls.system.write(pipe.write, $0) }
        #expect(written == .success(3))
        let read = bytes.withUnsafeMutableBytes { SocketCalls.system.read(pipe.read, $0) }
        #expect(read == .success(3))
        #expect(bytes.prefix(3) == Array("abc".utf8)[...])
        // The pipe is non-blocking: an empty one answers EAGAIN, which is not retried.
        let empty = bytes.withUnsafeMutableBytes { SocketCalls.system.read(pipe.read, $0) }
        #expect(empty == .failure(FileSystemCalls.Failure(EAGAIN)))
    }
}
