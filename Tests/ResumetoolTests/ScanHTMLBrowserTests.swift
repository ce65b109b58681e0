import Foundation
import Testing
@testable import ResumeDataCodec

/// `scan --html` opened in a real browser (Debian's chromium, headless; Scripts/setup.sh --tests installs it):
/// blobs whose URL and key hold a script, an `onerror` image and a `javascript:` link show as
/// text and run nothing. A control page with the same payloads as markup shows that this browser
/// does run them, so the test can fail; the report is opened with its Content-Security-Policy
/// and again without it, so the escaping alone is shown to hold.
@Suite struct ScanHTMLBrowserTests {
    static let chromium = URL(fileURLWithPath: "/usr/bin/chromium")
    static let titleScript = "<script>document.title=\"pwned\"</script>"
    static let imageTag = "\"><img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">"
    static let keyScript = "<script>document.body.setAttribute(\"data-pwned\",\"key\")</script>"
    static let javascriptURL = "javascript:document.title='pwned-js'"

    /// The DOM after scripts ran (virtual time lets an image's onerror fire), as chromium prints it.
    static func dumpDOM(_ page: URL, profile: URL) throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: chromium.path), "chromium is not installed (apt-get install chromium)")
        let output = try ToolRunner.capture(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
            "--virtual-time-budget=3000", "--dump-dom", page.absoluteString,
        ])
        try #require(output.status == 0, "chromium: \(String(decoding: output.stderr, as: UTF8.self).suffix(2000))")
        return String(decoding: output.stdout, as: UTF8.self)
    }

    @Test func hostileStringsShowAsTextAndRunNothing() throws {
        let directory = try TemporaryDirectory()
        let root = directory.url
        let container = root.appendingPathComponent("tree/Containers/Data/Application/0A1B2C3D-0000-4000-8000-00000000000A")
        for folder in ["tmp", "Library/Caches", "Library/Preferences"] {
            try FileManager.default.createDirectory(at: container.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        // A blob whose URL holds a script and an image with onerror, with its partial file.
        var first = ResumeData(container: .xml)
        first.downloadURL = "https://example.com/" + Self.titleScript + Self.imageTag
        first.tempFileName = "CFNetworkDownload_X.tmp"
        first.bytesReceived = 10
        try first.encoded().write(to: container.appendingPathComponent("Library/Caches/blob"))
        try Data(repeating: 1, count: 10).write(to: container.appendingPathComponent("tmp/CFNetworkDownload_X.tmp"))
        // A blob with a javascript: URL, embedded in a plist under a key that holds a script.
        var second = ResumeData(container: .binary)
        second.downloadURL = Self.javascriptURL
        second.bytesReceived = 5
        let plist: PropertyListValue = [Self.keyScript: .data(try second.encoded())]
        try PropertyListWriter().write(plist, as: .binary).write(to: container.appendingPathComponent("Library/Preferences/prefs.plist"))

        let result = try ToolRunner.run(["scan", "--html", "report.html", "tree"], in: root)
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("2 blobs, 0 orphan partial files, 0 errors\n"))
        let report = root.appendingPathComponent("report.html")
        let page = try String(contentsOf: report, encoding: .utf8)
        // Written atomically, readable by its owner only (a URL may hold a token).
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: report.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)

        let csp = try #require(page.split(separator: "\n").first { $0.contains("Content-Security-Policy") })
        let withoutPolicy = root.appendingPathComponent("report-without-policy.html")
        try Data(page.replacingOccurrences(of: String(csp), with: "").utf8).write(to: withoutPolicy)
        #expect(!(try String(contentsOf: withoutPolicy, encoding: .utf8)).contains("Content-Security-Policy"))

        for file in [report, withoutPolicy] {
            let dom = try Self.dumpDOM(file, profile: root.appendingPathComponent("profile"))
            #expect(dom.contains("<title>resumetool scan report</title>"), "a script changed the title in \(file.lastPathComponent)")
            #expect(!dom.contains("pwned\"</title>") && !dom.contains("<title>pwned"))
            #expect(!dom.contains("data-pwned=\""), "a script or onerror ran in \(file.lastPathComponent)")
            #expect(!dom.contains("<script"))
            #expect(!dom.contains("<img"))
            #expect(!dom.contains("href="), "a live link in \(file.lastPathComponent)")
            // The strings themselves are there, as text.
            #expect(dom.contains("https://example.com/&lt;script&gt;document.title=\"pwned\"&lt;/script&gt;\"&gt;&lt;img src=x onerror=\"document.body.setAttribute('data-pwned','img')\"&gt;"))
            #expect(dom.contains("&lt;script&gt;document.body.setAttribute(\"data-pwned\",\"key\")&lt;/script&gt;"))
            #expect(dom.contains("<code>javascript:document.title='pwned-js'</code>"))
        }
    }

    /// The same payloads as markup do run in this browser: the test above can fail.
    @Test func controlPageRunsItsScripts() throws {
        let directory = try TemporaryDirectory()
        let control = directory.url.appendingPathComponent("control.html")
        let markup = "<!DOCTYPE html><html><head><title>control</title></head><body><p>x" + Self.imageTag + "</p>"
            + Self.keyScript + Self.titleScript + "</body></html>"
        try Data(markup.utf8).write(to: control)
        let dom = try Self.dumpDOM(control, profile: directory.url.appendingPathComponent("profile"))
        #expect(dom.contains("<title>pwned</title>"))
        #expect(dom.contains("data-pwned=\"img\"") || dom.contains("data-pwned=\"key\""))
        #expect(dom.contains("<img"))
    }
}
