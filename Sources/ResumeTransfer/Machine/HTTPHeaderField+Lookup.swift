import NIOHTTP1
import ResumeDataCodec

extension [HTTPHeaderField] {
    /// The first value of the header `name`, compared case-insensitively.
    func value(of name: String) -> String? {
        let wanted = name.lowercased()
        return self.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of the header `name`, joined as RFC 9110 (5.3) combines field lines: `", "`
    /// between them. A structured field sent twice thus reads as a list, which no Item parses
    /// (RFC 9651, 4.2), so `Upload-Offset: 5` twice is refused rather than its first taken.
    func combinedValue(of name: String) -> String? {
        let wanted = name.lowercased()
        let values = self.filter { $0.name.lowercased() == wanted }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

extension HTTPHeaderField {
    /// A response head's fields, in order, for both transports (NIO decodes each). NIO's parser
    /// refuses a CR, LF or NUL and a name that is not a token, so no field is dropped in practice;
    /// one that broke the rule all the same is left out rather than carried unchecked.
    static func fields(of headers: HTTPHeaders) -> [HTTPHeaderField] {
        headers.compactMap { try? HTTPHeaderField(name: $0.name, value: $0.value) }
    }

    /// A field the engine makes itself (`Accept-Encoding`, `Range`, `If-Range`) from a name it
    /// spells and a value it has checked or formatted; nil only if that value broke the rule.
    static func engine(_ name: String, _ value: String) -> HTTPHeaderField? {
        try? HTTPHeaderField(name: name, value: value)
    }
}
