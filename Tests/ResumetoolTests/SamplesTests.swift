import Foundation
import Testing
@testable import ResumeDataCodec

/// `Samples/` holds blobs made by this package's writer. This suite checks that every committed
/// sample is exactly what ``SampleGenerator`` makes today, so a change to a writer shows up here;
/// with `RESUMETOOL_WRITE_SAMPLES=1` it writes them instead.
@Suite struct SamplesTests {
    @Test func samplesAreWhatOurWriterMakes() throws {
        let files = try SampleGenerator.all()
        let write = ProcessInfo.processInfo.environment["RESUMETOOL_WRITE_SAMPLES"] == "1"
        for (name, bytes) in files {
            let url = SampleGenerator.samples.appendingPathComponent(name)
            if write {
                try FileManager.default.createDirectory(at: SampleGenerator.samples, withIntermediateDirectories: true)
                try bytes.write(to: url)
            }
            let committed = try Data(contentsOf: url)
            #expect(committed == bytes, "Samples/\(name) differs from what the writer makes; rerun with RESUMETOOL_WRITE_SAMPLES=1 and review")
        }
        let listed = try String(contentsOf: SampleGenerator.samples.appendingPathComponent("README.md"), encoding: .utf8)
        for (name, _) in files {
            #expect(listed.contains("`\(name)`"), "Samples/README.md does not describe \(name)")
        }
    }

    /// Every prefix of each Network-framework sample is a clean error, never a crash or a blob.
    @Test(arguments: EndToEnd.networkSamples)
    func everyPrefixOfANetworkSampleIsACleanError(_ sample: String) throws {
        let bytes = try EndToEnd.sample(sample)
        #expect(try ResumeData(data: bytes).container.isNetworkFramework)
        for length in 0..<bytes.count {
            #expect(throws: ResumeDataError.self) { try ResumeData(data: bytes.prefix(length)) }
        }
    }
}
