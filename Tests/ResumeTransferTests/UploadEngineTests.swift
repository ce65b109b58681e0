import Foundation
@testable import ResumeDataCodec
import Synchronization
import Testing

@testable import ResumeTransfer

/// What an upload reported, in order.
final class UploadEventLog: Sendable {
    let events = Mutex<[UploadEvent]>([])
    let notes = Mutex<[UploadJob.Note]>([])
    var offsets: [Int64] { self.events.withLock { $0.compactMap { if case .offset(let value) = $0 { value } else { nil } } } }
    var resumeURLs: [String] { self.events.withLock { $0.compactMap { if case .resumable(let url) = $0 { url.string } else { nil } } } }
    var refusals: [String] { self.events.withLock { $0.compactMap { if case .notResumable(let reason) = $0 { reason } else { nil } } } }
}

enum UploadTesting {
    /// `size` bytes that differ from one offset to the next (a byte sent twice or skipped shows).
    static func bytes(_ size: Int, seed: UInt32 = 7) -> [UInt8] {
        var state = seed
        return (0..<size).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    static func write(_ bytes: [UInt8], in folder: String, name: String = "photo.bin") throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func configuration(_ version: String, retries: Int = 3, headers: [(String, String)] = [], chunk: Int = 1 << 20) throws -> UploadConfiguration {
        var configuration = UploadConfiguration(
            draft: ResumableUploadDraft(try #require(UploadDraftVersion(version))),
            headers: try headers.map { try HTTPHeaderField(name: $0.0, value: $0.1) },
            maximumRetries: retries, initialBackoff: .zero, maximumRestarts: 1, chunkSize: chunk)
        configuration.retry.jitter = { 0 }
        // The whole suite runs in one process on a cooperative pool as wide as the machine (two
        // threads here), and tests that wait for a child process block its threads: a client
        // held past the stall timeout between connecting and its first byte is (rightly) a stall,
        // retried on a new connection, and a scripted server then plays the next connection's
        // script to it. Measured: held 2.5 s with a 1 s stall timeout, connection 0 closed with no
        // head and the POST got the offset answer, the failure CI showed after a 160 s hold with
        // the default 60 s. Tests of stalls set their own.
        configuration.connectTimeout = .seconds(600)
        configuration.stallTimeout = .seconds(600)
        return configuration
    }

    static func run(
        _ file: String, to url: String, _ configuration: UploadConfiguration, log: UploadEventLog = UploadEventLog()
    ) async throws -> ResumableUploader.Outcome {
        let job = UploadJob(file: file, url: try HTTPURL(validating: url), configuration: configuration, checkpoint: .beside(file: file))
        return try await job.run(onNote: { note in log.notes.withLock { $0.append(note) } }, onEvent: { event in log.events.withLock { $0.append(event) } })
    }

    /// The error of an upload that must fail.
    static func failure(_ file: String, to url: String, _ configuration: UploadConfiguration, log: UploadEventLog = UploadEventLog()) async throws -> UploadError {
        do {
            let outcome = try await run(file, to: url, configuration, log: log)
            Issue.record("the upload succeeded: \(outcome)")
            throw CancellationError()
        } catch let error as UploadError {
            return error
        }
    }
}

/// The upload engine against Apple's own server (NIOResumableUpload, in-process on loopback),
/// in each interop version it speaks: the server's view is the judge.
@Suite struct UploadEngineTests {
    static let size = 3 << 20 + 123

    @Test(arguments: ["3", "5", "6"])
    func aWholeUploadArrivesByteForByte(version: String) async throws {
        let server = try await AppleUploadServer.start()
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            let file = try UploadTesting.write(bytes, in: folder)
            let log = UploadEventLog()
            let outcome = try await UploadTesting.run(file, to: server.origin + "/files/photo.bin", try UploadTesting.configuration(version), log: log)
            #expect(outcome == ResumableUploader.Outcome(status: 201, bytesSent: Int64(Self.size), resumptions: 0, fileSize: Int64(Self.size), continuedAt: nil))
            #expect(server.stored("/files/photo.bin") == bytes)
            let heads = server.heads
            #expect(heads.count == 1)
            #expect(heads.first?.hasPrefix("POST /files/photo.bin\n") == true)
            #expect(heads.first?.contains("Upload-Draft-Interop-Version: \(version)") == true)
            #expect(heads.first?.contains(version == "3" ? "Upload-Incomplete: ?0" : "Upload-Complete: ?1") == true)
            #expect(heads.first?.contains("Content-Length: \(Self.size)") == true)
            // The 104 named the resume URL, and the checkpoint went with the completed upload.
            #expect(log.resumeURLs.count == 1)
            #expect(log.resumeURLs.first?.hasPrefix(server.origin + "/resumable_upload/") == true)
            #expect(!FileManager.default.fileExists(atPath: file + ".uploadresume"))
            #expect(!FileManager.default.fileExists(atPath: file + ".uploadresume.identity"))
        }
        await server.stop()
    }

    @Test(arguments: ["3", "5", "6"])
    func anInterruptedUploadAsksThenAppendsTheRest(version: String) async throws {
        let cut = 1 << 20 + 4096
        let server = try await AppleUploadServer.start(cuts: [cut])
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            let file = try UploadTesting.write(bytes, in: folder)
            let log = UploadEventLog()
            let outcome = try await UploadTesting.run(file, to: server.origin + "/files/photo.bin", try UploadTesting.configuration(version), log: log)
            // The server kept exactly the body bytes of the cut connection; the append started there.
            let headLength = try #require(server.headLength(ofConnection: 0))
            let kept = cut - headLength
            #expect(log.offsets == [Int64(kept)])
            #expect(outcome.status == 201)
            #expect(outcome.resumptions == 1)
            #expect(server.stored("/files/photo.bin") == bytes)
            let heads = server.heads
            try #require(heads.count == 3)
            let resumePath = try #require(log.resumeURLs.first).dropFirst(server.origin.count)
            #expect(heads[1].hasPrefix("HEAD \(resumePath)\n"))
            #expect(!heads[1].contains("Upload-Offset"))
            #expect(heads[2].hasPrefix("PATCH \(resumePath)\n"))
            #expect(heads[2].contains("Upload-Offset: \(kept)"))
            #expect(heads[2].contains("Content-Length: \(Self.size - kept)"))
            #expect(heads[2].contains("Content-Type: application/partial-upload") == (version == "6"))
            // From the server's side: the cut connection's bytes, then the append's head and
            // exactly the bytes it did not have.
            let appendHead = try #require(server.headLength(ofConnection: 2))
            let offsetHead = try #require(server.headLength(ofConnection: 1))
            #expect(server.received == cut + offsetHead + appendHead + (Self.size - kept))
        }
        await server.stop()
    }

