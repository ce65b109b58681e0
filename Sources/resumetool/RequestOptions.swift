import ArgumentParser
import Foundation
import ResumeDataCodec
import ResumeTransfer

/// What `download` and `resume` add to their requests, in curl's spelling: headers, the
/// User-Agent, and a login sent as Basic authorization. Like every header, credentials go only to
/// the origin the download started at, never to another one a redirect names (the engine's
/// ``TrustPolicy``).
struct RequestOptions: ParsableArguments {
    @Option(name: [.customShort("H"), .customLong("header")], help: "Send this header ('Name: value') with every request; repeatable.")
    var headers: [String] = []

    @Option(help: "The User-Agent header to send.")
    var userAgent: String?

    @Option(name: [.customShort("u"), .customLong("user")], help: ArgumentHelp(
        "Log in with Basic authorization (other users of the machine can read a command line: --netrc keeps the password in a file).",
        valueName: "USER:PASSWORD"))
    var user: String?

    @Flag(help: "Take the login for the URL's host from ~/.netrc, as curl --netrc.")
    var netrc = false

    @Option(name: .customLong("netrc-file"), help: ArgumentHelp("As --netrc, from FILE.", valueName: "FILE"), completion: .file())
    var netrcFile: String?

    func validate() throws {
        for header in headers {
            if case .failure(let error) = HeaderArgument.parse(header) { throw ValidationError("-H: \(error)") }
        }
        _ = try userAgentField()
        let logins = [user != nil, netrc, netrcFile != nil].filter { $0 }.count
        guard logins <= 1 else { throw ValidationError("give one of -u, --netrc and --netrc-file") }
        if let user {
            guard user.contains(":") else { throw ValidationError("-u takes USER:PASSWORD") }
            _ = try basicAuthorization(user)
        }
        if logins == 1, headers.contains(where: { (try? HeaderArgument.parse($0).get())?.name.lowercased() == "authorization" }) {
            throw ValidationError("-H 'Authorization: …' and a login (-u, --netrc) cannot be used together")
        }
    }

    /// `--user-agent` as a header, through the same rule as -H.
    private func userAgentField() throws -> HTTPHeaderField? {
        guard let userAgent else { return nil }
        do {
            return try HTTPHeaderField(name: "User-Agent", value: userAgent)
        } catch {
            throw ValidationError("--user-agent holds a line break or NUL")
        }
    }

    /// `Authorization: Basic …` for `login` (`USER:PASSWORD`), which may hold no line break.
    private func basicAuthorization(_ login: String) throws -> HTTPHeaderField {
        do {
            return try HTTPHeaderField.basic("Authorization", login: login)
        } catch {
            throw ValidationError("-u: \(error)")
        }
    }

    /// The headers for a download of `url`: -H, --user-agent, then the login for its host (-u,
    /// else the netrc file, else the URL's user information). An
    /// unreadable netrc file is a diagnostic (exit status 2); a host it does not name, a warning.
    func fields(for url: HTTPURL?) throws -> [HTTPHeaderField] {
        var fields = headers.compactMap { try? HeaderArgument.parse($0).get() }
        if let agent = try userAgentField() { fields.append(agent) }
        if let user {
            fields.append(try basicAuthorization(user))
        } else if let file = netrcFile ?? (netrc ? Self.homeNetrc : nil) {
            let text: String
            do {
                text = String(decoding: try InputFile(file).read(limit: 1 << 20), as: UTF8.self)
            } catch {
                error.emit()
                throw error.status.code
            }
            let host = url?.host ?? ""
            if let login = Netrc(parsing: text).login(for: host) {
                fields.append(try basicAuthorization(login.login + ":" + login.password))
            } else {
                Diagnostic(file: file, severity: .warning, message: "no login for \(host); sending none").emit()
            }
        } else if let login = url?.login {
            // curl's order: -u, then the netrc file, then the URL's own user and password.
            fields.append(try basicAuthorization(login))
        }
        return fields
    }

    /// `$HOME/.netrc`, as curl finds it.
    private static var homeNetrc: String {
        (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + "/.netrc"
    }
}
