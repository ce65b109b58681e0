import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a run of bytes occurs in others, through the C library's `memchr` and `memcmp`
/// (`memmem` is a GNU extension that Swift's Glibc module does not show).
///
/// Why not `Data.firstRange(of:)`: it is generic over `Collection`, reads `Data` one subscript
/// at a time through its representation, and made a fifth of a folder scan's time when every
/// file's first KiB and every candidate were searched for an upload blob's key names. A
/// byte-by-byte loop, searching every SQLite file's first page for the ledger's schema, made 6 %.
package enum ByteSearch {
    package static func contains(_ needle: [UInt8], in haystack: some ContiguousBytes) -> Bool {
        guard !needle.isEmpty else { return true }
        return haystack.withUnsafeBytes { hay in
            guard hay.count >= needle.count, let start = hay.baseAddress else { return false }
            return needle.withUnsafeBytes { wanted in
                guard let wantedStart = wanted.baseAddress else { return false }
                var offset = 0
                while offset <= hay.count - wanted.count {
                    // The first byte where a match could start, among the places one still fits.
                    guard let found = memchr(start + offset, Int32(needle[0]), hay.count - wanted.count - offset + 1) else { return false }
                    if memcmp(found, wantedStart, wanted.count) == 0 { return true }
                    offset = start.distance(to: UnsafeRawPointer(found)) + 1
                }
                return false
            }
        }
    }
}
