/// What the download loop asks of whatever receives a response: a ``ResponseReceiver`` (through
/// AsyncHTTPClient) or a ``DirectReceiver`` (a socket of its own). Both report on a
/// ``ResponseEvent/Queue`` with the same promises: no body byte is written before the loop
/// answers the head, and the last event comes after the last write.
protocol BodyReceiver: Sendable {
    /// Write the body: its first byte is the file's byte at `position`; the first `overlap`
    /// bytes must repeat what the file holds and are compared, not written. With `limit`, the
    /// response ends (cleanly) at that file position.
    func accept(at position: Int64, verifying overlap: Int64, upTo limit: Int64?)
    /// The body is not wanted.
    func discard()
    /// Stop the response (the bytes received so far are still written); the last event is
    /// ``ResponseEvent/failed(_:)`` with `reason` unless the response had ended already.
    func stop(reason: TransferError)
}

extension BodyReceiver {
    func accept(at position: Int64, verifying overlap: Int64) {
        self.accept(at: position, verifying: overlap, upTo: nil)
    }

    func stop() {
        self.stop(reason: .cancelled)
    }
}
