import Foundation
import Testing

/// The argument fuzzer's short form through the built binary: every command, every option that
/// takes a value and every positional, given one-character names, `-`, `.`, a folder, a 300-byte
/// name, a newline, /dev/full and /dev/null, huge and negative numbers. None may end in a signal
/// or a backtrace, hang, or replace a device (`Scripts/argument-fuzz.py`).
@Suite struct ArgumentFuzzTests {
    /// Also proves that it tested: every command ran command lines (a command in its table that
    /// the binary lacks, or one that ran none, is a violation), at least `floor` in all, and the
    /// values were both taken (exit 0) and refused (exit 1, 2 or 64).
    @Test func theShortSweepEndsInNoSignal() throws {
        let floor = 1_000
        let output = try Self.sweep(["--short", "--min-runs", String(floor)])
        let text = String(decoding: output.stdout + output.stderr, as: UTF8.self)
        #expect(output.status == 0, "\(text)")
        #expect(text.contains(" 0 violations"), "\(text)")
        let summary = try #require(text.split(separator: "\n").last { $0.hasPrefix("argument-fuzz: ") && $0.hasSuffix(" violations") })
        #expect((Int(summary.split(separator: " ")[1]) ?? 0) >= floor, "\(summary)")
        let perCommand = text.split(separator: "\n").filter { $0.hasPrefix("argument-fuzz: ") && $0.contains(" runs (") }
        #expect(perCommand.count >= 18, "\(text)")
        #expect(perCommand.allSatisfy { !$0.hasSuffix("(none)") }, "\(text)")
        #expect(text.contains("exit 0: ") && (text.contains("exit 2: ") || text.contains("exit 64: ")), "\(text)")
    }

    /// A floor above what the sweep runs fails it.
    @Test func aSweepUnderItsFloorFails() throws {
        let output = try Self.sweep(["--short", "--commands", "inspect", "--min-runs", "100000000"])
        let text = String(decoding: output.stdout + output.stderr, as: UTF8.self)
        #expect(output.status == 1, "\(text)")
        #expect(text.contains("under the floor of 100000000 (--min-runs)"), "\(text)")
    }

    static func sweep(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: Data) {
        let script = EndToEnd.repository.appendingPathComponent("Scripts/argument-fuzz.py").path
        return try ToolRunner.capture(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--binary", ToolRunner.executable.path] + arguments)
    }
}
