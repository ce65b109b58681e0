/// A `--limit-rate` value as curl spells it: bytes per second, with an optional `k`, `M` or `G`
/// suffix (any case, powers of 1024) and a fraction (`1.5M`).
enum RateArgument {
    /// Bytes per second, or nil when `text` is not a rate from 1 B/s to 1 TiB/s.
    static func parse(_ text: String) -> Int64? {
        var digits = Substring(text)
        var scale = 1.0
        switch digits.last {
        case "k", "K": scale = 1024
        case "m", "M": scale = 1024 * 1024
        case "g", "G": scale = 1024 * 1024 * 1024
        default: break
        }
        if scale > 1 { digits = digits.dropLast() }
        // Digits and at most one point only: Double("inf"), "nan" and "1e999" must not pass.
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              digits.filter({ $0 == "." }).count <= 1, let number = Double(digits)
        else { return nil }
        let rate = (number * scale).rounded(.down)
        guard rate >= 1, rate <= 1024 * 1024 * 1024 * 1024 else { return nil }
        return Int64(rate)
    }
}
