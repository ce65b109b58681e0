import Foundation
import ResumeDataCodec

/// Whose code runs.
enum Implementation: String, CaseIterable, Sendable {
    /// `PropertyListReader` / `PropertyListWriter` from ResumeDataCodec.
    case ours
    /// Foundation's `PropertyListSerialization`.
    case foundation
}

/// What a case measures.
enum Operation: String, Sendable {
    case decode
    case encode
}

/// One measured workload: an operation on one input, repeated `iterations` times per run.
struct BenchmarkCase: Sendable {
    /// Short stable name, used on the command line (`--only`) and by the memory probe.
    var id: String
    /// What the table shows.
    var title: String
    var format: PropertyListFormat
    var operation: Operation
    /// The encoded property list: what decode cases read, and what encode cases re-create.
    var input: Data
    var iterations: Int
    /// Whether peak memory is measured (in a child process) for this case.
    var measuresMemory: Bool
    /// The speed-up over Foundation this case must reach, if it has a goal.
    var speedGoal: Double?

    /// Sets up `implementation` for this case and returns the timed body, which runs the
    /// operation `iterations` times. Setup (e.g. decoding the value an encoder writes) is not timed.
    func prepare(_ implementation: Implementation, iterations: Int? = nil) throws -> () throws -> Void {
        let count = iterations ?? self.iterations
        let input = self.input
        switch (implementation, operation) {
        case (.ours, .decode):
            let reader = PropertyListReader()
            return {
                for _ in 0..<count { blackHole(try reader.read(input).value) }
            }
        case (.foundation, .decode):
            return {
                for _ in 0..<count { blackHole(try PropertyListSerialization.propertyList(from: input, options: [], format: nil)) }
            }
        case (.ours, .encode):
            let value = try PropertyListReader().read(input).value
            let writer = PropertyListWriter()
            let format = self.format
            return {
                for _ in 0..<count { blackHole(try writer.write(value, as: format)) }
            }
        case (.foundation, .encode):
            let object = try PropertyListSerialization.propertyList(from: input, options: [], format: nil)
            let format: PropertyListSerialization.PropertyListFormat = self.format == .binary ? .binary : .xml
            return {
                for _ in 0..<count { blackHole(try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)) }
            }
        }
    }
}

/// Keeps a result alive so the optimiser cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
