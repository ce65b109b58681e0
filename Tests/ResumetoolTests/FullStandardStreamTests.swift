import Foundation
import Testing

/// What the built binary does when standard output or standard error cannot be written: a full
/// disk (`/dev/full`, every write fails with ENOSPC) or a pipe closed by its reader with SIGPIPE
/// ignored (EPIPE). The write is dropped; the command's work and exit status stand, and nothing
/// traps (`FileHandle.write` did, exit 132). `StandardStreamTests` runs `repair -o FILE` so.
@Suite struct FullStandardStreamTests {
    /// Runs the binary with both streams on `/dev/full`; returns its termination reason and status.
    private func runOnFullDisk(_ arguments: [String], in directory: URL) throws -> (Process.TerminationReason, Int32) {
        let process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        process.standardOutput = full
        process.standardError = full
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }

    @Test(arguments: [
        ["inspect", "ios9-xml.plist"], ["validate", "broken-missing-validator.resumedata"], ["plist", "print", "ios9-xml.plist"],
        ["archive", "ios12-keyed-archive.resumedata"], ["scan", "."], ["inspect", "no-such-file"],
    ])
    func readingCommandsKeepTheirStatus(_ arguments: [String]) throws {
        let (reason, status) = try runOnFullDisk(arguments, in: EndToEnd.samples)
        #expect(reason == .exit)
        #expect(status == (try EndToEnd.run(arguments)).status)
    }

    @Test func aClosedPipeWithSIGPIPEIgnoredIsNotATrap() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("repaired.plist")
        let sample = EndToEnd.samples.appendingPathComponent("ios10-corrupted-requests.plist").path
        // The reader (`true`) exits at once; the shell ignores SIGPIPE for the tool, as a
        // daemon or a Python parent often does, so its writes fail with EPIPE.
        let script = "trap '' PIPE; \"$0\" repair \"$1\" --target ios10 -o \"$2\" | true; echo \"${PIPESTATUS[0]}\""
        let result = try ToolRunner.capture(URL(fileURLWithPath: "/bin/bash"), ["-c", script, ToolRunner.executable.path, sample, output])
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "0\n")
        #expect(FileManager.default.fileExists(atPath: output))
    }
}
