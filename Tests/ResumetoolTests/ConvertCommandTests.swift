import Foundation
import Testing
@testable import ResumeDataCodec

/// `resumetool convert`: every container pair, `-o`, rejected inputs, binary on a terminal.
@Suite struct ConvertCommandTests {
    static let containers = ["xml", "binary", "keyed-archive", "keyed-archive-xml"]

    @Test(arguments: EndToEnd.readableSamples.filter { !EndToEnd.networkSamples.contains($0) })
    func everyContainerAndBack(_ sample: String) throws {
        let folder = try TemporaryDirectory()
        let originalBytes = try EndToEnd.sample(sample)
        let original = try ResumeData(data: originalBytes)
        for container in Self.containers {
            let output = folder.path("\(container).out")
            let result = try EndToEnd.run(["convert", sample, "--to", container, "-o", output])
            #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""), "\(sample) → \(container)")
            let converted = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(converted.container.rawValue == container)
            #expect(converted.entries == original.entries, "\(sample) → \(container) changed the entries")

            // Back to the sample's own container: the very bytes our writer made, unless a plain
            // binary dictionary (which keeps its key order) went through XML, which sorts keys as
            // Apple's writer does. Keyed archives always get Apple's insertion order back.
            let back = folder.path("back-from-\(container)")
            let returned = try EndToEnd.run(["convert", output, "--to", original.container.rawValue, "-o", back])
            #expect(returned == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
            let backBytes = try Data(contentsOf: URL(fileURLWithPath: back))
            if container == "xml", original.container == .binary {
                let reread = try ResumeData(data: backBytes)
                #expect(reread.entries == original.entries)
                #expect(reread.entries.keys == original.entries.keys.sorted())
            } else {
                #expect(backBytes == originalBytes, "\(sample) → \(container) → back differs")
            }
        }
        // Nothing but the outputs: no temp file of an atomic write is left behind.
        #expect(try folder.contents() == Self.containers.flatMap { ["\($0).out", "back-from-\($0)"] }.sorted())
    }

    /// A Network-framework blob in each classic container: the same model plus the response's
    /// validators under their keys and info version 4; and back to the Network-framework format.
    @Test(arguments: EndToEnd.networkSamples)
    func networkFrameworkToEveryClassicContainerAndBack(_ sample: String) throws {
        let folder = try TemporaryDirectory()
        let original = try ResumeData(data: try EndToEnd.sample(sample))
        var wanted = original.entries
        wanted[ResumeDataKey.entityTag] = .string(SampleGenerator.realEntityTag)
        wanted[ResumeDataKey.serverDownloadDate] = .string(SampleGenerator.realLastModified)
        wanted[ResumeDataKey.infoVersion] = 4
        for container in Self.containers {
            let output = folder.path("\(container).out")
            let result = try EndToEnd.run(["convert", sample, "--to", container, "-o", output])
            #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""), "\(sample) → \(container)")
            let converted = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(converted.container.rawValue == container)
            #expect(converted.entries == wanted, "\(sample) → \(container)")
            #expect(converted.currentRequest?.urlString == SampleGenerator.realURL)
            #expect(converted.response?.statusCode == 200)
            #expect(ResumeDataValidator().findings(for: converted).map(\.code) == [.missingBytesReceived])

            let back = folder.path("back-from-\(container)")
            let returned = try EndToEnd.run(["convert", output, "--to", original.container.rawValue, "-o", back])
            #expect(returned == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
            let reread = try ResumeData(data: try Data(contentsOf: URL(fileURLWithPath: back)))
            #expect(reread.container == original.container)
            // A classic container does not keep the layout: it comes back flat (iOS 26).
            #expect(reread.networkLayout == .flat)
            #expect(reread.entries == original.entries)
        }
    }

    @Test func aValidatorTheNetworkFormatCannotHoldIsRefused() throws {
        let result = try EndToEnd.run(["convert", "ios12-keyed-archive.resumedata", "--to", "nwurlsession"])
        #expect(result == ToolRunner.Result(status: 1, stdout: "", stderr: "<stdout>: error: cannot write as nwurlsession: NSURLSessionResumeEntityTag: the Network-framework format keeps the validator only in the response's ETag header, and this blob's response is missing\n"))
    }

    @Test func toStandardOutputAndFromStandardInput() throws {
        let bytes = try EndToEnd.sample("ios9-xml.plist")
        let xml = try EndToEnd.run(["convert", "-", "--to", "xml"], stdin: bytes)
        #expect(xml == ToolRunner.Result(status: 0, stdout: String(decoding: bytes, as: UTF8.self), stderr: ""))
        let dash = try EndToEnd.run(["convert", "ios9-xml.plist", "--to", "xml", "-o", "-"])
        #expect(dash == xml)
        // Binary to a pipe is fine.
        let binary = try EndToEnd.runForBytes(["convert", "ios9-xml.plist", "--to", "keyed-archive"])
        let viaFile = try TemporaryDirectory()
        #expect(try EndToEnd.run(["convert", "ios9-xml.plist", "--to", "keyed-archive", "-o", viaFile.path("out")]).status == 0)
        #expect(binary == (try Data(contentsOf: viaFile.url.appendingPathComponent("out"))))
    }

