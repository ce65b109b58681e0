import Foundation
import Synchronization

/// Reads a `Retry-After` header: delta-seconds or an HTTP-date.
enum RetryAfter {
    /// The wait the server asked for, nil when the value is neither form; dates in the past give zero.
    static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // Bounded so a 40-digit value cannot overflow; callers clamp further.
            guard let seconds = Int64(trimmed.prefix(9)) else { return nil }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        // A far-future date (DateFormatter takes years of many digits) must not overflow the
        // conversion; a billion seconds is far past any clamp a caller applies.
        let delta = min(date.timeIntervalSince(now), 1e9)
        return delta > 0 ? .milliseconds(Int64(delta * 1000)) : .zero
    }
}

/// The IMF-fixdate form of HTTP dates (`Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDate {
    /// One parser for the process: making a DateFormatter loads ICU data and costs far more than
    /// parsing; the lock is there because a formatter is not safe to share between threads.
    private static let parser = Mutex<DateFormatter>({
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }())

    static func parse(_ text: String) -> Date? {
        // Longer than any date (29 characters): not worth handing to ICU.
        guard text.utf8.count <= 64 else { return nil }
        return parser.withLock { $0.date(from: text) }
    }

    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
