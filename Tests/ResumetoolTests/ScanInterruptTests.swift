import Foundation
import Testing

/// Ctrl-C during `scan`: the report of what was found so far is printed, with a note on standard
/// error, and the exit status is 130.
@Suite struct ScanInterruptTests {
    /// Whether the process catches SIGINT (bit 1 of `SigCgt` in /proc/PID/status): `scan` does
    /// once it is ready to stop and report.
    static func catchesInterrupt(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << (UInt64(SIGINT) - 1)) != 0
    }

    @Test(arguments: [["--json"], []])
    func interruptedScanPrintsWhatItHas(format: [String]) throws {
        let directory = try TemporaryDirectory()
        // Enough folders that the scan is still walking when the signal comes.
        let filler = Data(repeating: 0x41, count: 64)
        for folder in 0..<400 {
            let url = directory.url.appendingPathComponent("tree/d\(folder)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for file in 0..<50 { try filler.write(to: url.appendingPathComponent("f\(file)")) }
        }
        let process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = ["scan"] + format + ["tree"]
        process.currentDirectoryURL = directory.url
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !Self.catchesInterrupt(process.processIdentifier), process.isRunning, Date() < deadline { usleep(1000) }
        try #require(process.isRunning, "the scan ended before it could be interrupted")
        kill(process.processIdentifier, SIGINT)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        #expect(String(decoding: stderr, as: UTF8.self) == "scan: interrupted: the report holds what was found before Ctrl-C\n")
        if format == ["--json"] {
            let top = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
            #expect(Set(top.keys) == ["blobs", "orphanPartialFiles", "errors"])
        } else {
            // `N files scanned: …`, N at most the 20,000 files of the tree.
            let text = String(decoding: stdout, as: UTF8.self)
            let count = try #require(Int(text.prefix { $0 != " " }.replacingOccurrences(of: ",", with: "")))
            #expect(count <= 20_000)
            #expect(text.hasSuffix(" files scanned: 0 blobs, 0 orphan partial files, 0 errors\n"))
        }
    }
}