    @Test func aSecondRunContinuesFromTheCheckpoint() async throws {
        let cut = 512 << 10
        let server = try await AppleUploadServer.start(cuts: [cut])
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            let file = try UploadTesting.write(bytes, in: folder)
            let url = server.origin + "/files/photo.bin"
            let firstLog = UploadEventLog()
            let first = try await UploadTesting.failure(file, to: url, try UploadTesting.configuration("6", retries: 0), log: firstLog)
            guard case .transfer(.retriesExhausted(_, attempts: 0)) = first else {
                Issue.record("unexpected \(first)")
                return
            }
            // The checkpoint: an upload blob in Apple's format, and the file's identity.
            let blob = try #require(try UploadCheckpoint.beside(file: file).blob(), "first run: \(first); events \(firstLog.events.withLock { $0 })")
            #expect(blob.draftVersion == "6")
            #expect(blob.resumeURL?.absoluteString.hasPrefix(server.origin + "/resumable_upload/") == true)
            #expect(blob.bodyType == 1)
            #expect(blob.body == .file(ArchivedURL(relativeString: URL(fileURLWithPath: file).absoluteString)))
            #expect(blob.mask == [0, 0, 0, 0, 0, 0, 0, 0])
            #expect(try blob.originalRequest()?.urlString == url)
            #expect(try blob.originalRequest()?.method == "POST")
            // What URLSession's reader would say: only that the blob is not masked (no Upload-*
            // field in the original request, which would make CFNetwork leave the upload alone).
            #expect(UploadResumeDataValidator().findings(for: blob).map(\.code) == [.uploadUnmasked])
            let identity = try #require(try UploadCheckpoint.beside(file: file).identity())
            #expect(identity.size == Int64(Self.size))
            #expect(identity.url == url)

            let log = UploadEventLog()
            let outcome = try await UploadTesting.run(file, to: url, try UploadTesting.configuration("6"), log: log)
            #expect(outcome.resumptions == 1)
            #expect(log.notes.withLock { $0 } == [.continuing(try #require(blob.resumeURL?.absoluteString))])
            let kept = cut - (try #require(server.headLength(ofConnection: 0)))
            #expect(log.offsets == [Int64(kept)])
            #expect(server.stored("/files/photo.bin") == bytes)
            #expect(!FileManager.default.fileExists(atPath: file + ".uploadresume"))
        }
        await server.stop()
    }

    @Test func aFileChangedBetweenRunsIsRefused() async throws {
        let server = try await AppleUploadServer.start(cuts: [256 << 10, 256 << 10])
        try await withTemporaryDirectory { folder in
            let bytes = UploadTesting.bytes(Self.size)
            let file = try UploadTesting.write(bytes, in: folder)
            let url = server.origin + "/files/photo.bin"
            let firstLog = UploadEventLog()
            let first = try await UploadTesting.failure(file, to: url, try UploadTesting.configuration("6", retries: 0), log: firstLog)
            try #require(firstLog.resumeURLs.count == 1, "first run: \(first); events \(firstLog.events.withLock { $0 })")
            // One byte more.
            _ = try UploadTesting.write(bytes + [0], in: folder)
            let grown = try await UploadTesting.failure(file, to: url, try UploadTesting.configuration("6"))
            #expect(grown == .fileChanged("\(file): its size is \(Self.size + 1) bytes, it was \(Self.size) when the upload started"))
            // The same size and modification time, one byte changed in the last MiB.
            var changed = bytes
            changed[Self.size - 10] ^= 0xFF
            let recorded = try #require(try UploadCheckpoint.beside(file: file).identity())
            _ = try UploadTesting.write(changed, in: folder)
            try Self.setModificationTime(file, seconds: recorded.modifiedSeconds, nanoseconds: recorded.modifiedNanoseconds)
            let edited = try await UploadTesting.failure(file, to: url, try UploadTesting.configuration("6"))
            guard case .fileChanged(let reason) = edited else {
                Issue.record("unexpected \(edited)")
                return
            }
            #expect(reason.hasPrefix("\(file): its last MiB differs (SHA-256 "))
            // Nothing was sent for either: the server saw only the first run's request.
            #expect(server.heads.count == 1)
        }
        await server.stop()
    }

    static func setModificationTime(_ path: String, seconds: Int64, nanoseconds: Int64) throws {
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)), timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))]
        let result = times.withUnsafeMutableBufferPointer { utimensat(AT_FDCWD, path, $0.baseAddress, 0) }
        try #require(result == 0)
    }
}
