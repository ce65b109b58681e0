import Foundation
import ResumeScan
import ResumeSystemCalls
import ResumeSupport

/// The blob names a command works on: its arguments, with every folder replaced by the files
/// directly inside it, then the names read from `--files-from`.
///
/// Names on the command line never reach ArgumentParser (see ``PositionalNames``), so a glob of
/// thousands costs what a folder does; `ARG_MAX` still caps a command line, which
/// `--files-from` does not.
struct BlobList {
    /// The names, in order: arguments first (a folder's files sorted by name), then the list file's lines.
    private(set) var names: [String] = []

    /// Expands the arguments; an unreadable folder or list file is a diagnostic.
    init(arguments: [String], filesFrom: String?) throws(Diagnostic) {
        // Which arguments are folders, asked of the file system on every core: one `stat` per
        // name on the main thread delayed every blob of `inspect NAME...` (3 % of its time).
        var folders: [Bool] = []
        folders.reserveCapacity(arguments.count)
        orderedParallelMap(arguments, transform: { $0 != "-" && Self.isFolder($0) }, emit: { folders.append($0) })
        for (argument, isFolder) in zip(arguments, folders) {
            // A Safari `NAME.download` bundle is one thing to inspect, not a folder of blobs.
            if isFolder, !SafariDownloadBundle.isBundle(argument), let entries = try Self.folderEntries(argument) {
                // A folder that gives nothing to read would end the command with no word at all.
                guard !entries.isEmpty else {
                    throw Diagnostic(file: argument, message: "no files directly inside this folder to read (its subfolders are not searched: "
                        + "find FOLDER -type f | resumetool COMMAND --files-from - reads them)")
                }
                names += entries
            } else {
                names.append(argument)
            }
        }
        if let filesFrom {
            names += try Self.listedNames(in: InputFile(filesFrom))
        }
    }

    /// Whether `path` names a folder, following symbolic links (as `FileManager.fileExists`),
    /// with one `stat` and no Foundation path handling.
    private static func isFolder(_ path: String) -> Bool {
        guard case .success(let status) = FileSystemCalls.system.statFollowingLinks(path) else { return false }
        return status.kind == .directory
    }

    /// The regular files directly inside `path`, sorted, hidden files skipped (as `ls` does);
    /// `nil` when `path` is not a folder. Not recursive: `find DIR -type f | … --files-from -` is.
    private static func folderEntries(_ path: String) throws(Diagnostic) -> [String]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw Diagnostic(file: path, message: "cannot list the folder: \(error.localizedDescription)")
        }
        return entries.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            var isSubfolder: ObjCBool = false
            let full = BytePath(path).appending(name).text
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isSubfolder), !isSubfolder.boolValue else { return nil }
            return full
        }
    }

    /// One name per line, as `find` prints them; blank lines are skipped, a CR before the
    /// newline is dropped (lists written on Windows). Split on bytes: as a `String`, CR LF is one
    /// `Character` and would not split on "\n".
    private static func listedNames(in list: InputFile) throws(Diagnostic) -> [String] {
        let bytes = try list.read(limit: 64 << 20)
        var names: [String] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            guard !trimmed.isEmpty else { continue }
            guard let name = String(validating: trimmed, as: UTF8.self) else {
                throw Diagnostic(file: list.displayName, position: "\(index + 1)", message: "the file name on this line is not UTF-8")
            }
            names.append(name)
        }
        return names
    }
}
