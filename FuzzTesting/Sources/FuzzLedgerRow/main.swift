import FuzzCommon
@_spi(Fuzzing) import ResumeScan

// The check itself is the library's (LedgerRowCheck): one session_tasks row decoded as the
// ledger decodes it, its partial file placed in a folder, an archive and a backup.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLedgerRow(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = LedgerRowCheck.check(Array(UnsafeRawBufferPointer(start: start, count: count))) {
        propertyFailed("FuzzLedgerRow", broken)
    }
    return 0
}
