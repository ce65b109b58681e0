/// The logins of a `.netrc` file, read as curl and ftp read it: `machine HOST login USER
/// password SECRET` (any order, on any lines), `default` for every other host, and `macdef`
/// bodies skipped up to their blank line. Quoted tokens are not special, as in ftp.
struct Netrc {
    struct Login: Equatable {
        var login: String
        var password: String
    }

    private var machines: [(host: String, login: Login)] = []
    private var fallback: Login?

    init(parsing text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        var tokens: [Substring] = []
        // macdef runs to the next empty line: its body is not tokens.
        var skippingMacro = false
        while let line = lines.next() {
            let trimmed = line.trimmingBlanks()
            if skippingMacro {
                if trimmed.isEmpty { skippingMacro = false }
                continue
            }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if let index = words.firstIndex(of: "macdef") {
                tokens += words[..<index]
                skippingMacro = true
                continue
            }
            tokens += words
        }
        var found: [(host: String, login: Login)] = []
        var fallbackLogin: Login?
        var host: String?
        var isDefault = false
        var login: String?
        var password: String?
        func close() {
            if let login, let password {
                if let host {
                    found.append((host.lowercased(), Login(login: login, password: password)))
                } else if isDefault, fallbackLogin == nil {
                    fallbackLogin = Login(login: login, password: password)
                }
            }
        }
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let value = index + 1 < tokens.count ? String(tokens[index + 1]) : nil
            switch token {
            case "machine":
                close()
                (host, isDefault, login, password) = (value, false, nil, nil)
                index += 2
            case "default":
                close()
                (host, isDefault, login, password) = (nil, true, nil, nil)
                index += 1
            case "login":
                login = value
                index += 2
            case "password":
                password = value
                index += 2
            case "account":
                index += 2
            default:
                index += 1
            }
        }
        close()
        machines = found
        fallback = fallbackLogin
    }

    /// The login for `host` (the first `machine` entry naming it, else `default`).
    func login(for host: String) -> Login? {
        let host = host.lowercased()
        return machines.first { $0.host == host }?.login ?? fallback
    }
}

private extension Substring {
    func trimmingBlanks() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
