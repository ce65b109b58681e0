import Foundation
import Testing
@_spi(Fuzzing) @testable import ResumeDataCodec

/// Two other projects' property-list test suites, beside libplist's (LibplistConformanceTests):
/// CPython's `Lib/test/test_plistlib.py` and swift-foundation's `PropertyListEncoderTests.swift`,
/// extracted into Fixtures/PeerSuites/ (its README says how, from which version, and under which
/// licence). Every vector that upstream reads reads to the value it asserts; every vector it
/// refuses is refused with a `PropertyListError`, never a trap or a hang. Where resumetool
/// follows Apple rather than the upstream test (the vector's `note` says why), the fixture holds
/// our expectation and `upstream` what the test asserts.
@Suite struct PeerSuiteConformanceTests {
    struct Vector {
        var test: String
        var name: String
        var input: Data
        /// The value the input reads to, or nil when it must be refused.
        var expected: PropertyListValue?
        var upstream: String
        var note: String?

        var label: String { "\(test): \(name)" }
    }

    struct Suite {
        var source: [String: String]
        var vectors: [Vector]
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }

    static func load(_ file: String) throws -> Suite {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/PeerSuites/\(file)", withExtension: nil))
        guard let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
              let source = root["source"] as? [String: String], let vectors = root["vectors"] as? [[String: Any]] else {
            throw FixtureError(description: "\(file): not a suite")
        }
        return Suite(source: source, vectors: try vectors.map { entry in
            guard let test = entry["test"] as? String, let name = entry["name"] as? String,
                  let encoded = entry["input"] as? String, let input = Data(base64Encoded: encoded),
                  let upstream = entry["upstream"] as? String else {
                throw FixtureError(description: "\(file): a vector without test, name, input or upstream: \(entry)")
            }
            var expected: PropertyListValue?
            switch entry["expect"] {
            case let text as String where text == "refused": expected = nil
            case let value as [String: Any]:
                guard let tagged = value["value"] else { throw FixtureError(description: "\(file): \(test): no value") }
                expected = try BinaryPythonCrossCheckTests.untagged(tagged)
            default: throw FixtureError(description: "\(file): \(test): \(name): expect is neither a value nor \"refused\"")
            }
            return Vector(test: test, name: name, input: input, expected: expected, upstream: upstream, note: entry["note"] as? String)
        })
    }

    /// Every dictionary's keys in reading order, depth first: to check key order where a test asserts it.
    static func keyOrders(_ value: PropertyListValue) -> [[String]] {
        switch value {
        case .dictionary(let dictionary): [Array(dictionary.keys)] + dictionary.values.flatMap(keyOrders)
        case .array(let items), .set(let items): items.flatMap(keyOrders)
        default: []
        }
    }

    /// Equality as the value model has it, but dates by their exact bits: `Date.==` calls a NaN
    /// date (which a binary plist can hold) unequal to itself.
    static func same(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case (.date(let x), .date(let y)):
            x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        case (.array(let x), .array(let y)), (.set(let x), .set(let y)):
            x.count == y.count && zip(x, y).allSatisfy(same)
        case (.dictionary(let x), .dictionary(let y)):
            x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        default:
            a == b
        }
    }

    /// A value for a failure message: the tagged form, since `Date.description` traps on the
    /// dates only a binary plist can hold (NaN, ±infinity).
    static func shown(_ value: PropertyListValue?) -> String {
        value.map(BinaryPythonCrossCheckTests.tagged) ?? "a refusal"
    }

    static func check(_ vector: Vector) {
        let document: PropertyListReader.Document
        do {
            document = try PropertyListReader().readDocument(vector.input)
        } catch let error as PropertyListError {
            #expect(vector.expected == nil, "\(vector.label): refused (\(error)), expected \(shown(vector.expected))")
            #expect(!error.reason.isEmpty, "\(vector.label): an error without a reason")
            return
        } catch {
            Issue.record("\(vector.label): threw \(type(of: error)), not a PropertyListError: \(error)")
            return
        }
        guard let expected = vector.expected else {
            Issue.record("\(vector.label): read \(shown(document.value)), expected a refusal")
            return
        }
        #expect(same(document.value, expected), "\(vector.label): read \(shown(document.value)), expected \(shown(expected))")
        #expect(document.warnings.isEmpty, "\(vector.label): \(document.warnings)")
        if vector.test == "test_keysort" {
            #expect(keyOrders(document.value) == keyOrders(expected), "\(vector.label): key order")
        }
    }

    /// The fuzzers' property (FuzzTesting/): whatever reads also round-trips through our writers.
    static func roundTrips(_ vector: Vector) {
        #expect(RoundTripCheck.xmlPropertyList(vector.input) == nil, "\(vector.label): XML round trip")
        #expect(RoundTripCheck.binaryPropertyList(vector.input) == nil, "\(vector.label): binary round trip")
    }

    @Test func cpythonTestPlistlib() throws {
        let suite = try Self.load("cpython-test_plistlib.json")
        #expect(suite.source["repository"] == "https://github.com/python/cpython")
        #expect(suite.source["version"] == "v3.13.0")
        #expect(suite.vectors.count == 528)
        #expect(suite.vectors.filter { $0.expected == nil }.count == 192)
        for vector in suite.vectors {
            Self.check(vector)
            Self.roundTrips(vector)
        }
    }

    @Test func swiftFoundationPropertyListEncoderTests() throws {
        let suite = try Self.load("swift-foundation-PropertyListEncoderTests.json")
        #expect(suite.source["repository"] == "https://github.com/swiftlang/swift-foundation")
        #expect(suite.source["commit"] == "767ff1c2e3a55385f44ccf28a83f21f3571cf3ea")
        #expect(suite.vectors.count == 121)
        #expect(suite.vectors.filter { $0.expected == nil }.count == 63)
        for vector in suite.vectors {
            Self.check(vector)
            Self.roundTrips(vector)
        }
    }

    /// Each place where the fixture expects other than the upstream test asserts says why.
    @Test func everyDepartureFromUpstreamIsExplained() throws {
        for file in ["cpython-test_plistlib.json", "swift-foundation-PropertyListEncoderTests.json"] {
            for vector in try Self.load(file).vectors {
                let agrees = vector.expected == nil ? vector.upstream == "refuses" : vector.upstream == "reads"
                if !agrees { #expect(vector.note?.isEmpty == false, "\(file): \(vector.label) departs from upstream without a note") }
            }
        }
    }
}
