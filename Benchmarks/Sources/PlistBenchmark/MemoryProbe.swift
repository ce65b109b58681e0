import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Peak resident memory of one operation, measured in a fresh child process so that neither
/// the other implementation nor earlier runs leave pages behind.
///
/// The child loads the input (and, for encoders, decodes it), returns freed heap to the system,
/// resets the kernel's high-water mark (`echo 5 > /proc/self/clear_refs`), notes the resident
/// set, runs the operation once, and reads `VmHWM`. The difference is what the operation itself
/// needed at its peak: the value tree it built plus its temporaries.
enum MemoryProbe {
    struct Measurement: Sendable {
        /// Resident set just before the operation, in bytes (runtime, libraries, input).
        var baseline: Int
        /// Highest resident set during the operation, in bytes.
        var peak: Int
        /// What the operation added at its peak.
        var extra: Int { max(0, peak - baseline) }
    }

    static let childFlag = "--memory-probe"

    /// Runs `benchmarkCase` once in a child process for `implementation`.
    static func measure(_ benchmarkCase: BenchmarkCase, _ implementation: Implementation, inputPath: String) throws -> Measurement {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [childFlag, benchmarkCase.operation.rawValue, benchmarkCase.format == .binary ? "binary" : "xml", implementation.rawValue, inputPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, fields.count == 2 else {
            throw BenchmarkError("memory probe for \(benchmarkCase.id)/\(implementation) failed (status \(process.terminationStatus)): \(String(decoding: output, as: UTF8.self))")
        }
        return Measurement(baseline: fields[0], peak: fields[1])
    }

    /// The child's side: `--memory-probe decode|encode xml|binary ours|foundation PATH`.
    static func runChild(_ arguments: ArraySlice<String>) throws {
        let words = Array(arguments)
        guard words.count == 4,
              let operation = Operation(rawValue: words[0]),
              let implementation = Implementation(rawValue: words[2]) else {
            throw BenchmarkError("usage: \(childFlag) decode|encode xml|binary ours|foundation PATH")
        }
        let input = try Data(contentsOf: URL(fileURLWithPath: words[3]))
        let probeCase = BenchmarkCase(
            id: "probe", title: "probe", format: words[1] == "binary" ? .binary : .xml, operation: operation,
            input: input, iterations: 1, measuresMemory: true, speedGoal: nil)
        let body = try probeCase.prepare(implementation)
        releaseFreedHeap()
        try resetHighWaterMark()
        let baseline = try statusField("VmRSS")
        try body()
        let peak = try statusField("VmHWM")
        print(baseline, peak)
    }

    /// glibc's `malloc_trim(0)`, so setup garbage is not counted as in use, nor reused by the
    /// operation as if it were free memory. Looked up at run time: Glibc's module map leaves out
    /// `malloc.h`.
    static func releaseFreedHeap() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }

    static func resetHighWaterMark() throws {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else {
            throw BenchmarkError("cannot open /proc/self/clear_refs to reset the peak-memory mark")
        }
        try handle.write(contentsOf: Data("5".utf8))
        try handle.close()
    }

    /// A `kB` field of `/proc/self/status`, in bytes.
    static func statusField(_ name: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
            if let number { return number * 1024 }
        }
        throw BenchmarkError("no \(name) in /proc/self/status")
    }
}
