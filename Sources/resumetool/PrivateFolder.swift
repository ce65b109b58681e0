import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of this run's own (mode 0700, under TMPDIR, a fresh name) for a transfer that needs
/// a file where the user gave a stream: `-o -` stages the download there, `upload -` the input.
/// It is removed, with what is in it, when the command ends, whatever the outcome.
struct PrivateFolder {
    let path: String

    /// Makes the folder; `purpose` names the option in the error.
    static func make(for purpose: String) throws(Diagnostic) -> PrivateFolder {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast()) + Array("resumetool-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Diagnostic(file: base, message: "cannot make a folder for \(purpose): \(String(cString: strerror(errno)))")
        }
        return PrivateFolder(path: String(cString: made))
    }

    /// Removes the folder and everything the transfer left in it (nothing but this run's own
    /// files: the name was made by mkdtemp for this run alone).
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
