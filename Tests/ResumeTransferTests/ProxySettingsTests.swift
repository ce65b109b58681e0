import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer
@testable import resumetool

/// Which proxy a request takes: curl's rules, decided without I/O.
@Suite struct ProxySettingsTests {
    typealias Server = ProxySettings.Server

    func server(_ text: String) throws -> Server {
        try Server(parsing: text)
    }

    func failure(_ text: String) -> String? {
        do {
            _ = try Server(parsing: text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func proxyURLsAsCurlReadsThem() throws {
        #expect(try server("proxy.lan:3128") == Server(kind: .http, host: "proxy.lan", port: 3128))
        #expect(try server("proxy.lan") == Server(kind: .http, host: "proxy.lan", port: 1080))
        #expect(try server("HTTP://Proxy.lan:8080/") == Server(kind: .http, host: "Proxy.lan", port: 8080))
        #expect(try server("socks5h://s.lan") == Server(kind: .socks5, host: "s.lan", port: 1080))
        #expect(try server("socks5://10.0.0.1:9050") == Server(kind: .socks5, host: "10.0.0.1", port: 9050))
        let withCredentials = try server("http://us%40er:p%3Ass@[::1]:8080")
        #expect(withCredentials == Server(kind: .http, host: "::1", port: 8080, username: "us@er", password: "p:ss"))
        #expect(withCredentials.description == "http://***@[::1]:8080")
        #expect(try server(" proxy.lan:3128 ").host == "proxy.lan")
    }

    @Test func unusableProxyURLsAreRefusedWithoutShowingThePassword() {
        #expect(failure("https://proxy.lan") == "bad proxy: https://proxy.lan: TLS to the proxy itself (https://) is not supported; use http://")
        #expect(failure("ftp://proxy.lan") == "bad proxy: ftp://proxy.lan: unsupported proxy scheme ftp (http, socks5 or socks5h)")
        #expect(failure("socks5://u:secret@s.lan") == "bad proxy: socks5://***@s.lan: SOCKS5 with a user name and password is not supported")
        #expect(failure("http://:8080") == "bad proxy: http://:8080 names no host")
        #expect(failure("http://p.lan:0") == "bad proxy: http://p.lan:0: port 0 is not 1 to 65535")
        #expect(failure("http://u:secret@p.lan/path") == "bad proxy: http://***@p.lan/path: a proxy URL has no path, query or fragment")
        #expect(failure("http://p.lan:99999") != nil)
        #expect(failure("http://p .lan") != nil)
        #expect(failure("")?.contains("names no host") == true)
        for text in ["http://u:secret@p.lan:99999", "http://u:secret@", "ftp://u:secret@p"] {
            #expect(failure(text)?.contains("secret") == false, "\(text)")
        }
    }

    @Test func theEnvironmentAsCurlReadsIt() throws {
        let settings = try ProxySettings(environment: [
            "http_proxy": "h.lan:1", "HTTPS_PROXY": "s.lan:2", "NO_PROXY": "localhost, .corp", "all_proxy": "a.lan:3",
        ])
        #expect(settings.http == Server(kind: .http, host: "h.lan", port: 1))
        #expect(settings.https == Server(kind: .http, host: "s.lan", port: 2))
        #expect(settings.noProxy == ["localhost", ".corp"])
        // Lowercase wins; HTTP_PROXY is never read (httpoxy); all_proxy fills in; empty is unset.
        let second = try ProxySettings(environment: [
            "https_proxy": "low.lan", "HTTPS_PROXY": "up.lan", "HTTP_PROXY": "evil.lan", "ALL_PROXY": "all.lan", "no_proxy": "",
            "NO_PROXY": "x",
        ])
        #expect(second.https?.host == "low.lan")
        #expect(second.http?.host == "all.lan")
        #expect(second.noProxy == ["x"])
        let none = try ProxySettings(environment: ["HTTP_PROXY": "evil.lan", "http_proxy": "  "])
        #expect(none == ProxySettings())
        #expect(throws: TransferError.invalidProxy("https_proxy: ftp://x: unsupported proxy scheme ftp (http, socks5 or socks5h)")) {
            try ProxySettings(environment: ["https_proxy": "ftp://x"])
        }
    }

    @Test func eachURLGetsItsSchemesProxy() throws {
        let settings = try ProxySettings(environment: ["http_proxy": "h.lan:1", "https_proxy": "s.lan:2"])
        #expect(settings.server(for: "http://example.com/a")?.host == "h.lan")
        #expect(settings.server(for: "HTTPS://example.com/a")?.host == "s.lan")
        #expect(settings.server(for: "ftp://example.com/a") == nil)
        #expect(settings.server(for: "not a url") == nil)
        #expect(try ProxySettings(proxy: "").server(for: "http://example.com/") == nil)
        #expect(try ProxySettings(proxy: "p.lan").server(for: "https://example.com/")?.host == "p.lan")
    }

    @Test(arguments: [
        // (no_proxy, host, bypassed)
        ("*", "anything.example", true),
        ("example.com", "example.com", true),
        ("example.com", "a.b.example.com", true),
        ("example.com", "badexample.com", false),
        (".example.com", "example.com", true),
        (".example.com", "a.example.com", true),
        ("EXAMPLE.com", "example.COM", true),
        ("example.com.", "example.com", true),
        ("example.com", "example.com.", true),
        ("127.0.0.1", "127.0.0.1", true),
        ("127.0.0.1", "127.0.0.10", false),
        ("0.0.1", "10.0.0.1", false),
        ("10.0.0.0/8", "10.200.3.4", true),
        ("10.0.0.0/8", "11.0.0.1", false),
        ("10.0.0.0/8", "10.example", false),
        ("0.0.0.0/0", "192.168.1.1", true),
        ("10.0.0.0/33", "10.0.0.1", false),
        ("10.0.0.0/-1", "10.0.0.1", false),
        ("10.0.0.0/x", "10.0.0.1", false),
        ("/", "10.0.0.1", false),
        (".", "example.com", false),
        ("::1", "[::1]", true),
        ("[::1]", "[::1]", true),
        ("1.2.3.4", "a.1.2.3.4", true),
        ("2.3.4", "1.2.3.4", false),
        ("", "example.com", false),
        ("a.com, ,b.com", "b.com", true),
    ])
    func noProxyMatching(_ entry: String, _ host: String, _ bypassed: Bool) throws {
        let settings = try ProxySettings(proxy: "p.lan", noProxy: entry)
        #expect(settings.bypasses(host: host) == bypassed)
        #expect((settings.server(for: "http://\(host)/f") == nil) == bypassed || HTTPURL("http://\(host)/f") == nil)
    }

    @Test func theCommandLineOverridesTheEnvironment() throws {
        let environment = ["http_proxy": "env.lan:1", "https_proxy": "envs.lan:2", "no_proxy": "skip.lan"]
        let fromEnvironment = try ProxyOptions.settings(proxy: nil, noProxy: nil, environment: environment)
        #expect(fromEnvironment.http?.host == "env.lan" && fromEnvironment.https?.host == "envs.lan")
        #expect(fromEnvironment.noProxy == ["skip.lan"])
        let given = try ProxyOptions.settings(proxy: "cli.lan:9", noProxy: nil, environment: environment)
        #expect(given.http?.host == "cli.lan" && given.https?.host == "cli.lan")
        #expect(given.noProxy == ["skip.lan"])
        let both = try ProxyOptions.settings(proxy: "cli.lan:9", noProxy: "a.lan,b.lan", environment: environment)
        #expect(both.noProxy == ["a.lan", "b.lan"])
        let off = try ProxyOptions.settings(proxy: "", noProxy: nil, environment: environment)
        #expect(off.http == nil && off.https == nil)
    }

    /// A blank `no_proxy` counts as unset whether the proxy comes from the environment or from
    /// `--proxy` (the command line once read the variables itself and took the blank value).
    @Test func aBlankNoProxyFallsBackToTheUppercaseOneOnBothPaths() throws {
        let environment = ["https_proxy": "envs.lan:2", "no_proxy": " ", "NO_PROXY": "skip.lan, other.lan"]
        #expect(ProxySettings.noProxyList(environment: environment) == ["skip.lan", "other.lan"])
        #expect(try ProxySettings(environment: environment).noProxy == ["skip.lan", "other.lan"])
        #expect(try ProxyOptions.settings(proxy: nil, noProxy: nil, environment: environment).noProxy == ["skip.lan", "other.lan"])
        #expect(try ProxyOptions.settings(proxy: "cli.lan:9", noProxy: nil, environment: environment).noProxy == ["skip.lan", "other.lan"])
        #expect(ProxySettings.noProxyList(environment: ["no_proxy": "", "NO_PROXY": " "]) == [])
        #expect(ProxySettings.noProxyList(" a.lan,,b.lan\t10.0.0.0/8 ") == ["a.lan", "b.lan", "10.0.0.0/8"])
    }
}
