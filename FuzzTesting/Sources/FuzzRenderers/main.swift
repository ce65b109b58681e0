import Foundation
import FuzzCommon
import ResumeDataCodec
import ResumeReports

// Every output the CLI renders from a decoded plist or blob: `plist print`, `plist convert` to
// XML, binary and JSON, `archive` as text and JSON, `inspect` as text and JSON with the
// validator's findings, `convert` to each container, through the ResumeReports product the CLI
// prints with. Properties: nothing traps; what claims to be JSON, XML or a plist parses again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRenderers(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = fuzzData(start, count)
    let reader = PropertyListReader(options: .init(duplicateKeys: .keepLast))
    guard let (value, _) = try? reader.read(data) else { return 0 }

    _ = PropertyListTree.render(value)
    mustParseJSON(PropertyListJSON.text(for: value).json, "plist convert --to json")
    for format in [PropertyListFormat.xml, .binary] {
        // Refusing a value the format cannot spell is fine; writing one that does not read back is not.
        guard let bytes = try? PropertyListWriter().write(value, as: format) else { continue }
        do {
            _ = try reader.read(bytes)
        } catch {
            propertyFailed("FuzzRenderers", "our \(format) output does not read: \(error)")
        }
    }

    if let archive = try? ArchiveTreeReport(name: "archive", bytes: data) {
        _ = archive.text
        mustParseJSON(archive.jsonText, "archive --json")
    }

    guard let resume = try? ResumeData(data: data) else { return 0 }
    let findings = ResumeDataValidator().findings(for: resume)
    let report = InspectReport(name: "blob", resume: resume, findings: findings)
    _ = report.text
    mustParseJSON(report.jsonText, "inspect --json")
    for container in ResumeDataContainer.allCases {
        guard let bytes = try? resume.encoded(as: container) else { continue }
        do {
            _ = try ResumeData(data: bytes)
        } catch {
            propertyFailed("FuzzRenderers", "convert --to \(container) wrote a blob that does not read: \(error)")
        }
    }
    return 0
}

private func mustParseJSON(_ text: String, _ what: String) {
    do {
        _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    } catch {
        propertyFailed("FuzzRenderers", "\(what) printed JSON that does not parse: \(error)\n\(text.prefix(2000))")
    }
}
