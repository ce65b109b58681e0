import FuzzCommon
@_spi(Fuzzing) import ResumeTransfer

// The check itself is the library's (HTTPAnswerCheck), shared with the test that replays FailCases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPAnswers(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = HTTPAnswerCheck.check(Array(UnsafeRawBufferPointer(start: start, count: count))) {
        propertyFailed("FuzzHTTPAnswers", broken)
    }
    return 0
}
