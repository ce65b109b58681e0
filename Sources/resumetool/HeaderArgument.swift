import ResumeDataCodec
import ResumeTransfer

/// A `-H 'Name: value'` argument, checked as curl would not: a name must be an HTTP token and a
/// value may not hold CR, LF or NUL, so no argument can smuggle a second header or a request line.
enum HeaderArgument {
    /// The field, or why the text is not one (the codec's `HTTPHeaderField` rule).
    static func parse(_ text: String) -> Result<HTTPHeaderField, HeaderError> {
        do {
            return .success(try HTTPHeaderField(parsing: text))
        } catch {
            return .failure(HeaderError("\(error)"))
        }
    }
}

/// Why a `-H` argument was refused.
struct HeaderError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension String {
    /// Without the spaces and tabs at both ends (what HTTP calls optional whitespace).
    func trimmingLeadingAndTrailingBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = self.firstIndex(where: { !blank($0) }), let last = self.lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
