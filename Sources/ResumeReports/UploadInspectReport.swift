import Foundation
import ResumeDataCodec

/// What `resumetool inspect` shows of one *upload* blob, as text for people or as JSON.
public struct UploadInspectReport: Sendable {
    let name: String
    let upload: UploadResumeData
    let findings: [ResumeDataFinding]

    /// The report on `upload`, read from the file `name`, with the validator's `findings`.
    public init(name: String, upload: UploadResumeData, findings: [ResumeDataFinding]) {
        self.name = name
        self.upload = upload
        self.findings = findings
    }

    /// The mask as hex digits, two a byte: `52554648 2d6d6b21` reads as the 8 bytes it is.
    var maskHex: String { Self.maskHex(upload.mask) }

    private static func maskHex(_ mask: [UInt8]) -> String { mask.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

    // MARK: JSON

    /// The report as `resumetool inspect --json` prints it for one blob.
    public var jsonText: String { json.rendered() }

    package var json: JSONValue {
        .object([("kind", .string("upload"))] + Self.members(of: upload) + [("findings", ValidateReport.json(for: findings))])
    }

    /// What the blob says, as JSON members: draft version, resume URL, body type and body, mask,
    /// original request and other keys (`inspect`, `tasks` and `scan` alike).
    static func members(of upload: UploadResumeData) -> [(String, JSONValue)] {
        let request = try? upload.originalRequest()
        return [
            ("draftVersion", .optionalString(upload.draftVersion)),
            ("resumeURL", .optionalString(upload.resumeURL?.absoluteString)),
            ("bodyType", upload.bodyType.map(JSONValue.integer) ?? .null),
            ("body", json(for: upload.body)),
            ("mask", .string(maskHex(upload.mask))),
            ("originalRequest", request.map(InspectReport.json(for:)) ?? .null),
            ("otherKeys", .object(upload.otherEntries.map { ($0.key, .object([("type", .string($0.value.kindName)), ("value", .string($0.value.description))])) })),
        ]
    }

    private static func json(for body: UploadBody) -> JSONValue {
        switch body {
        case .data(let bytes): .object([("type", .string(body.name)), ("size", bytes.map { .integer(Int64($0.count)) } ?? .null)])
        case .file(let url): .object([("type", .string(body.name)), ("url", .optionalString(url?.absoluteString))])
        case .stream(let length): .object([("type", .string(body.name)), ("length", length.map(JSONValue.integer) ?? .null)])
        case .unknown: .object([("type", .string(body.name))])
        }
    }

    // MARK: Text

    /// The report as `resumetool inspect` prints it.
    public var text: String {
        var lines = ["\(name):"]
        func field(_ label: String, _ value: String?) {
            lines.append(InspectReport.fieldLine(label, value))
        }
        field("kind", "upload (URLSession upload task)")
        field("draft version", upload.draftVersion.map(Self.draftVersionText))
        field("resume URL", upload.resumeURL?.absoluteString)
        field("body", Self.text(for: upload.body))
        field("mask", upload.mask.allSatisfy { $0 == 0 } ? "none (the blob starts bplist00)" : maskHex)
        switch Result(catching: { try upload.originalRequest() }) {
        case .success(let request?):
            field("original request", "\(request.method) \(request.urlString ?? "(no URL)")")
            lines += InspectReport.detailLines(of: request)
        case .success(nil): field("original request", nil)
        case .failure: field("original request", "unreadable (see findings)")
        }
        let others = upload.otherEntries
        if !others.isEmpty {
            lines.append("  other keys:")
            for entry in others { lines.append("    \(VisibleText.escaping(entry.key)): \(VisibleText.escaping(entry.value.description))") }
        }
        lines += InspectReport.findingLines(findings)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A draft version with the systems that write it: `6 (as iOS 18.1+ … write it)`.
    static func draftVersionText(_ text: String) -> String {
        UploadDraftVersion(text).flatMap(\.appleSystems).map { "\(text) (as \($0) write it)" } ?? text
    }

    /// The body as one line: `file file:///…`, `data, 1,000 bytes in the blob`, `stream of …`.
    static func text(for body: UploadBody) -> String {
        switch body {
        case .data(let bytes?): "data, " + ByteCount.describe(Int64(bytes.count)) + " in the blob"
        case .data(nil): "data (missing from the blob)"
        case .file(let url?): "file " + url.absoluteString
        case .file(nil): "file (no URL in the blob)"
        case .stream(let length?): "stream of " + ByteCount.describe(length)
        case .stream(nil): "stream of unknown length"
        case .unknown(let type?): "unknown body type \(type)"
        case .unknown(nil): "-"
        }
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
