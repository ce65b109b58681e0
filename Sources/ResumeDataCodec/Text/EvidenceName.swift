/// How the scan spells a name or a path it found in evidence (a folder's entries, an archive's
/// members) and any name a blob gives for a file there, and the bytes such a spelling stands
/// for: the one rule by which two paths compare equal only when their bytes are the same.
///
/// A name that is UTF-8 and holds no `\x{` is spelled as it is; any other name is escaped in
/// `VisibleText`'s notation, each byte that is not UTF-8 as `\x{ff}` and each backslash as
/// `\x{5c}`. Names from Linux copies, tars and old zips are often Latin-1 or CP437: decoded with
/// replacement characters, `caf` then byte E9 and `caf` then byte FF would both become
/// `caf\u{fffd}`, one file would hide the other and a blob could be paired with the other's
/// partial file. The first kind never holds `\x{`, the second always does and reads back one way.
/// A path is spelled component by component, so a folder is spelled alike in every path through it.
package enum EvidenceName {
    /// One name's spelling, from its bytes.
    package static func text(of bytes: some Collection<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self), !containsEscapeOpener(text.utf8) { return text }
        return VisibleText.decoding(utf8: bytes) { scalar, out in
            if scalar == "\\" { out += "\\x{5c}" } else { out.unicodeScalars.append(scalar) }
        }
    }

    /// A `/`-separated path's spelling, from its bytes: each component by ``text(of:)``.
    package static func text(ofPath bytes: some Collection<UInt8>) -> String {
        // The usual path is UTF-8 without the opener: each of its components is then spelled as
        // it is, and the path needs no splitting.
        if let text = String(validating: bytes, as: UTF8.self), !containsEscapeOpener(text.utf8) { return text }
        return bytes.split(separator: slash, omittingEmptySubsequences: false).map { text(of: $0) }.joined(separator: "/")
    }

    /// A name or path a blob gives as text (`TempFileName`, `LocalPath`), spelled as the scan
    /// spells the files it found, so that it names the file with those bytes and no other.
    package static func text(ofBlobPath text: some StringProtocol) -> String {
        self.text(ofPath: text.utf8)
    }

    /// The bytes that one name's spelling stands for; nil when `text` is no name's spelling
    /// (then no file has it): the inverse of ``text(of:)``, which opens a file the scan found.
    package static func bytes(of text: some StringProtocol) -> [UInt8]? {
        let utf8 = text.utf8
        guard containsEscapeOpener(utf8) else { return Array(utf8) }
        var bytes: [UInt8] = []
        var rest = Substring(text).unicodeScalars[...]
        while let scalar = rest.popFirst() {
            guard scalar == "\\" else {
                bytes += Array(String(scalar).utf8)
                continue
            }
            // `\x{` then one or two hexadecimal digits then `}`: every escape the rule writes.
            guard rest.popFirst() == "x", rest.popFirst() == "{", let close = rest.firstIndex(of: "}") else { return nil }
            let digits = String(String.UnicodeScalarView(rest[..<close]))
            guard (1...2).contains(digits.utf8.count), let byte = UInt8(digits, radix: 16) else { return nil }
            bytes.append(byte)
            rest = rest[rest.index(after: close)...]
        }
        // Only the spelling the rule writes stands for the bytes: `\x{41}` or a lone `\x{ff}`
        // in a name that is otherwise UTF-8 stand for nothing, so no two texts open one file.
        return self.text(of: bytes).utf8.elementsEqual(utf8) ? bytes : nil
    }

    /// The bytes that a path's spelling stands for, component by component (split at `/`
    /// bytes, which a combining mark after one does not hide); nil when a component is no
    /// name's spelling: the inverse of ``text(ofPath:)``, which opens a root the user named.
    package static func bytes(ofPath text: String) -> [UInt8]? {
        guard containsEscapeOpener(text.utf8) else { return Array(text.utf8) }
        var bytes: [UInt8] = []
        for (index, component) in text.utf8.split(separator: slash, omittingEmptySubsequences: false).enumerated() {
            if index > 0 { bytes.append(slash) }
            guard let name = self.bytes(of: String(decoding: component, as: UTF8.self)) else { return nil }
            bytes += name
        }
        return bytes
    }

    /// Whether `bytes` hold `\\x{`, searched byte by byte: Foundation's `contains` on a String
    /// compares by Character and cost more than the rest of the name's handling together (in a
    /// folder walk it was 1 % of the scan's CPU, through `CFStringFind`).
    package static func containsEscapeOpener(_ bytes: some Sequence<UInt8>) -> Bool {
        // A native string's bytes are contiguous: searched there, without the iterator (which,
        // generic across modules, cost 4 % of an archive scan).
        if let found = bytes.withContiguousStorageIfAvailable({ containsEscapeOpener(in: $0) }) { return found }
        var iterator = bytes.makeIterator()
        var matched = 0
        let opener: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x"), UInt8(ascii: "{")]
        while let byte = iterator.next() {
            if byte == opener[matched] {
                matched += 1
                if matched == opener.count { return true }
            } else {
                matched = byte == opener[0] ? 1 : 0
            }
        }
        return false
    }

    /// ``containsEscapeOpener(_:)`` over contiguous bytes.
    private static func containsEscapeOpener(in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard buffer.count >= 3 else { return false }
        for index in 0..<(buffer.count - 2) where buffer[index] == UInt8(ascii: "\\") {
            if buffer[index + 1] == UInt8(ascii: "x"), buffer[index + 2] == UInt8(ascii: "{") { return true }
        }
        return false
    }

    /// ``containsEscapeOpener(_:)`` of a string's bytes, specialized (the walk asks it of every name).
    package static func containsEscapeOpener(_ bytes: String.UTF8View) -> Bool {
        var text = String(bytes)
        return text.withUTF8 { containsEscapeOpener(in: $0) }
    }

    private static let slash = UInt8(ascii: "/")
}
