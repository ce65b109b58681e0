import Foundation
import Testing

/// No test passes without asserting: every `@Test` of every test target holds `#expect`,
/// `#require` or `Issue.record`, or calls a test helper that does (`every_test_asserts.py`).
@Suite struct EveryTestAssertsTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("every_test_asserts.py")

    static func lint(_ folder: URL) throws -> (status: Int32, text: String) {
        let output = try ToolRunner.capture(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, folder.path])
        return (output.status, String(decoding: output.stdout + output.stderr, as: UTF8.self))
    }

    @Test func everyTestAsserts() throws {
        let (status, text) = try Self.lint(EndToEnd.repository.appendingPathComponent("Tests"))
        #expect(status == 0, "\(text)")
        #expect(text.contains(", 0 assert nothing"), "\(text)")
    }

    /// The lint can fail: a test whose body only computes is named, one that calls an asserting
    /// helper is not.
    @Test func aTestThatAssertsNothingIsNamed() throws {
        let folder = try TemporaryDirectory()
        try Data("""
            import Testing
            @Suite struct S {
                @Test func computesOnly() {
                    let x = "#expect"  // a string or a comment is not an assertion: #expect(x)
                    _ = x
                }
                @Test func helped() { helper() }
            }
            func helper() { #expect(Bool(true)) }

            """.utf8).write(to: folder.url.appendingPathComponent("A.swift"))
        let (status, text) = try Self.lint(folder.url)
        #expect(status == 1, "\(text)")
        #expect(text.contains("A.swift:3: computesOnly asserts nothing"), "\(text)")
        #expect(!text.contains("helped"), "\(text)")
        #expect(text.contains("every-test-asserts: 2 tests, 1 assert nothing"), "\(text)")
    }
}
