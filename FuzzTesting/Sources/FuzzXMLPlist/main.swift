import FuzzCommon
import ResumeDataCodec

// XML property-list reader: any bytes give a value or a clean error; a value then survives XML
// round trips (see checkXMLRoundTrip) and a binary round trip exactly.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPlist(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = fuzzData(start, count)
    // Only the XML path: the facade would send binary-looking input to the binary reader.
    guard PropertyListReader.format(of: data) == .xml,
          let (value, _) = try? PropertyListReader().read(data)
    else { return 0 }
    checkXMLRoundTrip(value, harness: "FuzzXMLPlist")
    checkBinaryRoundTrip(value, harness: "FuzzXMLPlist")
    return 0
}
