import ResumeDataCodec

/// What a member's name in a zip or tar extraction says, decided without I/O: the path inside
/// the archive as folder components, and where a device's file system starts beneath any leading
/// folders an extraction tool added (`filesystem1/` from Cellebrite, a case number, `./`), found
/// by the `private/var/` layout. Nothing is ever written out, so a hostile name only needs to be
/// reported, not defused: an absolute name or one with `..` is ``Verdict/unsafe(_:)``.
package struct ArchiveMemberName: Equatable, Sendable {
    /// The components, without empty ones and `.`.
    package var components: [String]

    /// Why a name is not a plain relative path.
    package enum Verdict: Equatable, Sendable {
        case relative(ArchiveMemberName)
        case unsafe(String)
    }

    /// The verdict on `name` as the archive spells it.
    package static func parse(_ name: String) -> Verdict {
        if name.isEmpty { return .unsafe("an empty name") }
        if name.hasPrefix("/") { return .unsafe("an absolute name") }
        if name.utf8.contains(0) { return .unsafe("a NUL byte in the name") }
        // A Windows-made zip may use backslashes; either way `..` must not climb.
        let parts = name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts.contains(where: { $0 == ".." || $0.split(separator: "\\").contains("..") }) { return .unsafe("a name with ..") }
        if let first = parts.first, first.count == 2, first.hasSuffix(":") { return .unsafe("a drive letter") }
        let components = parts.filter { $0 != "." }
        if components.isEmpty { return .unsafe("a name with no file in it") }
        return .relative(ArchiveMemberName(components: components))
    }

    /// A member's name as the scan keys, pairs and shows it, from the bytes the archive holds:
    /// the text itself when it is UTF-8 and holds no `\x{`; otherwise escaped in
    /// `VisibleText`'s notation, each byte that is not UTF-8 as `\x{ff}` and each backslash as
    /// `\x{5c}`. Names from Linux tars and old zips are often Latin-1 or CP437: decoded with
    /// replacement characters, `caf` then byte E9 and `caf` then byte FF would both become
    /// `caf\u{fffd}`, one member would hide the other and a blob could be paired with the
    /// other's partial file. This rule gives two names the same text only when their bytes are the same: the
    /// first kind never holds `\x{`, the second always does and reads back one way.
    package static func text(of bytes: some Collection<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self), !text.contains("\\x{") { return text }
        return VisibleText.decoding(utf8: bytes) { scalar, out in
            if scalar == "\\" { out += "\\x{5c}" } else { out.unicodeScalars.append(scalar) }
        }
    }

    /// The path as shown in reports: the components joined with `/`.
    package var path: String { self.components.joined(separator: "/") }

    /// Whether the component at `index` is where a device's file system shows: the `var` of
    /// `private/var`, or of `var/mobile` (an extraction that starts at `/var`). The one rule for
    /// both ``devicePath`` and the archive scan's device roots.
    package func isDeviceVar(at index: Int) -> Bool {
        guard self.components.indices.contains(index), self.components[index] == "var" else { return false }
        if index > 0, self.components[index - 1] == "private" { return true }
        return index + 1 < self.components.count && self.components[index + 1] == "mobile"
    }

    /// The path on the device, `/private/var/...`, when the components hold `private/var/`
    /// (the first such place, after any leading folders); else `/var/...` for a `var/mobile/`
    /// layout; else nil (not an extraction of a device's file system).
    package var devicePath: String? {
        let places = self.components.indices.filter { self.isDeviceVar(at: $0) }
        if let index = places.first(where: { $0 > 0 && self.components[$0 - 1] == "private" }) {
            return "/" + self.components[(index - 1)...].joined(separator: "/")
        }
        if let index = places.first {
            return "/private/" + self.components[index...].joined(separator: "/")
        }
        return nil
    }
}
