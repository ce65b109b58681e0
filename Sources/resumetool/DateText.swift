import Foundation

/// Date spellings used in output. `ISO8601DateFormatter` is avoided on purpose: it drops
/// fractional seconds, which binary plists keep, and is slow to create per call.
enum DateText {
    /// `2015-04-20T08:05:49Z`, with fractional seconds only when the date has them.
    static func iso8601(_ date: Date) -> String {
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
