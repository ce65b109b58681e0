import Foundation
import ResumeDataCodec

/// Date spellings used in output. `ISO8601DateFormatter` is avoided on purpose: it drops
/// fractional seconds, which binary plists keep, and is slow to create per call.
package enum DateText {
    /// From 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z: the dates ISO 8601's four-digit years spell.
    private static let spellable: ClosedRange<Double> = -62_135_596_800...253_402_300_799.999_999

    /// True when the date has an ISO 8601 spelling: finite, and in years 1 to 9999. A binary
    /// plist can hold any double (NaN, infinity, 1e300) as a date.
    package static func isSpellable(_ date: Date) -> Bool {
        spellable.contains(date.timeIntervalSince1970)
    }

    /// `2015-04-20T08:05:49Z`, with fractional seconds only when the date has them; for a date
    /// that has no such spelling, the raw number with a note:
    /// `1e+300 seconds since 2001-01-01 (out of range)`.
    package static func text(_ date: Date) -> String {
        guard isSpellable(date) else {
            return "\(date.timeIntervalSinceReferenceDate) seconds since 2001-01-01 (out of range)"
        }
        return iso8601(date)
    }

    /// JSON for a date: the ISO 8601 string, or the plain number of seconds since 2001-01-01 when
    /// there is no such spelling (NaN and infinities as JSONValue spells them).
    package static func json(_ date: Date) -> JSONValue {
        isSpellable(date) ? .string(iso8601(date)) : .real(date.timeIntervalSinceReferenceDate)
    }

    /// The ISO 8601 spelling; only for dates where ``isSpellable(_:)`` holds.
    private static func iso8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        var time = time_t(whole)
        var parts = tm()
        gmtime_r(&time, &parts)
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d",
                          Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                          Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        let fraction = seconds - whole
        if fraction > 0 {
            let digits = String(format: "%.6f", fraction).dropFirst(1)  // ".123456"
            text += digits.replacingOccurrences(of: "0+$", with: "", options: .regularExpression)
        }
        return text + "Z"
    }
}
