import FuzzCommon
@_spi(Fuzzing) import ResumeDataCodec

// XML property-list reader: any bytes give a value or a clean error; a value then survives XML
// round trips and a binary round trip (``RoundTripCheck/xmlPropertyList(_:)``).
// The check is the library's, shared with the test that replays FailCases.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPlist(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let broken = RoundTripCheck.xmlPropertyList(fuzzData(start, count)) {
        propertyFailed("FuzzXMLPlist", broken)
    }
    return 0
}
