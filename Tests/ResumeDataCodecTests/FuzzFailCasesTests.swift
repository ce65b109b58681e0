import Foundation
import Testing
@_spi(Fuzzing) import ResumeDataCodec

/// Replays every input kept in FuzzTesting/FailCases/ (crashes the fuzzers found, and hand-made
/// cases) through every decoder: each must give a value or a clean error, and a value must pass
/// the round-trip property its harness checks. The checks are the harnesses' own,
/// ``RoundTripCheck`` in the library.
@Suite struct FuzzFailCasesTests {
    /// FuzzTesting/FailCases, found from this file (it is not a resource of the test bundle).
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzTesting/FailCases")

    /// Every file under FailCases, as a path relative to it, e.g. `FuzzXMLPlist/deep-cdata`.
    static let cases: [String] = {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var names: [String] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            guard url.lastPathComponent != "README.md" else { continue }
            names.append(String(url.path.dropFirst(folder.path.count + 1)))
        }
        return names.sorted()
    }()

    @Test func thereAreCasesForEveryHarness() {
        for harness in ["FuzzXMLPlist", "FuzzBinaryPlist", "FuzzKeyedArchive", "FuzzRequestArchive", "FuzzResumeData"] {
            #expect(Self.cases.contains { $0.hasPrefix(harness + "/") }, "no case for \(harness) in \(Self.folder.path)")
        }
    }

    @Test(arguments: cases)
    func replay(name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        #expect(RoundTripCheck.xmlPropertyList(data) == nil, "\(name): FuzzXMLPlist")
        #expect(RoundTripCheck.binaryPropertyList(data) == nil, "\(name): FuzzBinaryPlist")
        #expect(RoundTripCheck.keyedArchive(data) == nil, "\(name): FuzzKeyedArchive")
        #expect(RoundTripCheck.requestArchive(data) == nil, "\(name): FuzzRequestArchive")
        #expect(RoundTripCheck.resumeData(data) == nil, "\(name): FuzzResumeData")
    }
}
