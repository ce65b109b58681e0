import Foundation
import ResumeSystemCalls

/// Which file a blob's partial file is, inside the folder the user named: the one rule that
/// `resume`, `recover`, the download engine, `discard`, `validate --tmp-dir` and `scan` carry out.
///
/// A blob is untrusted, and so are the names in it. The rule:
/// - The candidates are `NSURLSessionResumeInfoTempFileName`, then the last component of
///   `NSURLSessionResumeInfoLocalPath` (a device's absolute path names another file system; only
///   its file name can be looked for here), each only when it is a bare file name (no `/`, not
///   `.` or `..`, not empty) and so a **direct child** of the folder: a name with a folder part
///   could pass through a symbolic link to anywhere.
/// - The first candidate that exists decides (``resolve(_:)``). It must be a regular file, not a
///   symbolic link (it is looked at with `lstat`, and opened with `O_NOFOLLOW`), a folder, a FIFO
///   or a device: anything else is refused, and nothing may read, write or remove it.
///
/// Deciding needs no I/O: ``resolve(_:)`` takes the caller's look-up of a name, so each caller
/// carries out the same verdict through its own system calls, and the tests drive it with plain values.
public struct PartialFileResolution: Sendable, Equatable {
    /// The folder, as the caller spells it (the engine and `discard` make it absolute first;
    /// `scan` spells it as its walk does, so that paths compare equal).
    public let folder: String
    /// The candidate names, best first, each with the key that named it.
    public let candidates: [Candidate]
    /// What the blob named that may not be used, each with the reason.
    public let rejected: [String]

    /// A file name the blob gives, and the key that gave it.
    public struct Candidate: Sendable, Equatable {
        /// A bare file name.
        public let name: String
        /// `NSURLSessionResumeInfoTempFileName` or `NSURLSessionResumeInfoLocalPath`.
        public let key: String
    }

    /// What is at a candidate's path, as `lstat` tells it (a link is not followed).
    public enum Entry: Sendable, Equatable {
        /// Nothing has the name.
        case missing
        /// A regular file of this size.
        case regularFile(size: Int64)
        /// Something else, described for people: `a folder`, `a symbolic link`, `a FIFO`.
        case other(String)
    }

    /// Which file is the partial file.
    public enum Verdict: Sendable, Equatable {
        /// This regular file, named by `key`.
        case file(path: String, size: Int64, key: String)
        /// The first candidate that exists is not a regular file: nothing may touch it.
        case refused(path: String, key: String, reason: String)
        /// No candidate exists. `expected` is the first candidate's path, when the blob gave one.
        case missing(expected: (path: String, key: String)?)

        public static func == (lhs: Verdict, rhs: Verdict) -> Bool {
            switch (lhs, rhs) {
            case let (.file(a, b, c), .file(d, e, f)): a == d && b == e && c == f
            case let (.refused(a, b, c), .refused(d, e, f)): a == d && b == e && c == f
            case let (.missing(a), .missing(b)): a?.path == b?.path && a?.key == b?.key
            default: false
            }
        }
    }

    /// The candidates a blob with these keys gives inside `folder`.
    public init(tempFileName: String?, localPath: String?, folder: String) {
        self.folder = folder
        var candidates: [Candidate] = []
        var rejected: [String] = []
        if let name = tempFileName {
            if Self.isBareFileName(name) {
                candidates.append(Candidate(name: name, key: ResumeDataKey.tempFileName))
            } else {
                rejected.append("\(ResumeDataKey.tempFileName) \"\(name)\" is not a bare file name")
            }
        }
        if let path = localPath {
            let name = BytePath(path).lastName.text
            if !path.hasPrefix("/") {
                rejected.append("\(ResumeDataKey.localPath) \"\(path)\" is not an absolute path")
            } else if !Self.isBareFileName(name) {
                rejected.append("\(ResumeDataKey.localPath) \"\(path)\" does not end in a file name")
            } else if !candidates.contains(where: { $0.name == name }) {
                candidates.append(Candidate(name: name, key: ResumeDataKey.localPath))
            }
        }
        self.candidates = candidates
        self.rejected = rejected
    }

    /// The candidates `resume` gives inside `folder`.
    public init(resume: ResumeData, folder: String) {
        self.init(tempFileName: resume.tempFileName, localPath: resume.localPath, folder: folder)
    }

    /// The folder to look in for the partial file of the blob at `blobPath`: the one given
    /// (`--tmp-dir`), else the blob's own folder, where an app's tmp folder and a download's
    /// `FILE.resume` keep it. `resume`, `explain` and `discard` all default so.
    public static func lookupFolder(given: String?, besideBlobAt blobPath: String) -> String {
        given ?? BytePath(blobPath).folder.text
    }

    /// `folder/name`, without doubling a `/`.
    public func path(of name: String) -> String {
        BytePath(folder).appending(name).text
    }

    /// The verdict, given what is at each candidate's path (`entry` is asked in candidate order,
    /// and no more once one exists).
    public func resolve(_ entry: (String) -> Entry) -> Verdict {
        for candidate in candidates {
            let path = path(of: candidate.name)
            switch entry(path) {
            case .missing: continue
            case .regularFile(let size): return .file(path: path, size: size, key: candidate.key)
            case .other(let kind): return .refused(path: path, key: candidate.key, reason: "it is \(kind), not a regular file")
            }
        }
        return .missing(expected: candidates.first.map { (path(of: $0.name), $0.key) })
    }

    /// A name that stays inside the folder it is joined to: no `/`, not `.` or `..`, not empty.
    public static func isBareFileName(_ name: String) -> Bool {
        // The byte, not `contains("/")`: with Foundation imported that is `range(of:)` through
        // NSString, which was 2 % of `inspect`'s time.
        !name.isEmpty && !name.utf8.contains(UInt8(ascii: "/")) && name != "." && name != ".."
    }
}
