import FuzzCommon
@_spi(Fuzzing) import ResumeTransfer

// The check itself is the library's (DirectHeadCheck), shared with the test that replays FailCases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDirectHead(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = DirectHeadCheck.check(Array(UnsafeRawBufferPointer(start: start, count: count))) {
        propertyFailed("FuzzDirectHead", broken)
    }
    return 0
}
