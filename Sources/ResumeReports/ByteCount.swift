import Foundation
import ResumeDataCodec

/// Byte counts for people: `2,339,054 bytes (2.2 MiB)`.
package enum ByteCount {
    package static func describe(_ count: Int64) -> String {
        let grouped = grouping(count)
        let noun = count == 1 ? "byte" : "bytes"
        // magnitude, not abs: abs(Int64.min) traps, and a blob can hold any count.
        guard count.magnitude >= 1024 else { return "\(grouped) \(noun)" }
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = Double(count) / 1024
        var unit = 0
        while abs(value) >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let rounded = (value * 10).rounded() / 10
        return "\(grouped) \(noun) (\(rounded) \(units[unit]))"
    }

    /// Binary units with one decimal, for progress lines: `512 B`, `1.5 KiB`, `12.3 MiB`.
    static func short(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        var value = Double(count) / 1024
        for unit in ["KiB", "MiB", "GiB"] {
            if value < 1024 { return String(format: "%.1f", value) + " " + unit }
            value /= 1024
        }
        return String(format: "%.1f TiB", value)
    }

    package static func grouping(_ count: Int64) -> String {
        let digits = String(count.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (count < 0 ? "-" : "") + out
    }
}
