import FuzzCommon
@_spi(Fuzzing) import ResumeDataCodec

// Request-archive decoder: `URLRequestArchive(archiveData:)` and the in-place reader; a decoded
// request, archived again, decodes equal (``RoundTripCheck/requestArchive(_:)``).
// The check is the library's, shared with the test that replays FailCases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestArchive(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = RoundTripCheck.requestArchive(fuzzData(start, count)) {
        propertyFailed("FuzzRequestArchive", broken)
    }
    return 0
}
