import Foundation

/// The one ISO 8601 date text of the package, `yyyy-MM-ddTHH:mm:ssZ` in UTC on the proleptic
/// Gregorian calendar: the XML plist `<date>` (read and written, as CoreFoundation and Python's
/// plistlib do), the dates of every report (with fractional seconds, which binary plists keep)
/// and ``ArchivedValue``'s description. Converted by arithmetic rather than with
/// `Calendar`/`DateFormatter`/`Date.ISO8601FormatStyle`, which are slow and locale-dependent for
/// a fixed format, and which switch to the Julian calendar before 1582 and print nonsense for
/// NaN, infinities and huge dates (a binary plist can hold any double as a date).
package enum ISO8601DateText {
    /// From 0001-01-01T00:00:00Z up to 10000-01-01T00:00:00Z, seconds since 1970: the dates
    /// ISO 8601's four-digit years spell.
    private static let spellable: Range<Double> = -62_135_596_800..<253_402_300_800

    /// Beyond ±9e15 s (about ±285 million years) the calendar arithmetic would overflow, and no
    /// plist reader takes such a year anyway.
    private static let calendarLimit: Double = 9.0e15

    /// True when the date has an ISO 8601 spelling: finite, and in years 1 to 9999.
    package static func isSpellable(_ date: Date) -> Bool {
        spellable.contains(date.timeIntervalSince1970)
    }

    /// `2015-04-20T08:05:49Z`; with `fractionalSeconds`, `2015-04-20T08:05:49.25Z` (up to six
    /// digits, rounded half to even as `%.6f` does, trailing zeros dropped, none when they round
    /// to zero). Whole seconds are rounded down, as Apple's XML writer does. Years outside 1-9999
    /// are written as `%04d` prints them (`-001`, `10000`), which the XML writer needs to keep
    /// every finite date; `nil` for NaN, infinities and dates beyond ±9e15 s, which have no
    /// calendar spelling at all.
    package static func string(_ date: Date, fractionalSeconds: Bool) -> String? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) <= calendarLimit else { return nil }
        var whole = seconds.rounded(.down)
        var microseconds = 0
        if fractionalSeconds {
            microseconds = roundedMicroseconds(seconds - whole)
            // 0.9999996 s is the next second; only dates within 2^32 s of 1970 have such digits.
            if microseconds == 1_000_000 {
                whole += 1
                microseconds = 0
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(27)
        appendCalendar(Int(whole), to: &output)
        if microseconds > 0 {
            output.append(UInt8(ascii: "."))
            var digits = 6
            while microseconds % 10 == 0 {
                microseconds /= 10
                digits -= 1
            }
            appendPadded(microseconds, width: digits, to: &output)
        }
        output.append(UInt8(ascii: "Z"))
        return String(decoding: output, as: UTF8.self)
    }

    /// For people: the spelling of ``string(_:fractionalSeconds:)`` when the date
    /// ``isSpellable(_:)``, otherwise the raw number with a note,
    /// `1e+300 seconds since 2001-01-01 (out of range)`.
    package static func text(_ date: Date, fractionalSeconds: Bool) -> String {
        if isSpellable(date), let text = string(date, fractionalSeconds: fractionalSeconds) { return text }
        return "\(date.timeIntervalSinceReferenceDate) seconds since 2001-01-01 (out of range)"
    }

    /// Parses `yyyy-MM-ddTHH:mm:ssZ` (or `-yyy…` before year 1, as `%04d` prints it) as Apple's
    /// XML plist reader does; `nil` when the text is not in that form.
    ///
    /// Month, day, hour, minute and second are two digits each, 00 to 99, and a value past the
    /// end of its field rolls over into the next one, as swift-foundation's reader does (it hands
    /// the fields to a lenient `Calendar`; CoreFoundation's adds days and seconds the same way):
    /// `2024-01-32T20:43:14Z` is 2024-02-01T20:43:14Z, which swift-foundation's own writer once
    /// wrote (rdar://122065123), `2015-02-29` is March 1st, `T24:00:00Z` the next midnight, month
    /// 13 January of the next year and month 00 December of the one before. Stricter than Apple
    /// only where no Apple writer goes: the year takes 4 to 9 digits (3 to 9 after a minus), and
    /// no blank may come before or after the date (Apple's readers refuse those too).
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        let end = text.count
        var index = 0

        func number(digits: ClosedRange<Int>) -> Int? {
            var value = 0
            var count = 0
            while index < end, count < digits.upperBound, text[index] >= 0x30, text[index] <= 0x39 {
                value = value * 10 + Int(text[index] - 0x30)
                index += 1
                count += 1
            }
            return digits.contains(count) ? value : nil
        }
        func expect(_ character: Unicode.Scalar) -> Bool {
            guard index < end, text[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        let negativeYear = expect("-")
        guard let yearDigits = number(digits: negativeYear ? 3...9 : 4...9), expect("-"),
              let month = number(digits: 2...2), expect("-"),
              let day = number(digits: 2...2), expect("T"),
              let hour = number(digits: 2...2), expect(":"),
              let minute = number(digits: 2...2), expect(":"),
              let second = number(digits: 2...2), expect("Z"), index == end
        else { return nil }
        // Month 0...99 onto a year and a month 1...12; the rest is plain addition. Bounded: at
        // most 9 digits of year, so no arithmetic here can overflow.
        let monthsFromYearZero = (negativeYear ? -yearDigits : yearDigits) * 12 + month - 1
        let year = monthsFromYearZero >= 0 ? monthsFromYearZero / 12 : (monthsFromYearZero - 11) / 12
        let firstOfMonth = daysFromCivil(year: year, month: monthsFromYearZero - year * 12 + 1, day: 1)
        let seconds = (firstOfMonth + day - 1) * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `yyyy-MM-ddTHH:mm:ss` of a whole number of seconds since 1970, within ±9e15.
    private static func appendCalendar(_ total: Int, to output: inout [UInt8]) {
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        if year < 0 {
            output.append(UInt8(ascii: "-"))
            appendPadded(-year, width: 3, to: &output)
        } else {
            appendPadded(year, width: 4, to: &output)
        }
        output.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &output)
        output.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &output)
        output.append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3_600, width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, width: 2, to: &output)
    }

    /// A fraction in [0, 1) times 10^6, rounded to the nearest integer and half to even on its
    /// exact value, as C's `%.6f` rounds: `fraction * 1e6` alone is rounded once already and can
    /// land on the wrong side of a half (0.0078125 = 2^-7 is an exact tie, 7812.5, kept at 7812).
    /// The fused multiply-add gives the product's rounding error exactly, and the sign of
    /// "distance past the half plus that error" is exact too (the distance is computed exactly
    /// wherever it is near zero), so the result is 0...1_000_000.
    private static func roundedMicroseconds(_ fraction: Double) -> Int {
        let product = fraction * 1_000_000
        let error = (-product).addingProduct(fraction, 1_000_000)
        let down = product.rounded(.down)
        let pastHalf = (product - down - 0.5) + error
        var result = Int(down)
        if pastHalf > 0 || (pastHalf == 0 && result % 2 == 1) { result += 1 }
        return result
    }

    private static func appendPadded(_ value: Int, width: Int, to output: inout [UInt8]) {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(UInt8(0x30 + rest % 10))
            rest /= 10
        } while rest > 0
        for _ in digits.count..<max(width, digits.count) { output.append(0x30) }
        output.append(contentsOf: digits.reversed())
    }

    // Howard Hinnant's days_from_civil / civil_from_days: days since 1970-01-01.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
