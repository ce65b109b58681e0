import FuzzCommon
import ResumeDataCodec

// Binary property-list reader: any bytes give a value or a clean error; a value written as binary
// reads back equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPlist(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = fuzzData(start, count)
    guard PropertyListReader.format(of: data) == .binary,
          let (value, _) = try? PropertyListReader().read(data)
    else { return 0 }
    checkBinaryRoundTrip(value, harness: "FuzzBinaryPlist")
    return 0
}
