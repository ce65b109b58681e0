/// The bytes of a device's partial file that a `resume` copies into its own partial file, once
/// the server's first response continues after them (a 206 at that offset, or a 416 that says
/// they are the whole file). Until then the run's partial file is empty and its own: no
/// checkpoint is written, and a run that stops removes it, so nothing is left at the output
/// that the next run could mistake for a download under way.
struct PendingCopy: Sendable, Equatable {
    /// The device's partial file, read as evidence and never changed.
    let source: String
    /// How many of its first bytes the blob continues from (more than 0).
    let count: Int64
}
