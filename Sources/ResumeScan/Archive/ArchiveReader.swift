internal import CArchiveShim
import Foundation
import ResumeDataCodec
import ResumeSystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One streaming pass over a zip or tar file (gzip, bzip2 or xz compressed too), through
/// libarchive behind a small C shim (`CArchiveShim`): members come one after the other and are
/// read, never unpacked to disk; a link member is reported, never followed. Everything the
/// archive controls is bounded by ``Limits``: the number of members, the bytes a member gives
/// beyond what its header declares, the expansion of the whole (a zip bomb), and what is held in
/// memory at once. The file is opened read-only with `O_NOFOLLOW` (and `O_NOATIME` where allowed).
///
/// Not `Sendable`: one reader, one thread.
final class ArchiveReader {
    struct Limits: Sendable {
        /// Members read before the archive is refused.
        var maximumMembers = 1_000_000
        /// Uncompressed bytes per compressed byte read, over the whole archive, once past
        /// ``expansionAllowance``: a zip bomb expands a thousandfold and more.
        var maximumExpansion: Int64 = 200
        var expansionAllowance: Int64 = 64 << 20
        init() {}
    }

    package enum Kind: Equatable, Sendable { case regular, directory, symbolicLink, hardLink, other }

    struct Member: Equatable, Sendable {
        /// The name as the archive spells it, escaped where it is not UTF-8
        /// (``EvidenceName``, component by component).
        var name: String
        var kind: Kind
        /// The size the header declares, when it declares one.
        var declaredSize: Int64?
        /// Seconds since 1970, when the header has them.
        var modified: Int64?
        var changed: Int64?
        var created: Int64?
        var mode: UInt32
        /// The member's position, from 0.
        var index: Int
    }

    /// Why the archive could not be read on; each says where.
    enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case cannotOpen(String)
        case notAnArchive(String)
        case corrupt(member: Int, String)
        case tooManyMembers(Int)
        case bomb(member: Int, expanded: Int64, compressed: Int64)
        case longerThanDeclared(member: Int, declared: Int64)

        var description: String {
            switch self {
            case .cannotOpen(let reason): "cannot open: \(reason)"
            case .notAnArchive(let reason): "not a zip or tar archive: \(reason)"
            case .corrupt(let member, let reason): "corrupt at member \(member): \(reason)"
            case .tooManyMembers(let limit): "more than \(limit) members"
            case .bomb(let member, let expanded, let compressed):
                "refused at member \(member): \(expanded) bytes expanded from \(compressed) (an archive bomb)"
            case .longerThanDeclared(let member, let declared):
                "member \(member) gives more than the \(declared) bytes its header declares"
            }
        }
    }

    private let reader: OpaquePointer
    /// Where the shim reads the file, through the seam; it lives as long as `reader`.
    private let source: ArchiveSource
    private let limits: Limits
    private var members = 0
    private var expanded: Int64 = 0
    private var current: Member?

    /// Opens `path` (spelled as the scan spells a root, ``EvidenceName``); throws when it cannot
    /// be opened or libarchive recognises no format.
    convenience init(path: String, limits: Limits = Limits(), calls: FileSystemCalls = .system) throws(Failure) {
        switch calls.openEvidence(BytePath(spelled: path)) {
        case .success(let value): try self.init(descriptor: value, limits: limits, calls: calls)
        case .failure(let failure):
            throw .cannotOpen(failure.code == ELOOP ? "it is a symbolic link" : failure.description)
        }
    }

    /// Reads the file open read-only at `descriptor`, which it closes (at once when it throws).
    init(descriptor: Int32, limits: Limits = Limits(), calls: FileSystemCalls = .system) throws(Failure) {
        let source = ArchiveSource(descriptor: descriptor, calls: calls)
        guard let reader = carchive_open(source.shimSource, source.startsGzip ? 1 : 0, 1 << 16) else {
            _ = calls.close(descriptor)
            if let failure = source.readFailure { throw .cannotOpen("cannot read the file: \(failure)") }
            throw .notAnArchive("libarchive recognises no format")
        }
        self.source = source
        self.reader = reader
        self.limits = limits
    }

    deinit {
        // The shim (and the inflater's thread) stop before the source they read goes.
        carchive_close(self.reader)
        _ = self.source.calls.close(self.source.descriptor)
    }

    /// Why libarchive stopped: the read that failed, when one did (libarchive's zip reader
    /// words it as a truncated file), else libarchive's own text.
    private var errorReason: String {
        if let failure = self.source.readFailure { return "cannot read the file: \(failure)" }
        return String(cString: carchive_error(self.reader))
    }

    /// The archive's format, once a member was read ("ZIP 2.0 (deflation)", "GNU tar format").
    var format: String { String(cString: carchive_format(self.reader)) }

    /// The next member; nil at the end.
    func next() throws(Failure) -> Member? {
        var raw = carchive_member()
        switch carchive_next(self.reader, &raw) {
        case 0:
            self.current = nil
            return nil
        case 1:
            break
        default:
            let reason = self.errorReason
            if self.members == 0 { throw .notAnArchive(reason) }
            throw .corrupt(member: self.members, reason)
        }
        guard self.members < self.limits.maximumMembers else { throw .tooManyMembers(self.limits.maximumMembers) }
        let kind: Kind = switch raw.kind {
        case Int32(CARCHIVE_REGULAR.rawValue): .regular
        case Int32(CARCHIVE_DIRECTORY.rawValue): .directory
        case Int32(CARCHIVE_SYMLINK.rawValue): .symbolicLink
        case Int32(CARCHIVE_HARDLINK.rawValue): .hardLink
        default: .other
        }
        let member = Member(
            name: EvidenceName.text(ofPath: UnsafeRawBufferPointer(start: raw.name, count: strlen(raw.name))),
            kind: kind, declaredSize: raw.size >= 0 ? raw.size : nil,
            modified: raw.has_modified != 0 ? raw.modified : nil, changed: raw.has_changed != 0 ? raw.changed : nil,
            created: raw.has_created != 0 ? raw.created : nil, mode: raw.mode, index: self.members)
        self.members += 1
        self.current = member
        return member
    }

    /// Streams the current member's bytes to `body` in chunks of at most 64 KiB, and returns how
    /// many there were. A regular member only; a member that gives more than its header declares,
    /// or an archive that expands past ``Limits``, throws.
    func read(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        guard let member = self.current, member.kind == .regular else { return 0 }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        var total: Int64 = 0
        while true {
            let count = carchive_read(self.reader, chunk.baseAddress, chunk.count)
            if count < 0 { throw Failure.corrupt(member: member.index, self.errorReason) }
            if count == 0 { return total }
            total += Int64(count)
            self.expanded += Int64(count)
            if let declared = member.declaredSize, total > declared { throw Failure.longerThanDeclared(member: member.index, declared: declared) }
            let compressed = max(carchive_compressed_position(self.reader), 1)
            if self.expanded > self.limits.expansionAllowance, self.expanded / compressed > self.limits.maximumExpansion {
                throw Failure.bomb(member: member.index, expanded: self.expanded, compressed: compressed)
            }
            try body(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
    }

    /// The current member's bytes, when it has at most `limit`; nil (and the member skipped)
    /// when it has more.
    func contents(upTo limit: Int) throws -> Data? {
        var data = Data()
        var tooLong = false
        _ = try self.read { bytes in
            guard !tooLong else { return }
            if data.count + bytes.count > limit {
                tooLong = true
                data = Data()
            } else {
                data.append(contentsOf: bytes)
            }
        }
        return tooLong ? nil : data
    }
}
