import Foundation
import ResumeDataCodec

/// What `resumetool inspect` shows of one blob, as text for people or as JSON.
public struct InspectReport: Sendable {
    let name: String
    let resume: ResumeData
    let findings: [ResumeDataFinding]

    /// The report on `resume`, read from the file `name`, with the validator's `findings`.
    public init(name: String, resume: ResumeData, findings: [ResumeDataFinding]) {
        self.name = name
        self.resume = resume
        self.findings = findings
    }

    static let cachePolicyNames = [
        0: "useProtocolCachePolicy", 1: "reloadIgnoringLocalCacheData", 2: "returnCacheDataElseLoad",
        3: "returnCacheDataDontLoad", 4: "reloadIgnoringLocalAndRemoteCacheData", 5: "reloadRevalidatingCacheData",
    ]

    // MARK: JSON

    /// The report as `resumetool inspect --json` prints it for one blob.
    public var jsonText: String { json.rendered() }

    package var json: JSONValue {
        .object([
            ("container", .string(resume.container.rawValue)),
            ("infoVersion", resume.infoVersion.map(JSONValue.integer) ?? .null),
            ("downloadURL", .optionalString(resume.downloadURL)),
            ("bytesReceived", resume.bytesReceived.map(JSONValue.integer) ?? .null),
            ("tempFileName", .optionalString(resume.tempFileName)),
            ("localPath", .optionalString(resume.localPath)),
            ("entityTag", .optionalString(resume.effectiveEntityTag)),
            ("serverDownloadDate", .optionalString(resume.effectiveServerDownloadDate)),
            ("byteRange", .optionalString(resume.byteRange)),
            ("currentRequest", resume.currentRequest.map(Self.json(for:)) ?? .null),
            ("originalRequest", resume.originalRequest.map(Self.json(for:)) ?? .null),
            ("response", resume.response.map(Self.json(for:)) ?? .null),
            ("otherKeys", .object(resume.otherEntries.map { ($0.key, Self.shortJSON(for: $0.value)) })),
            ("findings", ValidateReport.json(for: findings)),
        ])
    }

    package static func json(for request: URLRequestArchive) -> JSONValue {
        .object([
            ("url", .optionalString(request.urlString)),
            ("method", .string(request.method)),
            ("headers", .object(request.headers.map { ($0.name, .string($0.value)) })),
            ("timeoutInterval", request.timeoutInterval.map(JSONValue.real) ?? .null),
            ("cachePolicy", request.cachePolicy.map(JSONValue.integer) ?? .null),
            ("bodyBase64", request.body.map { .string($0.base64EncodedString()) } ?? .null),
            ("layout", .string(request.layout.rawValue)),
        ])
    }

    package static func json(for response: ArchivedURLResponse) -> JSONValue {
        .object([
            ("url", .optionalString(response.urlString)),
            ("statusCode", response.statusCode.map(JSONValue.integer) ?? .null),
            ("mimeType", .optionalString(response.mimeType)),
            ("expectedContentLength", response.expectedContentLength.map(JSONValue.integer) ?? .null),
            ("headers", .object(response.headers.map { ($0.name, .string($0.value)) })),
        ])
    }

    /// `{type, value}` with a value short enough for a listing: scalars as they are, data and
    /// containers by size.
    static func shortJSON(for value: PropertyListValue) -> JSONValue {
        let short: JSONValue
        switch value {
        case .string(let text): short = .string(text.count > 200 ? String(text.prefix(200)) + "…" : text)
        case .integer(let number): short = .number(number.description)
        case .real(let real): short = .real(real.value)
        case .boolean(let flag): short = .bool(flag)
        case .date(let date): short = DateText.json(date)
        case .data(let bytes): short = .string(counted(bytes.count, "byte", "bytes"))
        case .array(let items), .set(let items): short = .string(counted(items.count, "item", "items"))
        case .dictionary(let dictionary): short = .string(counted(dictionary.count, "entry", "entries"))
        case .uid(let reference): short = .integer(reference)
        case .null: short = .null
        }
        return .object([("type", .string(value.typeName)), ("value", short)])
    }

    private static func counted(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }

    // MARK: Text

