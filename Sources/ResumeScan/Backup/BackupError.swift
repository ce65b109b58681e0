/// Why a backup could not be read as a whole. Problems with single files are ``ScanProblem``s.
enum BackupError: Error, Sendable, Hashable {
    /// `Manifest.plist`'s keybag is damaged or asks for too much work; the sentence says how.
    case keybag(String)
    /// The password does not unwrap the class keys.
    case wrongPassword
    /// The backup is encrypted and no password was given.
    case noPassword
    /// Something else about the backup, in a sentence.
    case unreadable(String)

    /// The sentence shown after the backup's path.
    var message: String {
        switch self {
        case .keybag(let why): "its keybag cannot be used: \(why)"
        case .wrongPassword: "wrong password: it does not unlock the backup's keybag"
        case .noPassword: "the backup is encrypted and no password was given"
        case .unreadable(let why): why
        }
    }
}
