import Foundation
import Testing

/// Every input kept in FuzzTesting/FailCases (the crashes and hand-made cases of every harness)
/// through every renderer of the built binary: each must print or refuse, with exit 0 or 1,
/// never a signal; what claims to be JSON parses. This is FuzzRenderers' property, end to end.
@Suite struct FuzzRendererReplayTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzTesting/FailCases")

    static let cases: [String] = {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var names: [String] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            guard url.lastPathComponent != "README.md", !url.path.contains("/FuzzHTTPAnswers/") else { continue }
            names.append(String(url.path.dropFirst(folder.path.count + 1)))
        }
        return names.sorted()
    }()

    @Test func thereAreRendererCases() {
        #expect(Self.cases.contains { $0.hasPrefix("FuzzRenderers/") })
    }

    @Test(arguments: cases)
    func everyRendererPrintsOrRefuses(_ name: String) throws {
        let folder = try TemporaryDirectory()
        let input = Self.folder.appendingPathComponent(name).path
        let commands: [[String]] = [
            ["inspect", input], ["inspect", "--json", input], ["validate", input], ["plist", "print", input],
            ["plist", "convert", "--to", "json", input, "-o", "out.json"], ["plist", "convert", "--to", "xml", input, "-o", "out.xml"],
            ["plist", "convert", "--to", "binary", input, "-o", "out.bplist"],
        ]
        for command in commands {
            let result = try ToolRunner.run(command, in: folder.url)
            // 2 means "could not be read" in every command (ExitStatus).
            let allowed: Set<Int32> = [0, 1, 2]
            #expect(allowed.contains(result.status), "\(name): \(command) ended with \(result.status): \(result.stderr.prefix(300))")
            if command.count == 3, command[1] == "--json", result.status == 0 {
                #expect(throws: Never.self, "\(name): inspect --json") {
                    _ = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
                }
            }
        }
        // Every container: a blob we write must read back (a crash-… case here once broke that).
        for container in ["xml", "binary", "keyed-archive", "keyed-archive-xml", "nwurlsession", "nwurlsession-webkit"] {
            let converted = try ToolRunner.run(["convert", input, "--to", container, "-o", "c.\(container)"], in: folder.url)
            #expect([0, 1, 2].contains(converted.status), "\(name): convert --to \(container) ended with \(converted.status)")
            guard converted.status == 0 else { continue }
            let reread = try ToolRunner.run(["inspect", "c.\(container)"], in: folder.url)
            #expect(reread.status == 0, "\(name): our \(container) blob does not read: \(reread.stderr.prefix(300))")
        }
        if folder.exists("out.json") {
            #expect(throws: Never.self, "\(name): plist convert --to json") {
                _ = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("out.json"))), options: [.fragmentsAllowed])
            }
        }
    }
}
