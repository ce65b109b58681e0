import ResumeSystemCalls

/// A path and the text the scan shows for it (``EvidenceName``): the two edges where a path
/// becomes text for people and JSON, and where such text comes back in (a root the user named, a
/// name a blob gives, a path the scan itself spelled and now looks up).
extension BytePath {
    /// The path `text` spells (``EvidenceName/bytes(ofPath:)``).
    ///
    /// Every text the scan makes is some path's spelling, so this never fails on one. Text that
    /// spells no path (`\x{41}`, a lone `\x{ff}` in a UTF-8 name) stands for a path that cannot
    /// exist, not for the path its bytes would make: it is kept behind a NUL byte, which no real
    /// path holds, so that it equals no found file and no other such text.
    package init(spelled text: some StringProtocol) {
        let string = String(text)
        if let bytes = EvidenceName.bytes(ofPath: string) {
            self.init(bytes: bytes)
        } else {
            self.init(bytes: [0] + Array(string.utf8))
        }
    }

    /// The text the scan shows for the path (``EvidenceName/text(ofPath:)``): itself when it is
    /// UTF-8 without `\x{`, escaped otherwise.
    package var spelled: String {
        EvidenceName.text(ofPath: bytes)
    }
}
