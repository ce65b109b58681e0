import Foundation
@testable import ResumeSystemCalls
import Testing

@testable import ResumeTransfer
@testable import ResumeSupport

/// The shape of the temporary files ``AtomicFile`` writes, name by name.
@Suite struct TemporaryFileNameTests {
    @Test func theNameSpellsTargetPIDAndRandom() {
        #expect(TemporaryFileName(target: "out.bin.resume", pid: 4242, random: 7).text == ".out.bin.resume.tmp-4242-7")
        #expect(TemporaryFileName(parsing: ".out.bin.resume.tmp-4242-7") == TemporaryFileName(target: "out.bin.resume", pid: 4242, random: 7))
        #expect(TemporaryFileName(parsing: ".a.tmp-1-0") == TemporaryFileName(target: "a", pid: 1, random: 0))
        #expect(TemporaryFileName(parsing: ".x.tmp-9.tmp-12-4294967295") == TemporaryFileName(target: "x.tmp-9", pid: 12, random: 4_294_967_295))
        #expect(TemporaryFileName(parsing: "..hidden.tmp-3-4") == TemporaryFileName(target: ".hidden", pid: 3, random: 4))
    }

    @Test(arguments: [
        "out.bin.tmp-12-34",            // no leading dot
        ".tmp-12-34",                   // no target
        "..tmp-12-34",                  // an empty target
        ".out.tmp-012-34",              // leading zero in the PID
        ".out.tmp-12-034",              // leading zero in the random part
        ".out.tmp-0-34",                // PID 0
        ".out.tmp-2147483648-1",        // PID past Int32
        ".out.tmp-12-4294967296",       // random past UInt32
        ".out.tmp-12-",                 // no random part
        ".out.tmp--34",                 // no PID
        ".out.tmp-1a-34",               // not decimal
        ".out.tmp-+1-34",
        ".out.temp-12-34",              // another marker
        ".out.tmp-12-34.swp",
        ".out.tmp-12-34-56",
        ".out/x.tmp-12-34",             // a slash
        "",
    ])
    func otherNamesAreNotOurs(name: String) {
        #expect(TemporaryFileName(parsing: name) == nil)
    }
}

/// ``AtomicFile/removeStaleTemporaries(in:for:calls:)`` on a real folder: only the leftovers of
/// ended processes of this tool's shape go, nothing else.
@Suite struct StaleTemporaryFileTests {
    @Test func onlyRegularFilesOfEndedProcessesForTheTargetGo() async throws {
        try await withTemporaryDirectory { folder in
            let dead = try endedProcessID()
            let mine = getpid()
            let names = [
                TemporaryFileName(target: "out.bin.resume", pid: dead, random: 1).text,   // stale: removed
                TemporaryFileName(target: "out.bin.resume", pid: mine, random: 2).text,   // a running writer: kept
                TemporaryFileName(target: "other.bin.resume", pid: dead, random: 3).text, // another name: kept
                ".out.bin.resume.tmp-\(dead)-04",                                          // not our shape: kept
                "out.bin.resume",
            ]
            for name in names { try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
            let link = TemporaryFileName(target: "out.bin.resume", pid: dead, random: 5).text
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + link, withDestinationPath: folder + "/out.bin.resume")
            let directory = TemporaryFileName(target: "out.bin.resume", pid: dead, random: 6).text
            try FileManager.default.createDirectory(atPath: folder + "/" + directory, withIntermediateDirectories: false)

            let removed = AtomicFile.removeStaleTemporaries(in: folder, for: "out.bin.resume")
            #expect(removed == [names[0]])
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
            #expect(left == Set(names.dropFirst() + [link, directory]))
            #expect(contents(folder + "/out.bin.resume") == Data("x".utf8))

            // Without a target, every name's leftovers go: `recover DIR`.
            #expect(AtomicFile.removeStaleTemporaries(in: folder) == [names[2]])
        }
    }

