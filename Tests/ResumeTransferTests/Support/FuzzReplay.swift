import Foundation

/// What the replay tests of the engine's fuzzing harnesses share: the folder of kept inputs
/// (FuzzTesting/FailCases/HARNESS) and a seeded generator for random inputs.
enum FuzzReplay {
    static func folder(_ harness: String) -> URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzTesting/FailCases/\(harness)")
    }

    /// The kept inputs' names, sorted.
    static func cases(_ harness: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder(harness).path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    static func bytes(_ harness: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder(harness).appendingPathComponent(name)))
    }

    /// SplitMix64: the same inputs on every run.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            self.state &+= 0x9E37_79B9_7F4A_7C15
            var z = self.state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
