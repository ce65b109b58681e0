#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystemCalls {
    /// How far ``writeAll(_:_:at:)`` got: every byte, or the bytes before the failure that
    /// stopped it.
    package struct WriteOutcome: Equatable, Sendable {
        /// Bytes written, also when ``failure`` is set (a short write then a full disk).
        package var written: Int
        /// Why the rest was not written; nil when every byte was.
        package var failure: Failure?
    }

    /// Writes every byte of `bytes`: at `offset` with ``pwrite`` when one is given, at the
    /// descriptor's position with ``write`` otherwise (a device, a FIFO, a stream). A short write
    /// goes on with the rest, as both calls may write less than asked.
    ///
    /// The package's one "write it all" loop, so that every writer treats a short write and a
    /// write that makes no progress alike. A call that reports 0 bytes without an error would
    /// otherwise be asked again for ever; it counts as `EIO`.
    package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil) -> WriteOutcome {
        var done = 0
        while done < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
            let result = offset.map { self.pwrite(descriptor, rest, $0 + Int64(done)) } ?? self.write(descriptor, rest)
            switch result {
            // A fake (or a broken system) claiming more than it was given must not move past the end.
            case .success(let count) where count > 0: done += min(count, rest.count)
            case .success: return WriteOutcome(written: done, failure: Failure(EIO))
            case .failure(let failure): return WriteOutcome(written: done, failure: failure)
            }
        }
        return WriteOutcome(written: done, failure: nil)
    }
}

extension FileSystemCalls {
    /// How far ``copyThroughBuffer(from:to:start:end:)`` got.
    package struct CopyOutcome: Equatable, Sendable {
        /// Which call failed.
        package enum Side: Equatable, Sendable { case read, write }
        /// The offset reached: `end`, less when the input ended first or a call failed.
        package var reached: Int64
        /// The call that stopped the copy and its error; nil when it reached `end` or the input
        /// ended before (then `reached < end` and the caller decides what a short input means).
        package var failure: (side: Side, error: Failure)?

        package static func == (left: Self, right: Self) -> Bool {
            left.reached == right.reached && left.failure?.side == right.failure?.side && left.failure?.error == right.failure?.error
        }
    }

    /// Copies the bytes `start..<end` of `input` to the same offsets of `output` with ``pread``
    /// and ``writeAll(_:_:at:)``, one buffer of `bufferSize` bytes at a time.
    ///
    /// The one user-space copy, where the kernel cannot copy (``copyRange`` is nil or refuses
    /// these file systems): a partial file into `resume`'s own, evidence into a private copy.
    package func copyThroughBuffer(
        from input: Int32, to output: Int32, start: Int64, end: Int64, bufferSize: Int = 1 << 20
    ) -> CopyOutcome {
        var buffer = [UInt8](repeating: 0, count: max(1, bufferSize))
        var offset = start
        while offset < end {
            let want = Int(min(end - offset, Int64(buffer.count)))
            let read = buffer.withUnsafeMutableBytes { self.pread(input, UnsafeMutableRawBufferPointer(rebasing: $0[..<want]), offset) }
            let count: Int
            switch read {
            case .success(let value) where value > 0: count = min(value, want)
            case .success: return CopyOutcome(reached: offset, failure: nil)
            case .failure(let error): return CopyOutcome(reached: offset, failure: (.read, error))
            }
            let written = buffer.withUnsafeBytes { self.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[..<count]), at: offset) }
            if let error = written.failure {
                return CopyOutcome(reached: offset + Int64(written.written), failure: (.write, error))
            }
            offset += Int64(count)
        }
        return CopyOutcome(reached: offset, failure: nil)
    }

    /// Copies `input` from where it stands to its end into `output` at its position, with
    /// ``read`` and ``writeAll(_:_:at:)``, one buffer of `bufferSize` bytes at a time: a pipe or a
    /// terminal, which ``pread`` cannot read (`upload -`). ``CopyOutcome/reached`` counts the
    /// bytes copied.
    package func copyStream(from input: Int32, to output: Int32, bufferSize: Int = 1 << 20) -> CopyOutcome {
        var buffer = [UInt8](repeating: 0, count: max(1, bufferSize))
        var reached: Int64 = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { self.read(input, $0) }
            let count: Int
            switch read {
            case .success(let value) where value > 0: count = min(value, buffer.count)
            case .success: return CopyOutcome(reached: reached, failure: nil)
            case .failure(let error): return CopyOutcome(reached: reached, failure: (.read, error))
            }
            let written = buffer.withUnsafeBytes { self.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            if let error = written.failure {
                return CopyOutcome(reached: reached + Int64(written.written), failure: (.write, error))
            }
            reached += Int64(count)
        }
    }
}
