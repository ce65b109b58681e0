import FuzzCommon
@_spi(Fuzzing) import ResumeDataCodec

// `ResumeData(data:)` in any container; a blob written back in its own container reads back
// equal (``RoundTripCheck/resumeData(_:)``).
// The check is the library's, shared with the test that replays FailCases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResumeData(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = RoundTripCheck.resumeData(fuzzData(start, count)) {
        propertyFailed("FuzzResumeData", broken)
    }
    return 0
}
