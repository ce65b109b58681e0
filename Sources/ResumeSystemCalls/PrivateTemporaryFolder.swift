import Foundation

/// A folder of this run's own under the temporary folder (`TMPDIR`, else `/tmp`): mode 0700, a
/// fresh name made by `mkdtemp(3)`, so nothing in it is anyone else's. The one maker of such
/// folders: staging `-o -` and `upload -`, and the private copy of an evidence database.
package struct PrivateTemporaryFolder: Sendable, Equatable {
    /// The folder's path.
    package let path: String

    /// The folder under which one is made: `TMPDIR` when it is set and not empty, else `/tmp`.
    package static func base(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let folder = environment["TMPDIR"], !folder.isEmpty else { return "/tmp" }
        return folder
    }

    /// Makes a folder named `prefix` and six random characters under ``base(environment:)``; the
    /// error names the folder it could not be made in.
    package static func make(
        prefix: String, environment: [String: String] = ProcessInfo.processInfo.environment, calls: FileSystemCalls = .system
    ) -> Result<PrivateTemporaryFolder, MakeFailure> {
        let base = base(environment: environment)
        let template = Array(BytePath(base).appending(prefix + "XXXXXX").text.utf8)
        switch calls.makeTemporaryFolder(template) {
        case .success(let made): return .success(PrivateTemporaryFolder(path: String(decoding: made, as: UTF8.self)))
        case .failure(let failure): return .failure(MakeFailure(base: base, failure: failure))
        }
    }

    /// Why a folder could not be made, and where.
    package struct MakeFailure: Error, Sendable, Equatable {
        /// The folder it was to be made in.
        package var base: String
        /// What the system said.
        package var failure: FileSystemCalls.Failure
    }

    /// Removes the folder and everything in it: nothing but this run's own files, since the name
    /// was made for this run alone.
    package func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
    }
}
