import ResumeDataCodec

/// What `scan` says of the partial file a blob names when it is not where scan looked: an
/// error, unless the evidence is known to leave such a file out (a backup's `tmp/` and
/// `Library/Caches/`: then a note), with where scan looked and any file of the same name that
/// sits elsewhere in the same evidence (issue 34). Decided from values alone, without I/O.
struct MissingPartialFile: Sendable, Equatable {
    /// Where the file would be: a path in the evidence, or the bare `TempFileName` when the blob
    /// is in no app container.
    var expectedPath: String
    /// The resume key that names it.
    var key: String
    /// Where scan looked, or why it had nowhere to look.
    var search: Search
    /// Why the evidence does not hold it, when that is expected (``BackupExclusion``).
    var expectedAbsence: String?
    /// Paths of the files scan reported in the same evidence (partial files, files holding
    /// blobs) that have the file's name, in byte order.
    var sameName: [String]

    /// Where scan looked for the file.
    enum Search: Sendable, Equatable {
        /// At ``expectedPath``: the app container's `tmp/` for a `TempFileName`, the scanned
        /// tree's copy of the device path for a `LocalPath`.
        case looked
        /// Nowhere: a `TempFileName` is looked up in the blob's app container's `tmp/`, and the
        /// blob is in no app container.
        case noContainer
        /// Nowhere: the `LocalPath` is a device path that no scanned folder holds.
        case outsideScannedTree
    }

    /// How many files of the same name a finding names; the rest are counted.
    static let namedCount = 2

    init(expectedPath: String, key: String, search: Search, expectedAbsence: String?, sameName: [String]) {
        self.expectedPath = expectedPath
        self.key = key
        self.search = search
        self.expectedAbsence = expectedAbsence
        self.sameName = sameName
    }

    /// The finding, code `temp-file-missing`.
    var finding: ResumeDataFinding {
        var message: String
        switch (expectedAbsence, search) {
        case (let absence?, _):
            message = "the partial file \(expectedPath) is \(absence)"
        case (nil, .looked):
            message = "the partial file \(expectedPath) does not exist"
        case (nil, .noContainer):
            message = "the partial file \(expectedPath) was not looked for: the blob is in no app container, whose tmp/ folder would hold it"
        case (nil, .outsideScannedTree):
            message = "the partial file \(expectedPath) was not looked for: no scanned folder holds that device path"
        }
        if !sameName.isEmpty {
            let named = sameName.prefix(Self.namedCount)
            let rest = sameName.count - named.count
            let list = named.joined(separator: rest > 0 ? ", " : " and ") + (rest > 0 ? " and \(rest) more" : "")
            message += sameName.count == 1 ? "; a file of that name is at \(list)" : "; files of that name are at \(list)"
        }
        return ResumeDataFinding(expectedAbsence == nil ? .error : .note, .tempFileMissing, message, key: key)
    }
}