    @Test func aFolderThatCannotBeListedRemovesNothing() {
        #expect(AtomicFile.removeStaleTemporaries(in: "/nonexistent-\(UUID().uuidString)").isEmpty)
    }

    @Test func theProcessCheckIsKill0() throws {
        #expect(FileSystemCalls.system.processExists(getpid()))
        #expect(FileSystemCalls.system.processExists(1))
        #expect(!FileSystemCalls.system.processExists(try endedProcessID()))
    }

    /// A download run again after a kill between a checkpoint's write and its rename removes the
    /// new checkpoint the kill left, and only it.
    @Test func theNextRunOfADownloadRemovesItsOwnLeftovers() async throws {
        try await withServer(oneMiB, configuration: fastConfiguration()) { server, downloader, directory in
            let destination = directory + "/file.bin"
            let dead = try endedProcessID()
            let leftover = directory + "/" + TemporaryFileName(target: "file.bin.resume", pid: dead, random: 9).text
            let foreign = directory + "/" + TemporaryFileName(target: "else.bin.resume", pid: dead, random: 9).text
            try Data("half a blob".utf8).write(to: URL(fileURLWithPath: leftover))
            try Data("half a blob".utf8).write(to: URL(fileURLWithPath: foreign))
            #expect(await downloader.download(from: server.url, to: destination).result() == .completed)
            #expect(contents(destination) == oneMiB)
            #expect(!exists(leftover))
            #expect(exists(foreign))
        }
    }
}

/// The ID of a process that has ended (and been reaped).
func endedProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

/// Issue 23, item 5: a destination that exists with no partial file is never overwritten, and
/// called complete only when something vouches for it.
@Suite struct ExistingFileTests {
    @Test func theVerdictNeedsACheckpointWithAValidatorThatTheFileCovers() {
        var checkpoint = DownloadCheckpoint(originalURL: "http://h/f", currentURL: "http://h/f", bytesReceived: 10, entityTag: "\"e\"")
        #expect(ExistingFile.verdict(size: 10, checkpointBeside: nil) == .unchecked)
        #expect(ExistingFile.verdict(size: 10, checkpointBeside: checkpoint) == .finishedEarlier)
        #expect(ExistingFile.verdict(size: 11, checkpointBeside: checkpoint) == .finishedEarlier)
        #expect(ExistingFile.verdict(size: 9, checkpointBeside: checkpoint) == .unchecked)
        #expect(ExistingFile.verdict(size: -1, checkpointBeside: checkpoint) == .unchecked)
        checkpoint.entityTag = nil
        #expect(ExistingFile.verdict(size: 10, checkpointBeside: checkpoint) == .unchecked)
        checkpoint.lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
        #expect(ExistingFile.verdict(size: 10, checkpointBeside: checkpoint) == .finishedEarlier)
    }

    @Test func anUnrelatedFileIsLeftAsItIsUnchecked() async throws {
        try await withServer(oneMiB) { server, downloader, directory in
            let destination = directory + "/file.bin"
            let unrelated = Data("someone else's file".utf8)
            try unrelated.write(to: URL(fileURLWithPath: destination))
            let task = downloader.download(from: server.url, to: destination)
            var warnings: [String] = []
            for await event in task.events { if case .warning(let text) = event { warnings.append(text) } }
            #expect(await task.result() == .completed)
            #expect(task.existingFile == .unchecked)
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("left as it is, not checked against the server") == true)
            #expect(contents(destination) == unrelated)
            #expect(server.requests.isEmpty)
            // A blob of another URL beside it does not vouch for it, and is left too.
            let other = DownloadCheckpoint(originalURL: "http://other.example/f", currentURL: "http://other.example/f", entityTag: "\"e\"")
            try ResumeCheckpoint.encode(other, partialPath: destination + ".part").write(to: URL(fileURLWithPath: destination + ".resume"))
            let again = downloader.download(from: server.url, to: destination)
            #expect(await again.result() == .completed)
            #expect(again.existingFile == .unchecked)
            #expect(exists(destination + ".resume"))
        }
    }
}
