import Foundation
import FuzzCommon
// Testable: the encoder this harness round-trips through is `package`, not for library users.
@testable import ResumeDataCodec

// Keyed-archive decoder: `KeyedArchive(data:)` + `decodeRoot()`. A decoded root, archived again
// in the container it came from, decodes to the same tree (after one extra trip for XML, whose
// text form rounds dates and reals).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyedArchive(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = fuzzData(start, count)
    guard let archive = try? KeyedArchive(data: data), let root = try? archive.decodeRoot() else { return 0 }
    let format = PropertyListReader.format(of: data)
    func encode(_ value: ArchivedValue) -> Data? {
        try? KeyedArchive(encoding: value, topKey: archive.topKey).data(format: format)
    }
    func trip(_ value: ArchivedValue) -> ArchivedValue? {
        // Encoding may refuse a tree (an unrepresentable value); that is a clean outcome.
        guard let encoded = encode(value) else { return nil }
        do {
            return try KeyedArchive(data: encoded).decodeRoot()
        } catch {
            propertyFailed("FuzzKeyedArchive", "our own \(format) archive does not decode: \(error)")
        }
    }
    guard let once = trip(root) else { return 0 }
    let (before, after) = format == .binary ? (root, once) : (once, trip(once))
    guard let after else { propertyFailed("FuzzKeyedArchive", "a re-encoded tree cannot be encoded again") }
    // `Date.==` finds a NaN date unequal to itself; then equal encodings must do.
    if before != after, encode(before) != encode(after) {
        propertyFailed("FuzzKeyedArchive", "\(format) round trip changed \(before) into \(after)")
    }
    return 0
}
