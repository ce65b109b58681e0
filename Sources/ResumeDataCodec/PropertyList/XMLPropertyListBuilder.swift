import Foundation

/// Builds a ``PropertyListValue`` from the element events of an XML property list, checking the
/// plist grammar (libxml2 has already checked that the XML is well formed) and the read limits.
///
/// Containers are kept on an explicit stack, so nesting costs no call depth.
struct XMLPropertyListBuilder {
    private enum Frame {
        case array([PropertyListValue])
        case dictionary(PropertyListDictionary, key: String?, keyLine: UInt32, keyColumn: UInt32)
    }

    private struct OpenLeaf {
        var element: XMLPlistElement
        var line: UInt32
        var column: UInt32
    }

    private let options: PropertyListReadOptions
    private var stack: [Frame] = []
    private var leaf: OpenLeaf?
    private var insidePlist = false
    private var result: PropertyListValue?
    private var objectCount = 0
    /// Duplicate keys kept under ``PropertyListReadOptions/DuplicateKeyPolicy/keepLast``, each at
    /// its second `<key>`.
    private(set) var warnings: [PropertyListError] = []

    init(options: PropertyListReadOptions) {
        self.options = options
    }

    /// Handles one event; `text` is the character data that came before it.
    mutating func handle(kind: UInt8, element rawElement: UInt8, line: UInt32, column: UInt32, text: UnsafeBufferPointer<UInt8>, unknownName: () -> String) throws {
        let element = XMLPlistElement(rawValue: rawElement) ?? .unknown
        let isStart = kind == 1
        if let open = leaf {
            // libxml2 guarantees well-formedness, so an end event here closes the open leaf.
            guard !isStart else {
                let found = element == .unknown ? unknownName() : element.name
                throw error(.unexpectedElement, "expected </\(open.element.name)>, found <\(found)>", line, column)
            }
            leaf = nil
            try finishLeaf(open, text: text)
            return
        }
        if !text.isEmpty {
            let shown = Self.excerpt(text)
            let tag = isStart ? "<\(element == .unknown ? unknownName() : element.name)>" : "</\(element.name)>"
            throw error(.unexpectedElement, "expected an element, found text \"\(shown)\" before \(tag)", line, column)
        }
        if isStart {
            try start(element, line: line, column: column, unknownName: unknownName)
        } else {
            try end(element, line: line, column: column)
        }
    }

    /// The value, once the document has ended.
    func finish() throws -> PropertyListValue {
        guard let result else {
            throw PropertyListError(.truncated, "the document holds no property-list value")
        }
        return result
    }

    private mutating func start(_ element: XMLPlistElement, line: UInt32, column: UInt32, unknownName: () -> String) throws {
        if element != .plist && element != .unknown {
            // Keys count too: each costs a string, like a value.
            objectCount += 1
            guard objectCount <= options.maximumObjectCount else {
                throw error(.tooManyObjects, "more than \(options.maximumObjectCount) elements", line, column)
            }
        }
        switch element {
        case .unknown:
            throw error(.unexpectedElement, "unknown element <\(unknownName())>: expected \(expectation())", line, column)
        case .plist:
            guard stack.isEmpty, result == nil, !insidePlist else {
                throw error(.unexpectedElement, "expected \(expectation()), found <plist>", line, column)
            }
            insidePlist = true
        case .key:
            guard case .dictionary(_, let key, _, _)? = stack.last else {
                throw error(.unexpectedElement, "expected \(expectation()), found <key>", line, column)
            }
            if let key {
                throw error(.unexpectedElement, "expected a value for key \"\(key)\", found <key>", line, column)
            }
            leaf = OpenLeaf(element: .key, line: line, column: column)
        default:
            try checkValueAllowed(element, line: line, column: column)
            switch element {
            case .dict:
                guard stack.count < options.effectiveMaximumDepth else {
                    throw error(.tooDeep, "containers nested deeper than the limit of \(options.effectiveMaximumDepth)", line, column)
                }
                stack.append(.dictionary(PropertyListDictionary(), key: nil, keyLine: 0, keyColumn: 0))
            case .array:
                guard stack.count < options.effectiveMaximumDepth else {
                    throw error(.tooDeep, "containers nested deeper than the limit of \(options.effectiveMaximumDepth)", line, column)
                }
                stack.append(.array([]))
            default:
                leaf = OpenLeaf(element: element, line: line, column: column)
            }
        }
    }

