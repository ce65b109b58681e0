import Foundation
import FuzzCommon
// Testable: the encoder this harness round-trips through is `package`, not for library users.
@testable import ResumeDataCodec

// Request-archive decoder: `URLRequestArchive(archiveData:)`. A decoded request, archived again
// (binary, its own layout and top key), decodes to an equal request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestArchive(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = fuzzData(start, count)
    // The in-place reader (the public initializer's shortcut) returns nothing or exactly what
    // the full decoder returns.
    if let fast = BinaryRequestArchiveReader.request(from: data) {
        guard let full = try? URLRequestArchive(archive: KeyedArchive(data: data)) else {
            propertyFailed("FuzzRequestArchive", "the in-place reader decoded \(fast), which the full decoder refuses")
        }
        if fast != full || fast.items.map(\.description) != full.items.map(\.description), (try? fast.archiveData()) != (try? full.archiveData()) {
            propertyFailed("FuzzRequestArchive", "the in-place reader gave \(fast), the full decoder \(full)")
        }
    }
    guard let request = try? URLRequestArchive(archiveData: data) else { return 0 }
    // Touch the accessors the CLI prints: they walk the decoded fields.
    _ = (request.urlString, request.mainDocumentURLString, request.timeoutInterval, request.cachePolicy,
         request.method, request.headers, request.hiddenHeaderArchive, request.body, request.isMutable,
         request.unconfirmedItems)
    guard let encoded = try? request.archiveData() else { return 0 }
    let again: URLRequestArchive
    do {
        again = try URLRequestArchive(archiveData: encoded)
    } catch {
        propertyFailed("FuzzRequestArchive", "our own request archive does not decode: \(error)")
    }
    // `Date.==` finds a NaN date unequal to itself; then equal encodings must do.
    if again != request, (try? again.archiveData()) != encoded {
        propertyFailed("FuzzRequestArchive", "round trip changed \(request) into \(again)")
    }
    return 0
}
