/// The name of the temporary file ``AtomicFile`` writes beside `NAME` before renaming it over
/// `NAME`: `.NAME.tmp-PID-RANDOM`, with the writing process's ID and a random number, both in
/// decimal without leading zeros. Only this tool makes names of this shape, so one whose process
/// has ended is a leftover of a crash between the write and the rename, safe to remove
/// (``AtomicFile/removeStaleTemporaries(in:for:calls:)``). No I/O: the tests decide it name by name.
struct TemporaryFileName: Equatable, Sendable {
    /// The file it was to replace (`NAME`), a name in the same folder.
    var target: String
    var pid: Int32
    var random: UInt32

    init(target: String, pid: Int32, random: UInt32) {
        self.target = target
        self.pid = pid
        self.random = random
    }

    /// The name in the folder.
    var text: String { "." + self.target + ".tmp-\(self.pid)-\(self.random)" }

    /// The parts of `name` when it has exactly this shape (and the PID is positive); nil for
    /// anything else, including the same shape with leading zeros or a number out of range.
    init?(parsing name: String) {
        let bytes = Array(name.utf8)
        guard bytes.first == UInt8(ascii: "."), !bytes.contains(UInt8(ascii: "/")) else { return nil }
        // From the end: "-RANDOM", then "-PID", then ".tmp" right before it.
        guard let randomDash = bytes.lastIndex(of: UInt8(ascii: "-")),
              let random = Self.number(bytes[(randomDash + 1)...], UInt32.self),
              let pidDash = bytes[..<randomDash].lastIndex(of: UInt8(ascii: "-")),
              let pid = Self.number(bytes[(pidDash + 1)..<randomDash], Int32.self), pid > 0
        else { return nil }
        let marker = Array(".tmp".utf8)
        guard pidDash - marker.count > 1, bytes[(pidDash - marker.count)..<pidDash].elementsEqual(marker) else { return nil }
        self.target = String(decoding: bytes[1..<(pidDash - marker.count)], as: UTF8.self)
        self.pid = pid
        self.random = random
        // A name that does not spell back the same (not UTF-8) is not one of ours.
        guard self.text == name else { return nil }
    }

    private static func number<T: FixedWidthInteger>(_ digits: ArraySlice<UInt8>, _ type: T.Type) -> T? {
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (48...57).contains($0) }),
              digits.count == 1 || digits.first != 48
        else { return nil }
        return T(String(decoding: digits, as: UTF8.self))
    }
}
