import Foundation
import Testing

/// The argument fuzzer's short form through the built binary: every command, every option that
/// takes a value and every positional, given one-character names, `-`, `.`, a folder, a 300-byte
/// name, a newline, /dev/full and /dev/null, huge and negative numbers. None may end in a signal
/// or a backtrace, hang, or replace a device (`Scripts/argument-fuzz.py`).
@Suite struct ArgumentFuzzTests {
    @Test func theShortSweepEndsInNoSignal() throws {
        let script = EndToEnd.repository.appendingPathComponent("Scripts/argument-fuzz.py").path
        let output = try ToolRunner.capture(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--binary", ToolRunner.executable.path, "--short"])
        let text = String(decoding: output.stdout + output.stderr, as: UTF8.self)
        #expect(output.status == 0, "\(text)")
        #expect(text.contains(" 0 violations"), "\(text)")
    }
}
