// Reads nsurlsessiond's task ledger (tasks.sqlite, with its WAL) from an extraction, as
// `resumetool tasks` does, and lists each background task with the partial file it names.
//
//     swift run ReadTaskLedger ROOT/private/var/mobile/Library/com.apple.nsurlsessiond/tasks.sqlite ROOT
import Foundation
import ResumeScan

let arguments = CommandLine.arguments
guard arguments.count == 2 || arguments.count == 3 else {
    print("usage: ReadTaskLedger TASKS.SQLITE [EXTRACTION-ROOT]")
    exit(64)
}
do {
    // Read from a private copy: the evidence is never opened for writing.
    let ledger = try TaskLedger.read(path: arguments[1], root: arguments.count == 3 ? arguments[2] : nil)
    print("schema version: \(ledger.schemaVersion)")
    for task in ledger.tasks {
        let received = task.bytesReceived.map { "\($0) of \(task.bytesExpected.map(String.init) ?? "?") bytes" } ?? "no bytes"
        let partial = task.partialFile.map { $0.path ?? "\($0.recorded) (not in the extraction)" } ?? "none"
        print("\(task.bundleID ?? "-") \(task.kind?.name ?? "-") \(task.url ?? "-"): \(received), partial file \(partial)")
    }
    // A corrupt or hostile row is skipped and said, with where and why.
    for row in ledger.skippedRows { print("skipped: \(row)") }
} catch {
    print("\(arguments[1]): \(error)")
    exit(1)
}
