import Foundation
import ResumeDataCodec
import ResumeSystemCalls
import ResumeTransfer
import ResumeReports
import ResumeScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The line `scan` keeps rewriting on a terminal's standard error while it walks; nothing when
/// standard error is a file or a pipe, so logs and tests see only the result.
struct ScanProgress {
    private let enabled = Terminal.isTerminal(STDERR_FILENO)
    private var lastShown = DispatchTime.now().uptimeNanoseconds
    private var shownAny = false

    /// At most five times a second.
    mutating func update(_ scan: ScanJob.Progress) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastShown >= 200_000_000 else { return }
        lastShown = now
        shownAny = true
        var line = "scanning: \(ByteCount.grouping(Int64(scan.files))) files, \(ByteCount.grouping(Int64(scan.blobs))) blobs, in \(VisibleText.escaping(scan.currentPath))"
        // One terminal line: a wrapped line could not be rewritten by a carriage return.
        if line.count > 100 { line = String(line.prefix(99)) + "…" }
        StandardStream.write("\r\u{1B}[K\(line)")
    }

    /// Clears the line before the report is printed.
    mutating func finish() {
        guard shownAny else { return }
        StandardStream.write("\r\u{1B}[K")
        shownAny = false
    }
}
