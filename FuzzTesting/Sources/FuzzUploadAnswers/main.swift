import FuzzCommon
@_spi(Fuzzing) import ResumeTransfer

// The check itself is the library's (UploadAnswerCheck), shared with the test that replays FailCases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUploadAnswers(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = UploadAnswerCheck.check(Array(UnsafeRawBufferPointer(start: start, count: count))) {
        propertyFailed("FuzzUploadAnswers", broken)
    }
    return 0
}
