import Foundation

/// The bytes libFuzzer hands a harness, copied into `Data` (the library reads `Data`).
public func fuzzData(_ start: UnsafeRawPointer, _ count: Int) -> Data {
    Data(bytes: start, count: count)
}

/// Stops the fuzzer on a broken round-trip property. A crash is what libFuzzer records, so the
/// harness (never the library) traps here on purpose; the message says which property broke.
public func propertyFailed(_ harness: String, _ message: String) -> Never {
    fatalError("\(harness): round-trip property broken: \(message)")
}
