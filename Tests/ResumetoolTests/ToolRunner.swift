import Foundation
import Testing

/// Runs the built `resumetool` binary and captures what it prints.
struct ToolRunner {
    struct Result: Equatable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary sits beside the test bundle in the build folder.
    static let executable: URL = {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("resumetool")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("resumetool")
    }()

    static func run(_ arguments: [String], stdin: Data? = nil, in directory: URL? = nil) throws -> Result {
        let output = try capture(executable, arguments, stdin: stdin, in: directory)
        return Result(status: output.status,
                      stdout: String(decoding: output.stdout, as: UTF8.self),
                      stderr: String(decoding: output.stderr, as: UTF8.self))
    }

    /// Runs any program and returns its exit status and the bytes it printed.
    static func capture(_ program: URL, _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil) throws
        -> (status: Int32, stdout: Data, stderr: Data) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Feed standard input and drain both outputs at once, so no pipe can fill and block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) {
            if let stdin { input.fileHandleForWriting.write(stdin) }
            try? input.fileHandleForWriting.close()
        }
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, outData, errData)
    }
}

@Suite struct ToolRunnerTests {
    @Test func helpExitsZero() throws {
        let result = try ToolRunner.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: resumetool"))
    }
}
