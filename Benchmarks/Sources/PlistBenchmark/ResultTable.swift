import Foundation

/// The results as Markdown tables, ready to paste into a README.
enum ResultTable {
    static let memoryGoal = 3.0

    static func render(_ results: [CaseResult], settings: PlistBenchmark.Settings) -> String {
        var lines: [String] = []
        lines.append("Speed: median time per operation over \(settings.runs) runs, ours and Foundation alternating.")
        lines.append("")
        lines.append("| case | format | ours | Foundation | speed-up | goal |")
        lines.append("| --- | --- | ---: | ---: | ---: | --- |")
        for result in results {
            let benchmarkCase = result.benchmarkCase
            let goal: String
            if let wanted = benchmarkCase.speedGoal, let speedUp = result.speedUp {
                goal = "≥ \(String(format: "%.1f", wanted))× " + (speedUp >= wanted ? "met" : "**missed**")
            } else {
                goal = "–"
            }
            lines.append("| \(benchmarkCase.title) | \(formatName(benchmarkCase)) | \(result.median(.ours).map(formatDuration) ?? "–") | \(result.median(.foundation).map(formatDuration) ?? "–") | \(result.speedUp.map { String(format: "%.2f×", $0) } ?? "–") | \(goal) |")
        }
        let measured = results.filter { !$0.memory.isEmpty }
        if !measured.isEmpty {
            lines.append("")
            lines.append("Peak memory of one operation (in a child process: peak resident set during the operation minus the")
            lines.append("resident set just before it, which already holds the input), as a multiple of the plist's size.")
            lines.append("")
            lines.append("| case | format | plist | ours | Foundation | goal (ours) |")
            lines.append("| --- | --- | ---: | ---: | ---: | --- |")
            for result in measured {
                let size = Double(result.benchmarkCase.input.count)
                func cell(_ implementation: Implementation) -> String {
                    guard let measurement = result.memory[implementation] else { return "–" }
                    return "\(megabytes(measurement.extra)) (\(String(format: "%.2f", Double(measurement.extra) / size))×)"
                }
                let goal = result.memory[.ours].map { Double($0.extra) / size <= memoryGoal ? "≤ 3× met" : "≤ 3× **missed**" } ?? "–"
                lines.append("| \(result.benchmarkCase.title) | \(formatName(result.benchmarkCase)) | \(megabytes(result.benchmarkCase.input.count)) | \(cell(.ours)) | \(cell(.foundation)) | \(goal) |")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func formatName(_ benchmarkCase: BenchmarkCase) -> String {
        benchmarkCase.format == .binary ? "binary" : "XML"
    }
}

func formatDuration(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-3: String(format: "%.1f µs", seconds * 1e6)
    case ..<1: String(format: "%.1f ms", seconds * 1e3)
    default: String(format: "%.2f s", seconds)
    }
}

func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_000_000)
}

func kilobytes(_ bytes: Int) -> String {
    String(format: "%.1f KB", Double(bytes) / 1_000)
}