    @Test func outputReplacesAnExistingFile() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("blob")
        try Data("old contents".utf8).write(to: URL(fileURLWithPath: output))
        let result = try EndToEnd.run(["convert", "ios12-keyed-archive.resumedata", "--to", "xml", "-o", output])
        #expect(result == ToolRunner.Result(status: 0, stdout: "", stderr: ""))
        let written = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(try ResumeData(data: written).container == .xml)
        #expect(try folder.contents() == ["blob"])
    }

    @Test(arguments: EndToEnd.unreadableSamples.map(\.name))
    func rejectedInputWritesNothing(_ sample: String) throws {
        let diagnostic = try #require(EndToEnd.unreadableSamples.first { $0.name == sample }?.diagnostic)
        let folder = try TemporaryDirectory()
        let fresh = folder.path("fresh")
        let result = try EndToEnd.run(["convert", sample, "--to", "keyed-archive", "-o", fresh])
        #expect(result == ToolRunner.Result(status: 2, stdout: "", stderr: diagnostic + "\n"))
        #expect(try folder.contents() == [])

        let existing = folder.path("existing")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        let again = try EndToEnd.run(["convert", sample, "--to", "xml", "-o", existing])
        #expect(again.status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("keep me".utf8))
        #expect(try folder.contents() == ["existing"])
    }

    @Test func unwritableOutput() throws {
        let folder = try TemporaryDirectory()
        let output = folder.path("no-such-folder/out.plist")
        let result = try EndToEnd.run(["convert", "ios9-xml.plist", "--to", "xml", "-o", output])
        #expect(result == ToolRunner.Result(status: 1, stdout: "", stderr: "\(output): error: cannot write: open: No such file or directory\n"))
        #expect(try folder.contents() == [])
    }

    @Test func usageErrors() throws {
        let badContainer = try EndToEnd.run(["convert", "ios9-xml.plist", "--to", "json"])
        #expect(badContainer.status == 64)
        #expect(badContainer.stdout == "")
        #expect(badContainer.stderr.hasPrefix("Error: The value 'json' is invalid for '--to <to>'"))
        let noTarget = try EndToEnd.run(["convert", "ios9-xml.plist"])
        #expect(noTarget.status == 64)
        #expect(noTarget.stderr.hasPrefix("Error: Missing expected argument '--to <to>'"))
    }

    /// Binary bytes are refused on a terminal; `script` gives the tool one.
    @Test func binaryIsRefusedOnATerminal() throws {
        let script = try #require(["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "util-linux's script is needed to give the tool a terminal")
        func onTerminal(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: script)
            let command = ([ToolRunner.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-qec", command, "/dev/null"]
            process.currentDirectoryURL = EndToEnd.samples
            let out = Pipe()
            process.standardOutput = out
            process.standardError = out
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
        }
        let refusal = "<stdout>: error: refusing to write binary output to a terminal; use -o FILE or a pipe\n"
        for container in ["binary", "keyed-archive"] {
            let result = try onTerminal(["convert", "ios9-xml.plist", "--to", container])
            #expect(result.status == 1)
            #expect(result.output == refusal)
        }
        // XML is text: it goes to the terminal.
        let xml = try onTerminal(["convert", "ios12-keyed-archive.resumedata", "--to", "keyed-archive-xml"])
        #expect(xml.status == 0)
        #expect(xml.output == String(decoding: try EndToEnd.sample("webkit-keyed-archive.plist"), as: UTF8.self))
        // The other writers refuse the same way.
        let rebuild = try onTerminal(["rebuild", "--from", EndToEnd.partialName, "--url", EndToEnd.url, "--etag", "\"e\""])
        #expect(rebuild.status == 1)
        #expect(rebuild.output == refusal)
        let plist = try onTerminal(["plist", "convert", "--to", "binary", "ios9-xml.plist"])
        #expect(plist.status == 1)
        #expect(plist.output == refusal)
        let repair = try onTerminal(["repair", "ios12-keyed-archive.resumedata"])
        #expect(repair.status == 1)
        #expect(repair.output == refusal)
    }

    @Test func keyedArchiveOutputAlwaysHasApplesTopKey() throws {
        let folder = try TemporaryDirectory()
        let resume = try ResumeData(data: try EndToEnd.sample("ios12-keyed-archive.resumedata"))
        let archive = try KeyedArchive.encodeDictionary(resume.entries, topKey: "root")
        let input = folder.path("root-key.resumedata")
        try PropertyListWriter().write(archive, as: .binary).write(to: URL(fileURLWithPath: input))
        #expect(try KeyedArchive(data: Data(contentsOf: URL(fileURLWithPath: input))).topKey == "root")
        for container in ["keyed-archive", "keyed-archive-xml"] {
            let output = folder.path("out-\(container)")
            #expect(try EndToEnd.run(["convert", input, "--to", container, "-o", output]).status == 0)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
            let (top, _) = try PropertyListReader().read(bytes)
            #expect(top.dictionaryValue?["$top"]?.dictionaryValue?.keys == ["NSKeyedArchiveRootObjectKey"], "\(container)")
            let repaired = folder.path("repaired-\(container)")
            #expect(try EndToEnd.run(["repair", input, "--target", "modern", "-o", repaired]).status == 0)
            #expect(try KeyedArchive(data: Data(contentsOf: URL(fileURLWithPath: repaired))).topKey == "NSKeyedArchiveRootObjectKey")
        }
    }
}
