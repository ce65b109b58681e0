import NIOHTTP1
import ResumeDataCodec

/// The fuzzing entry point of the direct path's response head (``ResponseHeadReader``), for the
/// FuzzDirectHead harness (FuzzTesting) and the tests that replay its FailCases: both call this
/// one check.
///
/// The first byte chooses how the rest arrives (in pieces of 1 to 255 bytes, or whole), the rest
/// is what a server sent. Tight bounds (512 bytes of heads, 8 fields, 128-byte lines, 3
/// informational heads) let short inputs reach every one. Properties:
/// - no trap, whatever the bytes;
/// - the verdict (the final head and where it ended, or the error) is the same whichever way the
///   bytes are cut;
/// - a head is taken only within the byte bound, only as the final one when its status is not
///   1xx (101 aside), and the bytes left over are exactly those that followed it;
/// - more bytes than the bound never pass without a verdict;
/// - a `Content-Length` body framing carries the header's own number.
@_spi(Fuzzing) public enum DirectHeadCheck {
    static let limits = ResponseHeadLimits(maximumHeadBytes: 512, maximumFields: 8, maximumLineBytes: 128, maximumInformational: 3)

    /// What one way of feeding the bytes ended in.
    private enum Verdict: Equatable {
        /// The final head's status, fields and where in the input it ended.
        case head(UInt, [String], end: Int)
        case refused(TransferError)
        case unfinished
    }

    /// A property that broke.
    private struct Broken: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Feeds `bytes` to a reader; returns the property that broke, nil when every one held.
    public static func check(_ bytes: [UInt8]) -> String? {
        guard let first = bytes.first else { return nil }
        let input = Array(bytes.dropFirst())
        let whole = max(input.count, 1)
        let piece = first == 0 ? whole : Int(first)
        let pieced: Verdict
        switch self.feed(input, piece: piece) {
        case .success(let verdict): pieced = verdict
        case .failure(let broken): return broken.reason
        }
        // Pieces as long as the input are the whole: the same feed needs no second run.
        guard piece < whole else { return nil }
        switch self.feed(input, piece: whole) {
        case .success(let together) where together != pieced:
            return "the verdict depends on how the bytes were cut: \(pieced) in pieces of \(first), \(together) whole"
        case .success: return nil
        case .failure(let broken): return broken.reason
        }
    }

    /// A framing that has sent its `GET`, as the receiver's has when the answer comes: the decoder
    /// takes only answers to a request.
    static func framing() -> HTTP1Framing? {
        guard let framing = try? HTTP1Framing(), let url = HTTPURL("http://127.0.0.1:8080/file.bin"), let route = DirectRoute(url: url),
              framing.request(route, headers: []) != nil
        else { return nil }
        return framing
    }

    /// The reader's verdict on `input` fed in pieces of `piece` bytes, or the property that broke.
    private static func feed(_ input: [UInt8], piece: Int) -> Result<Verdict, Broken> {
        guard let framing = self.framing() else { return .failure(Broken("no HTTP framing")) }
        var reader = ResponseHeadReader(framing: framing, limits: self.limits)
        var offset = 0
        while offset < input.count {
            let end = min(offset + piece, input.count)
            let step = input[offset..<end].withUnsafeBytes { raw in
                Result { () throws(TransferError) in try reader.feed(raw) }
            }
            switch step {
            case .failure(let error):
                return .success(.refused(error))
            case .success(nil):
                offset = end
            case .success(let found?):
                let headEnd = end - found.leftover.count
                guard headEnd >= 0, found.leftover == Array(input[headEnd..<end]) else {
                    return .failure(Broken("the bytes left over are not those after the head"))
                }
                guard headEnd <= self.limits.maximumHeadBytes else {
                    return .failure(Broken("a head was taken past the byte bound (\(headEnd) bytes)"))
                }
                let code = found.head.status.code
                guard code >= 200 || code == 101 else { return .failure(Broken("an informational head (\(code)) was taken as the answer")) }
                if case .length(let length)? = try? ResponseHeadReader.bodyFraming(of: found.head),
                   found.head.headers[canonicalForm: "content-length"].first != Substring(String(length)) {
                    return .failure(Broken("Content-Length framing \(length) is not the header's number"))
                }
                return .success(.head(code, found.head.headers.map { "\($0.name): \($0.value)" }, end: headEnd))
            }
        }
        if input.count > self.limits.maximumHeadBytes { return .failure(Broken("\(input.count) bytes passed without a verdict")) }
        return .success(.unfinished)
    }
}
