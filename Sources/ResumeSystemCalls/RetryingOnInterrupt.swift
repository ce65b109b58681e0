#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes the system call `call` (which returns -1 and sets `errno` on failure) until a signal
/// no longer interrupts it: its result, or the errno it failed with.
///
/// The one place the package retries on `EINTR`; every call of ``FileSystemCalls`` and
/// ``SocketCalls`` goes through it. It is not bounded: an interrupted call has done nothing, and
/// each retry waits for the signal that interrupted it to be handled. `close` does not come here,
/// because on Linux the descriptor is released even when close is interrupted.
func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> Result<T, FileSystemCalls.Failure> {
    while true {
        let result = call()
        if result >= 0 { return .success(result) }
        let code = errno
        if code != EINTR { return .failure(FileSystemCalls.Failure(code)) }
    }
}
