import FuzzCommon
@_spi(Fuzzing) import ResumeDataCodec

// Keyed-archive decoder: `KeyedArchive(data:)` + `decodeRoot()`; a decoded root, archived again,
// decodes to the same tree (``RoundTripCheck/keyedArchive(_:)``).
// The check is the library's, shared with the test that replays FailCases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyedArchive(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = RoundTripCheck.keyedArchive(fuzzData(start, count)) {
        propertyFailed("FuzzKeyedArchive", broken)
    }
    return 0
}
