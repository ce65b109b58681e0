import Foundation

/// Remembers the last decoded request archive of each kind, keyed by the archive's bytes, so
/// the validator, a report and the caller can all ask ``ResumeData/request(_:)`` without
/// decoding the same archive again (decoding was over half of `inspect`'s time).
///
/// Shared by copies of a ``ResumeData``: a copy whose entries changed finds different bytes and
/// decodes afresh, so sharing never returns a stale request. A class with a lock because a
/// `ResumeData` is `Sendable` and may be read from several tasks at once.
final class RequestArchiveMemo: @unchecked Sendable {
    private struct Slot {
        let bytes: Data
        let result: Result<URLRequestArchive, ResumeDataError>
    }

    private let lock = NSLock()
    private var current: Slot?
    private var original: Slot?

    /// The remembered result for these bytes, or `decode`'s result, remembered.
    func request(_ kind: ResumeData.RequestKind, bytes: Data,
                 decode: () -> Result<URLRequestArchive, ResumeDataError>) -> Result<URLRequestArchive, ResumeDataError> {
        if let slot = lock.withLock({ kind == .current ? current : original }), slot.bytes == bytes {
            return slot.result
        }
        // Decoded outside the lock: two tasks may both decode once, which is harmless.
        let result = decode()
        let slot = Slot(bytes: bytes, result: result)
        lock.withLock {
            if kind == .current { current = slot } else { original = slot }
        }
        return result
    }
}
