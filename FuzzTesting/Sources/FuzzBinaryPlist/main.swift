import FuzzCommon
@_spi(Fuzzing) import ResumeDataCodec

// Binary property-list reader: any bytes give a value or a clean error; a value written as binary
// reads back equal (``RoundTripCheck/binaryPropertyList(_:)``).
// The check is the library's, shared with the test that replays FailCases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPlist(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = RoundTripCheck.binaryPropertyList(fuzzData(start, count)) {
        propertyFailed("FuzzBinaryPlist", broken)
    }
    return 0
}
