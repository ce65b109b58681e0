import ResumeDataCodec

/// A word of a command line printed for people to run again (a hint such as "continue with:
/// resumetool resume …"): as it is when it holds only characters no POSIX shell treats
/// specially, else in single quotes, a `'` inside written `'\''`. A name with a control or
/// bidirectional character is escaped as every printed text is (``VisibleText``) before it is
/// quoted: the hint can no longer be pasted as it is, but it can never rewrite the terminal.
package enum ShellWord {
    /// `text` as one shell word.
    package static func quoted(_ text: String) -> String {
        let visible = VisibleText.escaping(text)
        guard visible.isEmpty || visible.unicodeScalars.contains(where: { !plain.contains($0) }) else { return visible }
        return "'" + visible.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }

    private static let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+=,-".unicodeScalars)
}
