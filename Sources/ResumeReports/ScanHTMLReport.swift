import Foundation
import Plot
import ResumeDataCodec
import ResumeScan

/// `scan --html FILE`: one self-contained page an examiner can attach to a case: the device of
/// each backup, a summary per app, then each blob with its URL, bytes, partial file, findings,
/// hashes and times, the orphan partial files, the Safari bundles' partial files, Safari's lists
/// of downloads and what could not be read.
///
/// Evidence is hostile, so the page is built with Plot and every string from it goes through
/// ``evidence(_:)`` into a text node, never into an attribute or raw HTML: the page holds no
/// link, no script, and no attribute whose value came from the evidence. Its only style is
/// inline, and a Content-Security-Policy forbids scripts and anything from elsewhere besides.
package struct ScanHTMLReport {
    let inventory: ScanInventory
    /// When the report was made, shown in its header; nil leaves it out (for exact tests).
    let generated: Date?

    package init(inventory: ScanInventory, generated: Date?) {
        self.inventory = inventory
        self.generated = generated
    }

    /// The page, UTF-8, ending with a newline.
    package var html: String {
        let page = HTML(
            .lang(.english),
            .head(
                .meta(.charset(.utf8)),
                .meta(.attribute(named: "http-equiv", value: "Content-Security-Policy"),
                      .content("default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; base-uri 'none'")),
                .meta(.name("viewport"), .content("width=device-width, initial-scale=1")),
                .element(named: "title", text: "resumetool scan report"),
                .style(Self.css)
            ),
            .body(
                .h1(.text("Resume data found by resumetool scan")),
                .p(.class("summary"), .text(ScanReport(inventory: inventory).summary)),
                .unwrap(generated) { date in .p(.class("generated"), .text("Report made " + DateText.text(date))) },
                .forEach(inventory.backups) { backup in Self.device(backup) },
                appSummary,
                .h2(.text("Blobs")),
                .if(inventory.blobs.isEmpty, .p(.text("No resume blob was found."))),
                .forEach(inventory.blobs.enumerated()) { index, blob in Self.blob(blob, number: index + 1) },
                .if(!inventory.orphanPartialFiles.isEmpty, orphans),
                .if(!inventory.safariPartialFiles.isEmpty, safariPartialFiles),
                .forEach(inventory.safariHistories) { history in Self.safariHistory(history) },
                .if(!inventory.foundArchives.isEmpty, foundArchives),
                .if(!inventory.errors.isEmpty, errors)
            )
        )
        return page.render(indentedBy: .spaces(1)) + "\n"
    }

    /// A string from the evidence, as text. Plot escapes `<` and `>` but keeps a `&name;` or
    /// `&#…;` already in the text as the entity it looks like, so `&lt;` in a URL would show as
    /// `<`; spelling each `&` as `&amp;` first (which Plot keeps) shows the evidence as it is.
    /// Control characters are shown as `\u{…}`, as the text report does.
    static func evidence<Context>(_ text: String) -> Node<Context> {
        .text(VisibleText.escaping(text).replacingOccurrences(of: "&", with: "&amp;"))
    }

    private static func evidence<Context>(_ text: String?) -> Node<Context> {
        text.map { evidence($0) } ?? .text("-")
    }

    private static func field(_ label: String, _ value: Node<HTML.BodyContext>) -> Node<HTML.TableContext> {
        .tr(.th(.text(label)), .td(value))
    }

    private static func time(_ date: Date?) -> Node<HTML.BodyContext> {
        .text(date.map(DateText.text) ?? "-")
    }

    // MARK: Sections

    private static func device(_ backup: BackupSummary) -> Node<HTML.BodyContext> {
        let device = backup.device
        return .section(
            .class("device"),
            .h2(.text(backup.isEncrypted ? "Encrypted backup " : "Backup "), .code(evidence(backup.root))),
            .table(
                field("Device name", evidence(device.name)),
                field("Model", evidence(device.model)),
                field("iOS", evidence(device.iOSVersion)),
                field("Build", evidence(device.build)),
                field("Serial number", evidence(device.serial)),
                field("UDID", evidence(device.udid)),
                field("Files", .text(ByteCount.grouping(Int64(backup.fileCount)))),
                field("Files left unread", .text(backup.unreadFileCount == 0 ? "none"
                    : ByteCount.grouping(Int64(backup.unreadFileCount)) + " (the backup is encrypted and no password was given)")),
                // Only when there is something to say: a complete backup's table is as it was.
                .if(backup.missingFileCount > 0, field("Files missing", evidence(ScanReport.missingFilesHeadline(backup).map { headline in
                    headline + " The first: " + backup.missingFileExamples.joined(separator: ", ")
                        + (backup.missingFileCount > backup.missingFileExamples.count ? "; the JSON report lists every one." : ".")
                }))),
                .forEach(backup.warnings) { warning in field("Warning", evidence(warning)) }
            )
        )
    }

    /// One row per app (its bundle ID, or its container when nothing names the app), in the
    /// order the apps first appear.
    private var appSummary: Node<HTML.BodyContext> {
        struct App {
            var name: String
            var blobs = 0
            var paired = 0
            var orphans = 0
            var received: Int64 = 0
            var errors = 0
            var warnings = 0
        }
        var apps: [App] = []
        func index(_ bundleID: String?, _ container: String?) -> Int {
            let name = bundleID ?? container.map { "no bundle ID: " + $0 } ?? "outside any app container"
            if let found = apps.firstIndex(where: { $0.name == name }) { return found }
            apps.append(App(name: name))
            return apps.count - 1
        }
        for blob in inventory.blobs {
            let at = index(blob.bundleID, blob.appContainer)
            apps[at].blobs += 1
            if blob.partialFile != nil { apps[at].paired += 1 }
            let (sum, overflow) = apps[at].received.addingReportingOverflow(max(0, blob.found.resumeData?.bytesReceived ?? 0))
            apps[at].received = overflow ? Int64.max : sum
            apps[at].errors += blob.findings.filter { $0.severity == .error }.count
            apps[at].warnings += blob.findings.filter { $0.severity == .warning }.count
        }
        for orphan in inventory.orphanPartialFiles { apps[index(orphan.bundleID, orphan.appContainer)].orphans += 1 }
        return .group(
            .h2(.text("Summary per app")),
            .if(apps.isEmpty, .p(.text("Nothing was found."))),
            .if(!apps.isEmpty, .table(
                .class("apps"),
                .thead(.tr(.th(.text("App")), .th(.text("Blobs")), .th(.text("With partial file")), .th(.text("Orphan partial files")),
                           .th(.text("Bytes received")), .th(.text("Errors")), .th(.text("Warnings")))),
                .tbody(.forEach(apps) { app in
                    .tr(.td(Self.evidence(app.name)), .td(.text(String(app.blobs))), .td(.text(String(app.paired))),
                        .td(.text(String(app.orphans))), .td(.text(ByteCount.grouping(app.received))),
                        .td(.text(String(app.errors))), .td(.text(String(app.warnings))))
                })
            ))
        )
    }

    private static func blob(_ blob: ScanInventory.Blob, number: Int) -> Node<HTML.BodyContext> {
        let resume = blob.found.resumeData
        let partial = blob.partialFileEvidence
        return .section(
            .class("blob"),
            .h3(.text("Blob \(number): "), .code(evidence(blob.path)),
                .unwrap(blob.keyPath) { keyPath in .group(.text(" at "), .code(evidence(keyPath))) }),
            .table(
                field("App", evidence(blob.bundleID)),
                field("App container", evidence(blob.appContainer)),
                field("Source", source(blob.file.source)),
                field("Container", .text(blob.found.containerName)),
                field("Download URL", .code(evidence(resume?.downloadURL))),
                field("Bytes received", .text(resume?.bytesReceived.map(ByteCount.describe) ?? "-")),
                field("Temp file", evidence(resume?.tempFileName)),
                field("Local path", evidence(blob.found.localPath)),
                field("SHA-256", .code(.text(blob.file.sha256 ?? "-"))),
                field("Size", .text(ByteCount.describe(blob.file.size))),
                field("Modified", time(blob.file.modified ?? blob.modified)),
                field("Status changed", time(blob.file.changed)),
                field("Created", time(blob.file.created)),
                field("Partial file", blob.partialFile.map { evidence($0.path) } ?? .text("none found")),
                .unwrap(partial) { partial in
                    .group(
                        field("Partial file source", source(partial.source)),
                        field("Partial file SHA-256", .code(.text(partial.sha256 ?? partial.hashSkipped.map(HashSkipText.sentence) ?? "-"))),
                        field("Partial file size", .text(ByteCount.describe(partial.size))),
                        field("Partial file modified", time(partial.modified)),
                        field("Partial file status changed", time(partial.changed)),
                        field("Partial file created", time(partial.created))
                    )
                },
                field("Findings", blob.findings.isEmpty ? .text("none") : .ul(.forEach(blob.findings) { finding in
                    .li(.class(finding.severity.rawValue), evidence(RemedyText.line(of: finding)))
                }))
            )
        )
    }

    /// `folder tree, Containers/…` or `backup /cases/1, AppDomain-…/Library/…`.
    private static func source(_ source: FindingSource) -> Node<HTML.BodyContext> {
        .group(.text(source.kind.rawValue + " "), .code(evidence(source.root)), .text(", "), .code(evidence(source.inner)))
    }

    private var orphans: Node<HTML.BodyContext> {
        .group(
            .h2(.text("Partial files no blob names")),
            .p(.code(.text("resumetool rebuild --partial FILE --url URL")), .text(" makes a blob for one.")),
            .table(
                .class("orphans"),
                .thead(.tr(.th(.text("Path")), .th(.text("App")), .th(.text("Size")), .th(.text("SHA-256")),
                           .th(.text("Modified")), .th(.text("Status changed")), .th(.text("Created")))),
                .tbody(.forEach(inventory.orphanPartialFiles) { orphan in
                    .tr(.td(.code(Self.evidence(orphan.path))), .td(Self.evidence(orphan.bundleID)),
                        .td(.text(ByteCount.describe(orphan.file.size))), .td(.code(.text(orphan.file.sha256 ?? orphan.file.hashSkipped.map(HashSkipText.sentence) ?? "-"))),
                        .td(Self.time(orphan.file.modified)), .td(Self.time(orphan.file.changed)), .td(Self.time(orphan.file.created)))
                })
            )
        )
    }

    /// The archives met among the files: a folder's is read only by `scan --open-archives`.
    private var foundArchives: Node<HTML.BodyContext> {
        .group(
            .h2(.text("Archives found")),
            .p(.code(.text("resumetool scan PATH")), .text(" reads one; "), .code(.text("--open-archives")),
               .text(" reads every one found in a folder.")),
            .table(
                .class("archives"),
                .thead(.tr(.th(.text("Path")), .th(.text("Kind")), .th(.text("Size")), .th(.text("Source")),
                           .th(.text("Modified")), .th(.text("Read")))),
                .tbody(.forEach(inventory.foundArchives) { archive in
                    .tr(.td(.code(Self.evidence(archive.path))), .td(.text(archive.kind)),
                        .td(.text(ByteCount.describe(archive.file.size))), .td(Self.source(archive.file.source)),
                        .td(Self.time(archive.file.modified)),
                        .td(.text(archive.readAs.map { "yes (archive \($0))" } ?? "no")))
                })
            )
        )
    }

    private var safariPartialFiles: Node<HTML.BodyContext> {
        .group(
            .h2(.text("Safari bundles' partial files")),
            .p(.code(.text("resumetool resume NAME.download")), .text(" continues one.")),
            .table(
                .class("safari"),
                .thead(.tr(.th(.text("Path")), .th(.text("URL")), .th(.text("Size")), .th(.text("Bytes received")), .th(.text("SHA-256")),
                           .th(.text("Modified")), .th(.text("Added")), .th(.text("In history")))),
                .tbody(.forEach(inventory.safariPartialFiles) { partial in
                    .tr(.td(.code(Self.evidence(partial.path))), .td(.code(Self.evidence(partial.safariDownload?.url))),
                        .td(.text(ByteCount.describe(partial.file.size))),
                        .td(.text(partial.safariDownload?.bytesReceived.map(ByteCount.describe) ?? "-")),
                        .td(.code(.text(partial.file.sha256 ?? partial.file.hashSkipped.map(HashSkipText.sentence) ?? "-"))),
                        .td(Self.time(partial.file.modified)), .td(Self.time(partial.safariDownload?.dateAdded)),
                        .td(Self.evidence(partial.safariHistoryEntry.map { $0.path + ", " + $0.keyPath })))
                })
            )
        )
    }

    private static func safariHistory(_ history: ScanInventory.SafariHistoryFile) -> Node<HTML.BodyContext> {
        .section(
            .class("safari-history"),
            .h2(.text("Safari download history "), .code(evidence(history.path))),
            .table(
                .thead(.tr(.th(.text("Entry")), .th(.text("URL")), .th(.text("Bytes")), .th(.text("Added")), .th(.text("Finished")),
                           .th(.text("Destination")))),
                .tbody(.forEach(Array(zip(history.history.entries, history.history.keyPaths))) { entry, keyPath in
                    .tr(.td(.code(.text(keyPath))), .td(.code(evidence(entry.url))),
                        .td(.text((entry.bytesReceived.map(ByteCount.describe) ?? "-") + (entry.totalBytes.map { " of " + ByteCount.describe($0) } ?? ""))),
                        .td(time(entry.dateAdded)), .td(time(entry.dateFinished)), .td(.code(evidence(entry.path))))
                })
            ),
            .if(!history.history.problems.isEmpty, .ul(.class("errors"), .forEach(history.history.problems) { problem in
                .li(.class("warning"), evidence(problem))
            }))
        )
    }

    private var errors: Node<HTML.BodyContext> {
        .group(
            .h2(.text("Not read")),
            .ul(.class("errors"), .forEach(inventory.errors) { problem in
                .li(.code(Self.evidence(problem.path)), .text(": "), Self.evidence(problem.message))
            })
        )
    }

    private static let css = """
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#111}
        h1{font-size:1.5em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #999}
        table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
        th{background:#f0f0f0;font-weight:600}section.blob{margin:1.5em 0}
        code{font-family:ui-monospace,monospace;word-break:break-all;white-space:pre-wrap}
        li.error{color:#a00}li.warning{color:#850}ul{margin:0;padding-left:1.2em}
        @media print{body{margin:0}section.blob{break-inside:avoid}}
        """
}
