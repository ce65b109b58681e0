import Foundation
import ResumeDataCodec

/// Compares ResumeDataCodec's property-list reader and writer with Foundation's
/// `PropertyListSerialization`, in one process, on the same bytes.
///
/// Usage: `PlistBenchmark [--runs N] [--iterations N] [--size-mb N] [--only ID]... [--no-memory] [--quick]`,
/// or `PlistBenchmark --generate-blobs DIR [--count N]` for the inputs of `compare.sh`'s inspect case.
@main
struct PlistBenchmark {
    struct Settings {
        var runs = 5
        var iterations = 100_000
        var sizeMegabytes = 20.0
        var only: [String] = []
        var measureMemory = true
    }

    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        do {
            if arguments.first == MemoryProbe.childFlag {
                try MemoryProbe.runChild(arguments.dropFirst())
                return
            }
            if arguments.first == BlobGenerator.flag {
                try BlobGenerator.run(arguments.dropFirst())
                return
            }
            try run(parse(arguments))
        } catch {
            FileHandle.standardError.write(Data("PlistBenchmark: error: \(error)\n".utf8))
            exit(1)
        }
    }

    // A handful of flags do not warrant a dependency on an argument parser.
    static func parse(_ arguments: ArraySlice<String>) throws -> Settings {
        var settings = Settings()
        var rest = arguments
        func number(after flag: String) throws -> Double {
            guard let word = rest.popFirst(), let value = Double(word), value > 0 else {
                throw BenchmarkError("\(flag) needs a positive number")
            }
            return value
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--runs": settings.runs = Int(try number(after: flag))
            case "--iterations": settings.iterations = Int(try number(after: flag))
            case "--size-mb": settings.sizeMegabytes = try number(after: flag)
            case "--only":
                guard let id = rest.popFirst() else { throw BenchmarkError("--only needs a case id") }
                settings.only.append(id)
            case "--no-memory": settings.measureMemory = false
            case "--quick":
                settings.runs = 1
                settings.iterations = 1_000
                settings.sizeMegabytes = 1
            case "-h", "--help":
                print("usage: PlistBenchmark [--runs N] [--iterations N] [--size-mb N] [--only ID]... [--no-memory] [--quick]")
                exit(0)
            default:
                throw BenchmarkError("unknown argument \(flag)")
            }
        }
        return settings
    }

    static func makeCases(_ settings: Settings) throws -> [BenchmarkCase] {
        let writer = PropertyListWriter()
        let resume = try BenchmarkInputs.resumeDictionary()
        let target = Int(settings.sizeMegabytes * 1_000_000)
        var cases: [BenchmarkCase] = []
        for (format, name, goal) in [(PropertyListFormat.binary, "binary", 2.0), (.xml, "xml", 1.5)] {
            let resumeBytes = try writer.write(resume, as: format)
            cases.append(BenchmarkCase(
                id: "resume-\(name)-decode", title: "(a) resume \(kilobytes(resumeBytes.count)), decode ×\(settings.iterations)",
                format: format, operation: .decode, input: resumeBytes, iterations: settings.iterations,
                measuresMemory: false, speedGoal: goal))
        }
        for (format, name, goal) in [(PropertyListFormat.binary, "binary", 2.0), (.xml, "xml", 1.5)] {
            let wanted = settings.only.isEmpty || settings.only.contains { only in
                ["decode", "encode"].contains { "large-\(name)-\($0)".hasPrefix(only) }
            }
            guard wanted else { continue }
            let (value, bytes) = try BenchmarkInputs.records(about: target, as: format)
            // The input must read back to what was generated, or the timings mean nothing.
            guard try PropertyListReader().read(bytes).value == value else {
                throw BenchmarkError("the \(name) records do not read back to the generated value")
            }
            for operation in [Operation.decode, .encode] {
                cases.append(BenchmarkCase(
                    id: "large-\(name)-\(operation.rawValue)", title: "(b) records \(megabytes(bytes.count)), \(operation.rawValue)",
                    format: format, operation: operation, input: bytes, iterations: 1,
                    measuresMemory: settings.measureMemory, speedGoal: operation == .decode ? goal : nil))
            }
        }
        return cases.filter { benchmarkCase in settings.only.isEmpty || settings.only.contains { benchmarkCase.id.hasPrefix($0) } }
    }

    static func run(_ settings: Settings) throws {
        let cases = try makeCases(settings)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plist-benchmark-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var results: [CaseResult] = []
        for benchmarkCase in cases {
            log("\(benchmarkCase.id): \(benchmarkCase.input.count) bytes, \(settings.runs) runs")
            var result = CaseResult(benchmarkCase: benchmarkCase)
            var bodies: [Implementation: () throws -> Void] = [:]
            for implementation in Implementation.allCases {
                // One short untimed pass first: page faults and lazy initialisation land there.
                try benchmarkCase.prepare(implementation, iterations: max(1, benchmarkCase.iterations / 100))()
                bodies[implementation] = try benchmarkCase.prepare(implementation)
            }
            for run in 0..<settings.runs {
                // Alternate who goes first, so drift in machine load hits both alike.
                let order: [Implementation] = run % 2 == 0 ? [.ours, .foundation] : [.foundation, .ours]
                for implementation in order {
                    guard let body = bodies[implementation] else { continue }
                    let start = ContinuousClock.now
                    try body()
                    let seconds = (ContinuousClock.now - start).seconds
                    result.times[implementation, default: []].append(seconds / Double(benchmarkCase.iterations))
                    log("  run \(run + 1) \(implementation.rawValue): \(formatDuration(seconds / Double(benchmarkCase.iterations)))/op")
                }
            }
            bodies = [:]
            if benchmarkCase.measuresMemory {
                let path = directory.appendingPathComponent("\(benchmarkCase.id).plist").path
                try benchmarkCase.input.write(to: URL(fileURLWithPath: path))
                for implementation in Implementation.allCases {
                    let measurement = try MemoryProbe.measure(benchmarkCase, implementation, inputPath: path)
                    result.memory[implementation] = measurement
                    log("  memory \(implementation.rawValue): +\(megabytes(measurement.extra)) over \(megabytes(measurement.baseline))")
                }
            }
            results.append(result)
        }
        print(ResultTable.render(results, settings: settings))
    }

    static func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// What one case measured.
struct CaseResult {
    var benchmarkCase: BenchmarkCase
    /// Seconds per operation, one entry per run.
    var times: [Implementation: [Double]] = [:]
    var memory: [Implementation: MemoryProbe.Measurement] = [:]

    func median(_ implementation: Implementation) -> Double? {
        guard let values = times[implementation], !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Foundation's median time over ours: above 1 means we are faster.
    var speedUp: Double? {
        guard let ours = median(.ours), let foundation = median(.foundation), ours > 0 else { return nil }
        return foundation / ours
    }
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
