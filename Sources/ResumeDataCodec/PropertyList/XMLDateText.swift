import Foundation

/// The `<date>` text form, `yyyy-MM-ddTHH:mm:ssZ` in UTC on the proleptic Gregorian calendar
/// (as CoreFoundation and Python's plistlib use). Converted by arithmetic rather than with
/// `Calendar`/`DateFormatter`, which are slow and locale-dependent for a fixed format.
enum XMLDateText {
    /// Parses `yyyy-MM-ddTHH:mm:ssZ` (or `-yyy…` before year 1, as `%04d` prints it), XML
    /// whitespace around it allowed; `nil` when the text is not in that form or names no real
    /// day or time.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        var start = 0
        var end = text.count
        while start < end, XMLScalarText.isSpace(text[start]) { start += 1 }
        while end > start, XMLScalarText.isSpace(text[end - 1]) { end -= 1 }
        var index = start

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
        let year = negativeYear ? -yearDigits : yearDigits
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Formats a date as Apple does: whole seconds, rounded down, `%04d-%02d-%02dT%02d:%02d:%02dZ`.
    static func format(_ date: Date, into output: inout [UInt8]) {
        let interval = date.timeIntervalSince1970.rounded(.down)
        // Beyond ±2^53 s the calendar arithmetic below would overflow; such dates are far outside
        // any year a plist can spell, so clamp them.
        let total = Int(max(min(interval, 9.0e15), -9.0e15))
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
        output.append(UInt8(ascii: "Z"))
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

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
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
