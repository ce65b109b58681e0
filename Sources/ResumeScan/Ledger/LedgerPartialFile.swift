import Foundation
import ResumeDataCodec
import ResumeSystemCalls

/// The partial file a ledger row names, mapped into an extraction.
///
/// nsurlsessiond stores paths realpath'ed behind a `/.nofollow` prefix (spec §1.4); the device
/// path is the stored one without it, and the file in an extraction is that path below the
/// extraction's top folder. A path that is not absolute, holds `..`, or passes through a
/// symbolic link is never looked up: it would leave the extraction.
public struct LedgerPartialFile: Sendable, Equatable {
    /// The column the path came from: `path_to_download_task_file`, else `download_file_url`.
    public var column: String
    /// The value as stored (for `download_file_url`, the archived URL's string).
    public var recorded: String
    /// The path on the device: ``recorded`` without `/.nofollow` (and, for a URL, its path).
    public var devicePath: String?
    /// The path in the extraction, when the device path could be mapped.
    public var path: String?
    /// What is there.
    var entry: PartialFileResolution.Entry?
    /// Why the path was not looked up, when it was not.
    var refusal: String?
    /// Why the file is not there, said as the evidence explains it (a backup leaves out
    /// `Library/Caches`); nil says `not in the extraction`.
    var missingReason: String?

    /// The size of the regular file found, if one was.
    public var size: Int64? {
        if case .regularFile(let size)? = entry { return size }
        return nil
    }

    static let noRoot = "no extraction folder to look in (give --root)"

    /// Places the file in evidence that is not a folder tree (a backup, an archive): `found` is
    /// where the device path is there and what is at it, nil when that evidence cannot hold
    /// the path (then `unplaceable` says why). Only a path that was refused for want of a root
    /// is placed: one refused for itself stays refused.
    mutating func place(_ found: (path: String, entry: PartialFileResolution.Entry)?, missing: (String) -> String, unplaceable: String) {
        guard refusal == Self.noRoot else { return }
        refusal = nil
        if let found {
            path = found.path
            entry = found.entry
            missingReason = missing(found.path)
        } else {
            refusal = unplaceable
        }
    }

    /// The device path as `/private/var/…` components (a `/var/…` path is the same place),
    /// when it is one that could be placed.
    var deviceComponents: [String]? {
        guard refusal == Self.noRoot, let devicePath else { return nil }
        return BytePath(devicePath).privateVarNames?.map(\.text)
    }

    /// A partial file with these values (tests compare with it).
    public init(column: String, recorded: String, devicePath: String?, path: String?,
                 entry: PartialFileResolution.Entry?, refusal: String?) {
        self.column = column
        self.recorded = recorded
        self.devicePath = devicePath
        self.path = path
        self.entry = entry
        self.refusal = refusal
    }

    /// Maps a stored path into `root` and looks it up with `lookUp(path, root)`.
    init(column: String, recorded: String, isURL: Bool, root: String?, lookUp: (String, String) -> PartialFileResolution.Entry) {
        self.init(column: column, recorded: recorded, isURL: isURL, root: root)
        if let path, let root { entry = lookUp(path, root) }
    }

    /// Maps a stored path (or `file:` URL string, for `download_file_url`) into `root`, without
    /// looking at the file yet (``entry`` stays `nil`): rows are decoded on all cores, and the
    /// look-ups made afterwards, in order, by one ``PartialFileLookUp``.
    /// - Parameter root: the extraction's top folder; `nil` leaves the file unmapped.
    init(column: String, recorded: String, isURL: Bool, root: String?) {
        self.init(column: column, recorded: recorded, isURL: isURL, placement: LedgerPlacement(root: root))
    }

    /// Maps a stored path (or `file:` URL string) as ``init(column:recorded:isURL:root:)`` does,
    /// below the placement's folder: below it as the device's `/`, or, for a home, the path
    /// past the device's home folder (``LedgerPlacement/homeLength(of:)``) below it.
    init(column: String, recorded: String, isURL: Bool, placement: LedgerPlacement) {
        let root = placement.root
        self.column = column
        self.recorded = recorded
        var device: String
        if isURL {
            guard let url = URL(string: recorded), url.scheme?.lowercased() == "file" else {
                refusal = "not a file URL"
                return
            }
            device = url.path
        } else {
            device = recorded
        }
        let path = BytePath(device).withoutNoFollow
        device = path.text
        devicePath = device
        guard path.isAbsolute else {
            refusal = "not an absolute path"
            return
        }
        guard !device.utf8.contains(0) else {
            refusal = "holds a NUL byte"
            return
        }
        let names = path.names().filter { !$0.isCurrentName }
        guard !names.contains(where: \.isParentName) else {
            refusal = "holds '..', which could leave the extraction"
            return
        }
        var components = names.map(\.text)
        guard !components.isEmpty else {
            refusal = "names no file"
            return
        }
        guard let root else {
            refusal = Self.noRoot
            return
        }
        if placement.isHome {
            guard let length = LedgerPlacement.homeLength(of: components) else {
                refusal = "not in a user's home folder (/Users/NAME or /private/var/NAME), which \(root) stands for"
                return
            }
            components.removeFirst(length)
        }
        // Spelled as the walk spells the files it finds, so it names the file with these bytes.
        self.path = BytePath(root).appending(EvidenceName.text(ofBlobPath: BytePath(joining: components).text)).text
    }

    /// Compares the file's size with the bytes the ledger says were received:
    /// `as received`, `96 fewer than received`, `5 more than received`; `nil` without both.
    public func comparison(bytesReceived: Int64?) -> String? {
        guard let size, let bytesReceived else { return nil }
        if size == bytesReceived { return "as received" }
        let difference = size < bytesReceived ? bytesReceived &- size : size &- bytesReceived
        return size < bytesReceived ? "\(difference) fewer than received" : "\(difference) more than received"
    }

    /// Why there is no file to use, for people: the refusal, or what is at the path instead.
    public var problem: String? {
        if let refusal { return refusal }
        switch entry {
        case .missing?: return missingReason ?? "not in the extraction"
        case .other(let what)?: return "is \(what), not a regular file"
        case .regularFile?, nil: return nil
        }
    }
}
