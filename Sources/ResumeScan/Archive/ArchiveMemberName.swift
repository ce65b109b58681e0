import ResumeDataCodec
import ResumeSystemCalls

/// What a member's name in a zip or tar extraction says, decided without I/O: the path inside
/// the archive as folder components, and where a device's file system starts beneath any leading
/// folders an extraction tool added (`filesystem1/` from Cellebrite, a case number, `./`), found
/// by the `private/var/` layout. Nothing is ever written out, so a hostile name only needs to be
/// reported, not defused: an absolute name or one with `..` is ``Verdict/unsafe(_:)``.
struct ArchiveMemberName: Equatable, Sendable {
    /// The components, without empty ones and `.`.
    var components: [String]

    /// Why a name is not a plain relative path.
    enum Verdict: Equatable, Sendable {
        case relative(ArchiveMemberName)
        /// `.`, `./`, `././/.`: the archive's own root, as `tar czf x.tar.gz .` names it first.
        /// Nothing to report.
        case root
        case unsafe(String)
    }

    /// The verdict on `name` as the archive spells it.
    ///
    /// Read as UTF-8 bytes, not Characters: every separator it looks for is ASCII, and an archive
    /// of 100,000 members spent a third of its scan splitting names by grapheme cluster. One pass
    /// over the contiguous bytes, where splitting into arrays of slices (and each part again at
    /// `\\`) took 15 % of a 20,000-member `.tar.gz` scan.
    static func parse(_ name: String) -> Verdict {
        var name = name
        return name.withUTF8 { Self.parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Verdict {
        guard let first = bytes.first else { return .unsafe("an empty name") }
        if first == slash { return .unsafe("an absolute name") }
        if bytes.contains(0) { return .unsafe("a NUL byte in the name") }
        var components: [String] = []
        var firstPart: Range<Int>?
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == slash {
            defer { start = index + 1 }
            guard index > start else { continue }
            let part = start..<index
            if firstPart == nil { firstPart = part }
            // A Windows-made zip may use backslashes; either way `..` must not climb.
            if Self.climbs(bytes, part) { return .unsafe("a name with ..") }
            if part.count == 1, bytes[start] == dot { continue }
            components.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[part]), as: UTF8.self))
        }
        // `C:`: two Characters, the second a colon (a letter with a combining mark counts as one);
        // counted only for the rare part that ends in a colon.
        if let drive = firstPart, bytes[drive.upperBound - 1] == colon,
           String(decoding: UnsafeBufferPointer(rebasing: bytes[drive]), as: UTF8.self).count == 2 {
            return .unsafe("a drive letter")
        }
        if components.isEmpty { return .root }
        return .relative(ArchiveMemberName(components: components))
    }

    /// Whether a piece of `part` between backslashes is `..`.
    private static func climbs(_ bytes: UnsafeBufferPointer<UInt8>, _ part: Range<Int>) -> Bool {
        var start = part.lowerBound
        for index in part.lowerBound...part.upperBound where index == part.upperBound || bytes[index] == backslash {
            if index - start == 2, bytes[start] == dot, bytes[start + 1] == dot { return true }
            start = index + 1
        }
        return false
    }

    private static let slash = UInt8(ascii: "/")
    private static let backslash = UInt8(ascii: "\\")
    private static let dot = UInt8(ascii: ".")
    private static let colon = UInt8(ascii: ":")

    /// The path as shown in reports: the components joined with `/`.
    var path: String { BytePath(joining: self.components).text }

    /// Whether the component at `index` is where a device's file system shows: the `var` of
    /// `private/var`, or of `var/mobile` (an extraction that starts at `/var`). The one rule for
    /// both ``devicePath`` and the archive scan's device roots.
    func isDeviceVar(at index: Int) -> Bool {
        guard self.components.indices.contains(index), self.components[index] == "var" else { return false }
        if index > 0, self.components[index - 1] == "private" { return true }
        return index + 1 < self.components.count && self.components[index + 1] == "mobile"
    }

    /// The path on the device, `/private/var/...`, when the components hold `private/var/`
    /// (the first such place, after any leading folders); else `/var/...` for a `var/mobile/`
    /// layout; else nil (not an extraction of a device's file system).
    var devicePath: String? {
        let places = self.components.indices.filter { self.isDeviceVar(at: $0) }
        if let index = places.first(where: { $0 > 0 && self.components[$0 - 1] == "private" }) {
            return BytePath("/").appending(BytePath(joining: self.components[(index - 1)...])).text
        }
        if let index = places.first {
            return BytePath("/private").appending(BytePath(joining: self.components[index...])).text
        }
        return nil
    }
}
