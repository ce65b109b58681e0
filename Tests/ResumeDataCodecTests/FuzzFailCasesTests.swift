import Foundation
import Testing
@testable import ResumeDataCodec

/// Replays every input kept in FuzzTesting/FailCases/ (crashes the fuzzers found, and hand-made
/// cases) through every decoder: each must give a value or a clean error, and a value must pass
/// the round-trip property its harness checks. The checks repeat FuzzTesting/Sources/FuzzCommon
/// and the harnesses' main.swift, because the main package cannot depend on the fuzz package.
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
        checkPropertyList(data, name: name)
        checkKeyedArchive(data, name: name)
        checkRequestArchive(data, name: name)
        checkResumeData(data, name: name)
    }

    // MARK: The harness properties

    /// FuzzXMLPlist and FuzzBinaryPlist: XML reaches a fixed point after one XML trip; binary
    /// trips exactly (or, for a NaN date, to identical bytes).
    func checkPropertyList(_ data: Data, name: String) {
        guard let (value, format) = try? PropertyListReader().read(data) else { return }
        let writer = PropertyListWriter()
        let reader = PropertyListReader()
        if format == .xml, let first = try? writer.write(value, as: .xml) {
            #expect(throws: Never.self, "\(name): XML trip") {
                let once = try reader.read(first).value
                let twice = try reader.read(writer.write(once, as: .xml)).value
                #expect(once == twice, "\(name): XML trips 2 and 3 differ")
            }
        }
        #expect(throws: Never.self, "\(name): binary trip") {
            let bytes = try writer.write(value, as: .binary)
            let again = try reader.read(bytes).value
            if again != value {
                #expect(try writer.write(again, as: .binary) == bytes, "\(name): binary trip changed \(value) into \(again)")
            }
        }
    }

    /// FuzzKeyedArchive: the decoded root, archived in the same format, decodes to the same tree.
    func checkKeyedArchive(_ data: Data, name: String) {
        guard let archive = try? KeyedArchive(data: data), let root = try? archive.decodeRoot() else { return }
        let format = PropertyListReader.format(of: data)
        func encode(_ value: ArchivedValue) -> Data? {
            try? KeyedArchive(encoding: value, topKey: archive.topKey).data(format: format)
        }
        guard let first = encode(root) else { return }
        #expect(throws: Never.self, "\(name): keyed-archive trip") {
            let once = try KeyedArchive(data: first).decodeRoot()
            var (before, after) = (root, once)
            if format == .xml {
                let second = try #require(encode(once))
                (before, after) = (once, try KeyedArchive(data: second).decodeRoot())
            }
            if before != after {
                #expect(encode(before) == encode(after), "\(name): keyed-archive trip changed \(before) into \(after)")
            }
        }
    }

    /// FuzzRequestArchive: a decoded request, archived again, decodes equal.
    func checkRequestArchive(_ data: Data, name: String) {
        guard let request = try? URLRequestArchive(archiveData: data) else { return }
        _ = (request.urlString, request.headers, request.body, request.timeoutInterval, request.unconfirmedItems)
        guard let encoded = try? request.archiveData() else { return }
        #expect(throws: Never.self, "\(name): request trip") {
            let again = try URLRequestArchive(archiveData: encoded)
            if again != request {
                #expect(try again.archiveData() == encoded, "\(name): request trip changed \(request) into \(again)")
            }
        }
    }

    /// FuzzResumeData: a blob written in its own container reads back equal (after one extra
    /// trip for the XML containers).
    func checkResumeData(_ data: Data, name: String) {
        guard let blob = try? ResumeData(data: data) else { return }
        _ = (blob.downloadURL, blob.bytesReceived, blob.currentRequest, blob.originalRequest)
        guard let first = try? blob.encoded() else { return }
        #expect(throws: Never.self, "\(name): resume-data trip") {
            let once = try ResumeData(data: first)
            var (before, after) = (blob, once)
            if blob.container.propertyListFormat == .xml {
                (before, after) = (once, try ResumeData(data: once.encoded()))
            }
            if before != after {
                #expect(try before.encoded() == after.encoded(), "\(name): \(blob.container) trip changed \(before) into \(after)")
            }
        }
    }
}
