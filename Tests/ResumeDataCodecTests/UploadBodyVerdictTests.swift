import Foundation
import Testing

@testable import ResumeDataCodec

/// What a device blob's body says of the file offered to continue it, value by value.
struct UploadBodyVerdictTests {
    /// Counts the reads, so a test can show a file is read only when it has to be.
    final class Reads {
        var count = 0
        func bytes(_ data: Data) -> () -> Data {
            { self.count += 1; return data }
        }
    }

    @Test func aDataBodyIsComparedByteForByte() {
        let body = Data("hello".utf8)
        let reads = Reads()
        #expect(UploadBody.data(body).verdict(forFileOf: 5, bytes: reads.bytes(body)) == .matches)
        #expect(UploadBody.data(body).verdict(forFileOf: 5, bytes: reads.bytes(Data("hellO".utf8)))
            == .differs("the file's bytes are not the blob's body (uploadData, 5 bytes)"))
        #expect(reads.count == 2)
        // Another size is told without reading the file.
        #expect(UploadBody.data(body).verdict(forFileOf: 6, bytes: reads.bytes(body))
            == .differs("the file has 6 bytes, and the blob's body (uploadData) has 5"))
        #expect(UploadBody.data(Data()).verdict(forFileOf: 0, bytes: reads.bytes(Data())) == .matches)
        #expect(reads.count == 3)
    }

    @Test func aStreamBodyTellsOnlyItsLength() {
        let reads = Reads()
        #expect(UploadBody.stream(length: 10).verdict(forFileOf: 10, bytes: reads.bytes(Data())) == .unknowable)
        #expect(UploadBody.stream(length: 10).verdict(forFileOf: 11, bytes: reads.bytes(Data()))
            == .differs("the file has 11 bytes, and the blob's stream (streamLength) had 10"))
        #expect(UploadBody.stream(length: nil).verdict(forFileOf: 11, bytes: reads.bytes(Data())) == .unknowable)
        #expect(reads.count == 0)
    }

    @Test func whatTheBlobCannotTellIsUnknowable() {
        let reads = Reads()
        for body in [UploadBody.file(ArchivedURL(relativeString: "file:///private/var/mobile/a.bin")), .file(nil), .data(nil), .unknown(7), .unknown(nil)] {
            #expect(body.verdict(forFileOf: 3, bytes: reads.bytes(Data())) == .unknowable)
        }
        #expect(reads.count == 0)
    }
}
