import NIOHTTP1
import ResumeDataCodec

/// One request of a resumable upload and its answer, on a connection of its own: the seam between
/// the engine's rounds (``ResumableUploader``), which decide what to send and what an answer
/// means, and the wire. ``NIOUploadTransport`` is the one in use; the fuzzing check
/// (``UploadAnswerCheck``) plays scripted answers through the same rounds.
protocol UploadTransport: Sendable {
    /// Sends `head` to `route` (through `proxy`, when one is given), then the file's bytes in
    /// `body` (read from `source`; no body without one), and reads the answer.
    /// - Parameters:
    ///   - onConnected: called once the connection is up, before the head goes (`-v` shows the
    ///     request then, and never one that could not be sent).
    ///   - onHead: sees every head as it comes, 1xx ones (`final` false) included; its error
    ///     stops the request, the connection is closed, and the error is thrown.
    /// - Throws: the error of `onHead`, or ``UploadError`` when the file cannot be read.
    func exchange(
        _ head: HTTPRequestHead, to route: DirectRoute, via proxy: ProxySettings.Server?, body: Range<Int64>?, from source: UploadSource?,
        onConnected: () -> Void,
        onHead: @Sendable (_ status: Int, _ fields: [HTTPHeaderField], _ final: Bool) throws(UploadError) -> Void
    ) async throws(UploadError) -> UploadTransportResult
}

/// What one request of an upload came to.
struct UploadTransportResult: Sendable {
    /// The final head, when one came (whether or not its body, or the request's, was whole).
    var final: (status: Int, fields: [HTTPHeaderField])?
    /// Why no final head came.
    var broken: TransferError?
    /// Body bytes handed to the connection: the server may have them.
    var sent: Int64 = 0
    /// Body bytes the connection wrote, counted before any answer read after them.
    var written: Int64 = 0
}
