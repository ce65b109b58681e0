import Foundation

/// A parsed `Content-Range: bytes FIRST-LAST/COMPLETE` (or `bytes */COMPLETE` in a 416).
struct ContentRange: Equatable, Sendable {
    var start: Int64?
    var end: Int64?
    /// The complete length, nil for `*`.
    var total: Int64?

    init(start: Int64?, end: Int64?, total: Int64?) {
        self.start = start
        self.end = end
        self.total = total
    }

    /// Parses the header value; nil when it is not a well-formed byte range.
    init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let rest = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[1] == "*" {
            self.total = nil
        } else {
            guard let total = Self.number(parts[1]) else { return nil }
            self.total = total
        }
        if parts[0] == "*" {
            guard self.total != nil else { return nil }
            self.start = nil
            self.end = nil
            return
        }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let start = Self.number(bounds[0]), let end = Self.number(bounds[1]), start <= end else {
            return nil
        }
        if let total = self.total, end >= total { return nil }
        self.start = start
        self.end = end
    }

    /// One past the last byte (`LAST + 1`); nil without a range or when it does not fit in 64 bits.
    var exclusiveEnd: Int64? {
        guard let end = self.end else { return nil }
        let (sum, overflow) = end.addingReportingOverflow(1)
        return overflow ? nil : sum
    }

    /// The number of bytes in the range (`LAST - FIRST + 1`); nil without a range or on overflow.
    var length: Int64? {
        guard let start = self.start, let end = self.exclusiveEnd else { return nil }
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        return overflow ? nil : difference
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }
}

