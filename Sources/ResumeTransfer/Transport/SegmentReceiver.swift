/// A ``BodyReceiver`` that can fetch one segment of a `--connections` download
/// (``SegmentedTransfer``): it is told apart by its tag on the shared queue, and the end of its
/// segment can be moved down while it writes, so that an idle connection takes over the rest.
/// ``ResponseReceiver`` (AsyncHTTPClient) and ``DirectReceiver`` (a socket of its own) are both.
protocol SegmentReceiver: BodyReceiver {
    /// The number its events carry on the ``ResponseEvent/Queue``.
    var tag: Int { get }
    /// Moves the limit the body was accepted up to down to `proposed`, or to the first byte the
    /// receiver may already be writing when that is further; nil when it is not writing or
    /// would keep nothing back. The bytes from the returned end on are no longer its to write.
    func shrink(to proposed: Int64) async -> Int64?
}
