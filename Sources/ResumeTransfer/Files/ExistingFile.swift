/// What a download found when its destination already existed with no partial file beside it:
/// nothing was downloaded, and the file was left as it is (issue 23). The engine never calls
/// such a file complete unless something vouches for it, and never overwrites it.
public enum ExistingFile: Equatable, Sendable {
    /// Its SHA-256 is the one the caller expected.
    case matchesChecksum
    /// A checkpoint of this tool for the same URL, with the server's validator, was still beside
    /// it and the file holds at least the bytes it counts: a run ended between the final rename
    /// (made only once the file had the server's length) and the checkpoint's removal.
    case finishedEarlier
    /// Nothing vouches for it: it was not compared with the server, and is kept untouched. A
    /// file to fetch again must be removed first; to continue it, rename it to `FILE.part`.
    case unchecked

    /// The verdict for a destination of `size` bytes, from the checkpoint left beside it (already
    /// known to be for the same URL), if any. No I/O.
    static func verdict(size: Int64, checkpointBeside checkpoint: DownloadCheckpoint?) -> ExistingFile {
        guard let checkpoint, checkpoint.bytesReceived <= size, size >= 0,
              checkpoint.entityTag != nil || checkpoint.lastModified != nil
        else { return .unchecked }
        return .finishedEarlier
    }
}