    /// A value may start where the grammar wants one: at the top (once), in an array, or after a key.
    private func checkValueAllowed(_ element: XMLPlistElement, line: UInt32, column: UInt32) throws {
        switch stack.last {
        case nil:
            if result != nil {
                throw error(.unexpectedElement, "expected </plist>, found a second top-level value <\(element.name)>", line, column)
            }
        case .array:
            break
        case .dictionary(_, let key, _, _):
            if key == nil {
                throw error(.unexpectedElement, "expected <key> or </dict>, found <\(element.name)>", line, column)
            }
        }
    }

    private mutating func end(_ element: XMLPlistElement, line: UInt32, column: UInt32) throws {
        switch element {
        case .plist:
            guard result != nil else {
                throw error(.unexpectedElement, "expected a value inside <plist>, found </plist>", line, column)
            }
            insidePlist = false
        case .dict:
            guard case .dictionary(let dictionary, let key, _, _)? = stack.popLast() else {
                throw error(.unexpectedElement, "unexpected </dict>", line, column)
            }
            if let key {
                stack.append(.dictionary(dictionary, key: key, keyLine: 0, keyColumn: 0))
                throw error(.unexpectedElement, "expected a value for key \"\(key)\", found </dict>", line, column)
            }
            try deliver(Self.uidOrDictionary(dictionary), line: line, column: column)
        case .array:
            guard case .array(let items)? = stack.popLast() else {
                throw error(.unexpectedElement, "unexpected </array>", line, column)
            }
            try deliver(.array(items), line: line, column: column)
        default:
            throw error(.unexpectedElement, "unexpected </\(element.name)>", line, column)
        }
    }

    /// Apple reads a dictionary that is exactly `{CF$UID: integer}` as a keyed-archive reference.
    private static func uidOrDictionary(_ dictionary: PropertyListDictionary) -> PropertyListValue {
        if dictionary.count == 1, case .integer(let number)? = dictionary["CF$UID"], let uid = number.uint64Value {
            return .uid(uid)
        }
        return .dictionary(dictionary)
    }

    private mutating func finishLeaf(_ open: OpenLeaf, text: UnsafeBufferPointer<UInt8>) throws {
        let value: PropertyListValue
        switch open.element {
        case .key:
            let key = String(decoding: text, as: UTF8.self)
            guard case .dictionary(let dictionary, _, _, _)? = stack.popLast() else { return }
            stack.append(.dictionary(dictionary, key: key, keyLine: open.line, keyColumn: open.column))
            return
        case .string:
            value = .string(String(decoding: text, as: UTF8.self))
        case .integer:
            do {
                value = .integer(try XMLScalarText.parseInteger(text))
            } catch .overflow {
                throw error(.integerOverflow, "<integer> \(Self.excerpt(text)) is outside the 64-bit range (\(Int64.min) to \(UInt64.max))", open.line, open.column)
            } catch {
                throw self.error(.invalidValue, "expected a decimal or 0x-prefixed hexadecimal integer in <integer>, found \"\(Self.excerpt(text))\"" + Self.blankNote(text, around: false), open.line, open.column)
            }
        case .real:
            guard let number = XMLScalarText.parseReal(text) else {
                let hexadecimal = XMLScalarText.looksHexadecimal(XMLScalarText.trimmed(text)) ? " (Apple's reader refuses hexadecimal reals)" : ""
                throw error(.invalidValue, "expected a decimal number, nan or [+-]infinity in <real>, found \"\(Self.excerpt(text))\"" + hexadecimal + Self.blankNote(text, around: false), open.line, open.column)
            }
            value = .real(PropertyListReal(number))
        case .date:
            guard let date = ISO8601DateText.parse(text) else {
                throw error(.invalidValue, "expected a date like 2015-04-20T08:05:49Z in <date>, found \"\(Self.excerpt(text))\"" + Self.blankNote(text, around: true), open.line, open.column)
            }
            value = .date(date)
        case .data:
            do {
                value = .data(try XMLBase64.decode(text))
            } catch {
                throw self.error(.invalidValue, "invalid base64 in <data>: \(error.reason)", open.line, open.column)
            }
        case .true, .false:
            guard XMLScalarText.trimmed(text).isEmpty else {
                throw error(.invalidValue, "expected <\(open.element.name)/> to be empty, found text \"\(Self.excerpt(text))\"", open.line, open.column)
            }
            value = .boolean(open.element == .true)
        case .unknown, .plist, .dict, .array:
            return
        }
        try deliver(value, line: open.line, column: open.column)
    }

