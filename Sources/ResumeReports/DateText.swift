import Foundation
import ResumeDataCodec

/// A date as JSON. The text itself is the codec's ``ISO8601DateText``, with fractional seconds,
/// which binary plists keep.
package enum DateText {
    /// The ISO 8601 string, or the plain number of seconds since 2001-01-01 when there is no such
    /// spelling (NaN and infinities as JSONValue spells them).
    package static func json(_ date: Date) -> JSONValue {
        if ISO8601DateText.isSpellable(date), let text = ISO8601DateText.string(date, fractionalSeconds: true) {
            return .string(text)
        }
        return .real(date.timeIntervalSinceReferenceDate)
    }

    /// The ISO 8601 spelling with fractional seconds, or for a date outside years 1-9999
    /// `1e+300 seconds since 2001-01-01 (out of range)`.
    package static func text(_ date: Date) -> String {
        ISO8601DateText.text(date, fractionalSeconds: true)
    }
}
