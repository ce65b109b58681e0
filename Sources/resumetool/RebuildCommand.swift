import ArgumentParser
import Foundation
import ResumeDataCodec

/// `resumetool rebuild --from TMPFILE --url URL …`
struct RebuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Make a resume blob from a partial download file when none was saved.",
        discussion: """
            The file's size becomes the bytes received and the current request asks for `Range: bytes=<size>-`. Give --etag or --last-modified (the server's values): without one a device refuses to resume.

            Example:
              resumetool rebuild --from CFNetworkDownload_Occ2S2.tmp \\
                  --url https://example.com/big.dmg --etag '"afda885a"' \\
                  --format keyed-archive -o big.resumedata

            Exit status: 0 written, 1 the file cannot be read or the output written, 64 usage error (a malformed --header, a URL that is not http or https).
            """
    )

    @Option(name: .long, help: "The partial download file.")
    var from: String

    @Option(name: .long, help: "The URL being downloaded (http or https).")
    var url: String

    @Option(name: .long, help: "The server's ETag, quotes included.")
    var etag: String?

    @Option(name: .customLong("last-modified"), help: "The server's Last-Modified date.")
    var lastModified: String?

    @Option(name: .customLong("header"), help: "An extra request header, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(name: .long, help: "The container: xml (iOS ≤ 11), keyed-archive (iOS 12+, the default), binary, keyed-archive-xml.")
    var format: ResumeDataContainer = .keyedArchive

    @Flag(name: .customLong("local-path"), help: "Name the partial file by its absolute path (LocalPath) instead of its bare name.")
    var useLocalPath = false

    @Option(name: .shortAndLong, help: "The output file (replaced atomically), or - for standard output (the default).")
    var output: String?

    func validate() throws {
        guard !format.isNetworkFramework else {
            // That format keeps its validator only in an archived response, which a partial file cannot tell.
            throw ValidationError("--format \(format) is not a container rebuild writes: use xml, binary, keyed-archive or keyed-archive-xml")
        }
        for header in headers {
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex else {
                throw ValidationError("--header must be 'Name: value', not '\(header)'")
            }
        }
    }

    func run() throws {
        let parsedHeaders = headers.compactMap { header -> (name: String, value: String)? in
            guard let colon = header.firstIndex(of: ":") else { return nil }
            return (String(header[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        try reportingDiagnostics {
            let rebuilder = ResumeDataRebuilder(url: url, entityTag: etag, lastModified: lastModified,
                                                headers: parsedHeaders, container: format, useLocalPath: useLocalPath)
            let resume: ResumeData
            do {
                resume = try rebuilder.rebuild(fromPartialFile: from)
            } catch let error as ResumeDataError where error.code == .partialFile {
                // The library's message starts with the path; the diagnostic already names the file.
                var message = error.message
                for prefix in [from + ": ", from + " "] where message.hasPrefix(prefix) {
                    message = String(message.dropFirst(prefix.count))
                    break
                }
                throw Diagnostic(file: from, message: message)
            } catch let error as ResumeDataError where error.code == .invalidArgument {
                // A bad --url is a usage error (exit 64), like a malformed --header.
                throw Diagnostic.usageError(error.message, command: "rebuild")
            } catch {
                throw Diagnostic(file: "resumetool rebuild", message: "\(error)")
            }
            try BlobFile.write(resume, as: format, to: OutputFile(output))
        }
    }
}
