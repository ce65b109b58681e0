import Foundation
@testable import ResumeReports
import Testing

@testable import ResumeScan

/// The `tasks` report written a task at a time is the report built whole, byte for byte.
@Suite struct TasksReportTests {
    /// A credential header's value is withheld, its length told; any other is shown as it is.
    @Test func credentialHeadersAreWithheld() {
        #expect(TasksReport.shownValue((name: "Authorization", value: "Bearer secret")) == "(withheld: 13 bytes)")
        #expect(TasksReport.shownValue((name: "cookie", value: "a=b")) == "(withheld: 3 bytes)")
        #expect(TasksReport.shownValue((name: "Proxy-Authorization", value: "Basic eDp5")) == "(withheld: 10 bytes)")
        #expect(TasksReport.shownValue((name: "Accept", value: "*/*")) == "*/*")
    }

    @Test(arguments: ["standard", "hostile"])
    func streamedEqualsWhole(scenario: String) throws {
        let fixture = try LedgerFixture(["--version", "3", "--scenario", scenario])
        defer { fixture.remove() }
        let report = TasksReport(ledger: try TaskLedger.read(path: fixture.database))
        var whole: [UInt8] = []
        report.json.write(to: &whole, indent: 0)
        var streamed: [UInt8] = []
        var flushed: [UInt8] = []
        var flushes = 0
        report.writeJSON(to: &streamed) { bytes in
            flushed += bytes
            bytes.removeAll()
            flushes += 1
        }
        #expect(flushes == report.ledger.tasks.count)
        #expect(flushes == (scenario == "hostile" ? 4 : 3))
        #expect(String(decoding: flushed + streamed, as: UTF8.self) == String(decoding: whole, as: UTF8.self))

        var text = ""
        report.writeText { text += $0 }
        #expect(text == report.text)
        #expect(text.hasSuffix(scenario == "hostile"
            ? "\n\n4 tasks in 3 apps (schema version 3), 4 rows skipped\n" : "\n\n3 tasks in 2 apps (schema version 3), 0 rows skipped\n"))
        var csv = ""
        report.writeCSV { csv += $0 }
        #expect(csv == report.csv)
        #expect(csv.components(separatedBy: "\r\n").count == report.ledger.tasks.count + 2)
    }

    @Test func anEmptyLedger() throws {
        let ledger = TaskLedger(path: "t.sqlite", schemaVersion: 2, root: nil, tasks: [], skippedRows: [], warnings: [])
        let report = TasksReport(ledger: ledger)
        #expect(report.text == "0 tasks in 0 apps (schema version 2), 0 rows skipped\n")
        var streamed: [UInt8] = []
        report.writeJSON(to: &streamed) { _ in Issue.record("nothing to flush") }
        #expect(String(decoding: streamed, as: UTF8.self) == """
            {
              "database": "t.sqlite",
              "schemaVersion": 2,
              "root": null,
              "warnings": [],
              "tasks": [],
              "skippedRows": []
            }
            """)
        #expect(report.csv == CSVLine.header)
    }

    enum CSVLine {
        static let header = "bundleID,sessionID,identifier,uniqueIdentifier,kind,state,description,creationTime,earliestBeginDate,method,url,requestBodySize,statusCode,entityTag,lastModified,expectedContentLength,errorDomain,errorCode,errorDescription,bytesReceived,bytesExpected,partialFileRecorded,partialFilePath,partialFileSize,partialFileProblem,notes\r\n"
    }
}
