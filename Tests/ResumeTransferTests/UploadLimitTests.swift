@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

/// `Upload-Limit` read value by value: what counts, what is ignored, and the verdicts.
@Suite struct UploadLimitTests {
    static func limit(_ value: String?) throws -> UploadLimit? {
        UploadLimit.read(try value.map { [try HTTPHeaderField(name: "Upload-Limit", value: $0)] } ?? [])
    }

    @Test(arguments: [
        ("max-size=1000, min-size=10, max-append-size=100", UploadLimit(maximumSize: 1000, minimumSize: 10, maximumAppendSize: 100)),
        ("max-size=1000", UploadLimit(maximumSize: 1000)),
        // Parameters are allowed on any member and mean nothing here.
        ("max-append-size=65536;x=1", UploadLimit(maximumAppendSize: 65536)),
        // Keys this client does not use, and members that are no integers, are left out.
        ("expires=3600, max-age=60, min-append-size=5, max-size=7", UploadLimit(maximumSize: 7)),
        ("max-size=\"1000\", min-size=?1, max-append-size=1.5", UploadLimit()),
        ("max-size=-1", UploadLimit()),
        ("max-size", UploadLimit()),
        // The last of a repeated key wins (RFC 9651 §4.2.2).
        ("max-size=1, max-size=2", UploadLimit(maximumSize: 2)),
        ("max-size=999999999999999", UploadLimit(maximumSize: 999_999_999_999_999)),
    ])
    func members(_ value: String, _ expected: UploadLimit) throws {
        #expect(try Self.limit(value) == expected)
    }

    @Test(arguments: [
        "max-size=1000000000000000", // 16 digits: beyond an sf-integer
        "max-size==1", "max-size=1,", ",max-size=1", "MAX-SIZE=1", "max-size=1 max-append-size=2",
    ])
    func aFieldThatDoesNotParseIsIgnored(_ value: String) throws {
        #expect(try Self.limit(value) == nil)
    }

    @Test func noFieldIsNoLimit() throws {
        #expect(try Self.limit(nil) == nil)
    }

    @Test func refusals() {
        #expect(UploadLimit(maximumSize: 1000).refusal(size: 1000) == nil)
        #expect(UploadLimit(maximumSize: 1000).refusal(size: 1001) == "the server takes uploads of at most 1000 bytes (Upload-Limit), and the file has 1001")
        #expect(UploadLimit(minimumSize: 10).refusal(size: 10) == nil)
        #expect(UploadLimit(minimumSize: 10).refusal(size: 9) == "the server takes uploads of at least 10 bytes (Upload-Limit), and the file has 9")
        #expect(UploadLimit(maximumAppendSize: 0).refusal(size: 1) == "the server takes no bytes in any request (Upload-Limit: max-append-size=0)")
        #expect(UploadLimit(maximumAppendSize: 1).refusal(size: 100_000) == nil)
        #expect(UploadLimit(maximumAppendSize: 1).refusal(size: 100_001)
            == "the server takes at most 1 byte per request (Upload-Limit: max-append-size), and the file's 100001 bytes would take more than 100000 requests")
        #expect(UploadLimit(maximumAppendSize: 10).refusal(size: 1_000_000) == nil)
        #expect(UploadLimit(maximumAppendSize: 10).refusal(size: 1_000_001) != nil)
        // Counted on the bytes left to send.
        #expect(UploadLimit(maximumAppendSize: 1).refusal(size: 100_001, offset: 1) == nil)
        #expect(UploadLimit(maximumAppendSize: 1).refusal(size: 100_002, offset: 1)
            == "the server takes at most 1 byte per request (Upload-Limit: max-append-size), and the 100001 bytes left to send would take more than 100000 requests")
        #expect(UploadLimit(maximumAppendSize: 1).refusal(size: 100_001, offset: 200_000) == nil)
        #expect(UploadLimit(maximumSize: 1000).refusal(size: 1001, offset: 1001) == "the server takes uploads of at most 1000 bytes (Upload-Limit), and the file has 1001")
        #expect(UploadLimit(maximumAppendSize: .max).refusal(size: .max) == nil)
        #expect(UploadLimit(maximumAppendSize: 1).refusal(size: .max) != nil)
        #expect(UploadLimit().refusal(size: .max) == nil)
    }

    @Test func appendLengths() {
        #expect(UploadLimit().appendLength(remaining: 5000) == 5000)
        #expect(UploadLimit(maximumAppendSize: 1000).appendLength(remaining: 5000) == 1000)
        #expect(UploadLimit(maximumAppendSize: 1000).appendLength(remaining: 999) == 999)
        #expect(UploadLimit(maximumAppendSize: 0).appendLength(remaining: 5000) == 5000)
        #expect(UploadLimit(maximumAppendSize: 1000).appendLength(remaining: -1) == 0)
    }
}