    /// The report as `resumetool inspect` prints it.
    public var text: String {
        var lines = ["\(name):"]
        func field(_ label: String, _ value: String?) {
            lines.append(Self.fieldLine(label, value))
        }
        field("container", resume.container.rawValue + (resume.networkLayout.map { ", \($0) layout" } ?? ""))
        field("info version", resume.infoVersion.map(String.init))
        field("download URL", resume.downloadURL)
        let response = resume.response
        field("bytes received", Self.progress(received: resume.bytesReceived, total: resume.expectedTotalBytes,
                                              networkFramework: resume.container.isNetworkFramework))
        field("temp file", resume.tempFileName)
        field("local path", resume.localPath)
        field("entity tag", resume.entityTag ?? response?.entityTag.map { "\($0) (from the response)" })
        field("server date", resume.serverDownloadDate ?? response?.lastModified.map { "\($0) (from the response)" })
        if let byteRange = resume.byteRange { field("byte range", byteRange) }
        for kind in ResumeData.RequestKind.allCases {
            let label = "\(kind.rawValue) request"
            guard let request = try? resume.request(kind) else {
                field(label, resume.entries[kind.key] == nil ? nil : "unreadable (see findings)")
                continue
            }
            field(label, "\(request.method) \(request.urlString ?? "(no URL)")")
            lines += Self.detailLines(of: request)
        }
        if let response {
            var summary = [response.className]
            if let status = response.statusCode { summary.append(String(status)) }
            if let mimeType = response.mimeType { summary.append(mimeType) }
            field("response", summary.joined(separator: " ") + " " + (response.urlString ?? "(no URL)"))
            var details = ["\(response.layout.rawValue) layout"]
            if let length = response.expectedContentLength { details.append("length " + ByteCount.describe(length)) }
            if let date = response.date { details.append("made " + DateText.text(date)) }
            lines.append("    " + details.joined(separator: ", "))
            for header in response.headers { lines.append("    \(VisibleText.escaping(header.name)): \(VisibleText.escaping(header.value))") }
        } else if resume.entries[ResumeDataKey.response] != nil {
            field("response", "unreadable (see findings)")
        }
        let others = resume.otherEntries
        if !others.isEmpty {
            lines.append("  other keys:")
            for (key, value) in others { lines.append("    \(VisibleText.escaping(key)): \(PropertyListTree.summary(of: value))") }
        }
        lines += Self.findingLines(findings)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `  label:            value` (`-` for none), the value through ``VisibleText``: one line of
    /// an inspect report, download or upload.
    static func fieldLine(_ label: String, _ value: String?) -> String {
        "  " + (label + ":").padding(toLength: 20, withPad: " ", startingAt: 0) + (value.map(VisibleText.escaping) ?? "-")
    }

    /// The report's last lines: `findings: none`, or a line per finding.
    static func findingLines(_ findings: [ResumeDataFinding]) -> [String] {
        guard !findings.isEmpty else { return [fieldLine("findings", "none")] }
        return ["  findings:"] + findings.map { "    " + VisibleText.escaping(RemedyText.line(of: $0)) }
    }

    /// The lines under a request's own: layout, timeout, cache policy and body, then a header
    /// a line, text from the blob through ``VisibleText``.
    static func detailLines(of request: URLRequestArchive) -> [String] {
        var details = ["\(request.layout.rawValue) layout"]
        if let timeout = request.timeoutInterval { details.append("timeout \(number(timeout)) s") }
        if let policy = request.cachePolicy {
            details.append("cache policy \(policy)" + (cachePolicyNames[Int(policy)].map { " (\($0))" } ?? ""))
        }
        details.append("body " + (request.body.map { ByteCount.describe(Int64($0.count)) } ?? "none"))
        return ["    " + details.joined(separator: ", ")]
            + request.headers.map { "    \(VisibleText.escaping($0.name)): \(VisibleText.escaping($0.value))" }
    }

    /// `68,188 of 7,936,993 bytes (0.9 %)` when the total is known, else as ``ByteCount`` puts it.
    static func progress(received: Int64?, total: Int64?, networkFramework: Bool) -> String? {
        guard let received else {
            guard networkFramework else { return nil }
            return "not in the blob (the partial file's size)" + (total.map { "; \(ByteCount.grouping($0)) bytes in all" } ?? "")
        }
        guard let total, total > 0 else { return ByteCount.describe(received) }
        let percent = Double(received) / Double(total) * 100
        return "\(ByteCount.grouping(received)) of \(ByteCount.grouping(total)) bytes (\(String(format: "%.1f", percent)) %)"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