    /// Puts a finished value into the container being read, or makes it the result.
    ///
    /// The container is changed in place: its frame is emptied before the change and refilled
    /// after, so the stack holds no second reference that would make each append copy the whole
    /// container (quadratic time in its size).
    private mutating func deliver(_ value: PropertyListValue, line: UInt32, column: UInt32) throws {
        guard let last = stack.indices.last else {
            result = value
            return
        }
        switch stack[last] {
        case .array(var items):
            stack[last] = .array([])
            items.append(value)
            stack[last] = .array(items)
        case .dictionary(var dictionary, let key?, let keyLine, let keyColumn):
            stack[last] = .array([])
            // updateValue keeps the first position and the last value, as Apple's reader does.
            let duplicate = dictionary.updateValue(value, forKey: key) != nil
            stack[last] = .dictionary(dictionary, key: nil, keyLine: 0, keyColumn: 0)
            if duplicate {
                let path = (keyPath() ?? "root") + ".\(key)"
                let at = PropertyListError.Location.lineColumn(line: Int(max(keyLine, 1)), column: Int(max(keyColumn, 1)))
                guard options.duplicateKeys == .keepLast else {
                    throw PropertyListError(.duplicateKey, "duplicate key \"\(key)\" in <dict>: each key may appear once", at: at, keyPath: path)
                }
                warnings.append(PropertyListError(.duplicateKey, "duplicate key \"\(key)\" in <dict>; the last value is kept", at: at, keyPath: path))
            }
        case .dictionary(_, nil, _, _):
            // Unreachable: checkValueAllowed refuses a value without a key.
            throw error(.unexpectedElement, "a value without a <key>", line, column)
        }
    }

    /// What may come next, for messages.
    private func expectation() -> String {
        switch stack.last {
        case nil:
            if result != nil { return "</plist>" }
            return insidePlist ? "a value inside <plist>" : "<plist> or a value"
        case .array: return "a value or </array>"
        case .dictionary(_, let key?, _, _): return "a value for key \"\(key)\""
        case .dictionary(_, nil, _, _): return "<key> or </dict>"
        }
    }

    private func error(_ code: PropertyListError.Code, _ reason: String, _ line: UInt32, _ column: UInt32) -> PropertyListError {
        PropertyListError(code, reason, at: .lineColumn(line: Int(max(line, 1)), column: Int(max(column, 1))), keyPath: keyPath())
    }

    /// Where the reader is inside the value: `root.items[2].name`; `nil` at the top.
    private func keyPath() -> String? {
        guard !stack.isEmpty else { return nil }
        var path = "root"
        for frame in stack {
            switch frame {
            case .array(let items): path += "[\(items.count)]"
            case .dictionary(_, let key?, _, _): path += ".\(key)"
            case .dictionary(_, nil, _, _): break
            }
        }
        return path
    }

    /// Says why a value that looks right in an excerpt (which drops blanks) was refused: Apple's
    /// readers allow blanks before a number but none after it, and none around a date.
    private static func blankNote(_ text: UnsafeBufferPointer<UInt8>, around: Bool) -> String {
        guard let first = text.first, let last = text.last, !XMLScalarText.trimmed(text).isEmpty else { return "" }
        if around {
            return XMLScalarText.isSpace(first) || XMLScalarText.isSpace(last) ? " (Apple's reader allows no blanks around a date)" : ""
        }
        return XMLScalarText.isSpace(last) ? " (Apple's reader allows no blanks after the number)" : ""
    }

    /// The start of some text, for messages.
    private static func excerpt(_ text: UnsafeBufferPointer<UInt8>) -> String {
        let trimmed = XMLScalarText.trimmed(text)
        let shown = String(decoding: UnsafeBufferPointer(rebasing: trimmed.prefix(40)), as: UTF8.self)
        return trimmed.count > 40 ? shown + "…" : shown
    }
}
