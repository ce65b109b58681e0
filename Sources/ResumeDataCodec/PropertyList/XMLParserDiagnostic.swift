import Foundation

/// Turns one of libxml2's parser errors into the error users see, rewording the common ones to
/// say what was expected and what was found.
struct XMLParserDiagnostic {
    /// libxml2's `xmlParserErrors` value.
    var code: Int
    /// libxml2's message, without the final newline.
    var message: String
    /// libxml2's extra strings and number; for a tag mismatch: the open tag, the closing one,
    /// and the line of the open tag.
    var str1: String?
    var str2: String?
    var int1: Int

    // The few xmlParserErrors values reworded below (stable since libxml2 2.6).
    private static let internalError = 1
    private static let documentEmpty = 4
    private static let documentEnd = 5
    private static let invalidChar = 9
    private static let entityRefSemicolonMissing = 23
    private static let undeclaredEntity = 26
    private static let undeclaredEntityWarning = 27
    private static let unknownEncoding = 31
    private static let unsupportedEncoding = 32
    private static let tagNameMismatch = 76
    private static let tagNotFinished = 77
    private static let invalidEncoding = 81
    private static let extraContent = 86

    func error(at location: PropertyListError.Location) -> PropertyListError {
        switch code {
        case Self.tagNameMismatch:
            let open = str1 ?? "?"
            let close = str2 ?? "?"
            return PropertyListError(.malformedXML, "expected </\(open)> (opened on line \(int1)), found </\(close)>", at: location)
        case Self.tagNotFinished:
            return PropertyListError(.truncated, "the input ends inside <\(str1 ?? "?")> opened on line \(int1)", at: location)
        case Self.documentEmpty where message.hasPrefix("Start tag expected"):
            return PropertyListError(.unknownFormat, "not a property list: expected XML (<plist> or a value) or binary data starting with bplist00", at: location)
        case Self.documentEmpty:
            return PropertyListError(.truncated, "the document is empty: expected <plist> or a value", at: location)
        case Self.documentEnd, Self.extraContent:
            return PropertyListError(.malformedXML, "expected the end of the document after the top element", at: location)
        case Self.entityRefSemicolonMissing:
            return PropertyListError(.malformedXML, "expected ';' to end the entity reference (write a literal '&' as &amp;)", at: location)
        case Self.undeclaredEntity, Self.undeclaredEntityWarning:
            return PropertyListError(
                .malformedXML,
                "\(message): a property list may use only &amp; &lt; &gt; &apos; &quot; and character references",
                at: location)
        case Self.invalidChar, Self.invalidEncoding, Self.unknownEncoding, Self.unsupportedEncoding:
            // libxml2 puts the offending bytes on a second line: "…, indicate encoding !\nBytes: 0xFF …".
            let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            if message.contains("not proper UTF-8") {
                let bytes = lines.dropFirst().joined(separator: " ")
                return PropertyListError(.invalidString, "the text is not valid UTF-8\(bytes.isEmpty ? "" : " (\(bytes))")", at: location)
            }
            return PropertyListError(.invalidString, "invalid text: \(lines.joined(separator: " "))", at: location)
        case Self.internalError where message.hasPrefix("Excessive depth"):
            return PropertyListError(.tooDeep, "elements nested more than \(int1 > 0 ? String(int1) : "256") deep, the most libxml2 reads", at: location)
        case Self.internalError where message.contains("detected an error in element content"):
            // libxml2's wording for markup it cannot parse inside an element, such as `<!test>`.
            return PropertyListError(.malformedXML, "markup that is not well-formed XML: expected a tag, text, a comment or CDATA", at: location)
        default:
            return PropertyListError(.malformedXML, message.isEmpty ? "malformed XML (libxml2 error \(code))" : message, at: location)
        }
    }
}
