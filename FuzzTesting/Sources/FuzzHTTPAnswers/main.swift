import FuzzCommon

// The check itself is in HTTPAnswers.swift, shared with the test that replays FailCases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPAnswers(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = checkHTTPAnswers(Array(UnsafeRawBufferPointer(start: start, count: count))) {
        propertyFailed("FuzzHTTPAnswers", broken)
    }
    return 0
}
