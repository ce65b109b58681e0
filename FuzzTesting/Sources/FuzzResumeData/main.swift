import Foundation
import FuzzCommon
// Testable: it checks `package` properties (the entries without a typed field, a container's format).
@testable import ResumeDataCodec

// `ResumeData(data:)` in any container. A blob that reads, written back in its own container,
// reads back equal (after one extra trip for the XML containers, whose text rounds values).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResumeData(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = fuzzData(start, count)
    guard let blob = try? ResumeData(data: data) else { return 0 }
    _ = (blob.downloadURL, blob.bytesReceived, blob.tempFileName, blob.localPath, blob.entityTag,
         blob.currentRequest, blob.originalRequest, blob.otherEntries)
    func trip(_ value: ResumeData) -> ResumeData? {
        guard let encoded = try? value.encoded() else { return nil }
        do {
            return try ResumeData(data: encoded)
        } catch {
            propertyFailed("FuzzResumeData", "our own \(value.container) blob does not read: \(error)")
        }
    }
    guard let once = trip(blob) else { return 0 }
    let (before, after) = blob.container.propertyListFormat == .binary ? (blob, once) : (once, trip(once))
    guard let after else { propertyFailed("FuzzResumeData", "a re-encoded blob cannot be encoded again") }
    // `Date.==` finds a NaN date unequal to itself; then equal encodings must do.
    if before != after, (try? before.encoded()) != (try? after.encoded()) {
        propertyFailed("FuzzResumeData", "\(blob.container) round trip changed \(before) into \(after)")
    }
    return 0
}
