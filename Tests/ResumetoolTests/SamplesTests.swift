import Foundation
import Testing
@testable import ResumeDataCodec

/// `Samples/` holds blobs made by this package's writer. This suite checks that every committed
/// sample is exactly what ``SampleGenerator`` makes today, so a change to a writer shows up here;
/// with `RESUMETOOL_WRITE_SAMPLES=1` it writes them instead, and fails for each one it wrote (a
/// rewrite is reviewed, never a passing run).
@Suite struct SamplesTests {
    @Test func samplesAreWhatOurWriterMakes() throws {
        let files = try SampleGenerator.all()
        let write = ProcessInfo.processInfo.environment["RESUMETOOL_WRITE_SAMPLES"] == "1"
        for (name, bytes) in files {
            let url = SampleGenerator.samples.appendingPathComponent(name)
            if write {
                try FileManager.default.createDirectory(at: SampleGenerator.samples, withIntermediateDirectories: true)
                let before = try? Data(contentsOf: url)
                try bytes.write(to: url)
                // A rewrite is deliberate and reviewed: the run that does it fails, file by file.
                Issue.record("Samples/\(name) \(before == bytes ? "rewritten unchanged" : "rewritten with new contents") (RESUMETOOL_WRITE_SAMPLES=1): review the diff, then run again without the variable")
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

    /// Bytes of each Network-framework sample changed in turn (a cheap stand-in for the
    /// fuzzer): a blob that still reads writes back, in its own container, to one that reads
    /// back equal, or is refused cleanly; and converted to a keyed archive it reads back too.
    @Test(arguments: EndToEnd.networkSamples)
    func everyOneByteChangeReadsBackOrFailsCleanly(_ sample: String) throws {
        let bytes = try EndToEnd.sample(sample)
        var (read, written, refused) = (0, 0, 0)
        // Every third byte: about ten seconds in a debug build (every byte took half a minute).
        for offset in stride(from: bytes.startIndex, to: bytes.endIndex, by: 3) {
            var mutated = bytes
            mutated[offset] ^= 0x01
            guard let resume = try? ResumeData(data: mutated) else { continue }
            read += 1
            // Its own container and the one `convert` is for (every container would take a minute).
            for container in [resume.container, .keyedArchive] {
                let encoded: Data
                do {
                    encoded = try resume.encoded(as: container)
                } catch let error as ResumeDataError {
                    // A clean refusal, said as such (a value the container cannot hold, a key
                    // that would make the blob read as something else); never another error.
                    #expect([.unencodable, .invalidRequest, .invalidResponse, .notADictionary].contains(error.code),
                            "\(sample) byte \(offset) → \(container): \(error)")
                    refused += 1
                    continue
                }
                written += 1
                let again = try #require(try? ResumeData(data: encoded), "\(sample) byte \(offset) → \(container) does not read back")
                if container == resume.container {
                    #expect(again == resume, "\(sample) byte \(offset): the round trip changed the blob")
                }
            }
        }
        // Most changes land in strings and numbers and still read: the property was exercised.
        #expect(read > bytes.count / 12)
        // The round trip was checked for most of them; refusals stay the exception.
        #expect(written > read, "\(sample): \(read) read, \(written) written, \(refused) refused")
        #expect(refused < read, "\(sample): \(read) read, \(written) written, \(refused) refused")
    }
}
