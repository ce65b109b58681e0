import AsyncHTTPClient
import Foundation
@testable import ResumeDataCodec
import Testing

@testable import ResumeTransfer

/// The one decision of which path a download's connections take (``ConnectionOpener``), value
/// by value; that the first response and its segments then go the same way is tested through a
/// server in `DirectPathTests`.
@Suite struct ConnectionOpenerTests {
    @Test func aPlainRequestTakesTheDirectPath() throws {
        #expect(try route("http://example.com/a.iso") == DirectRoute(url: url("http://example.com/a.iso")))
        let tls = try #require(try route("https://example.com:8443/a.iso"))
        #expect(tls.usesTLS && tls.port == 8443 && tls.hostHeader == "example.com:8443")
        #expect(try route("http://[::1]:8080/f")?.host == "::1")
    }

    @Test func theDirectPathTurnedOffIsNeverTaken() throws {
        #expect(try route("http://example.com/a.iso", direct: false) == nil)
        #expect(try route("https://example.com/a.iso", direct: false) == nil)
    }

    @Test func aProxyOnTheRouteGoesThroughTheClient() throws {
        let all = try ProxySettings(proxy: "http://proxy.lan:3128")
        #expect(try route("http://example.com/a", proxy: all) == nil)
        #expect(try route("https://example.com/a", proxy: all) == nil)
        let socks = try ProxySettings(proxy: "socks5://proxy.lan:1080")
        #expect(try route("http://example.com/a", proxy: socks) == nil)
    }

    @Test func aHostOutsideTheProxyTakesTheDirectPath() throws {
        let some = try ProxySettings(proxy: "http://proxy.lan:3128", noProxy: "example.com,10.0.0.0/8")
        #expect(try route("http://a.example.com/f", proxy: some)?.host == "a.example.com")
        #expect(try route("http://10.1.2.3/f", proxy: some)?.host == "10.1.2.3")
        #expect(try route("http://example.org/f", proxy: some) == nil)
        // A proxy for one scheme only (curl's https_proxy) leaves the other direct.
        let httpsOnly = try ProxySettings(environment: ["https_proxy": "http://proxy.lan:3128"])
        #expect(try route("http://example.com/f", proxy: httpsOnly)?.usesTLS == false)
        #expect(try route("https://example.com/f", proxy: httpsOnly) == nil)
    }

    @Test func aURLTheDirectPathDoesNotTakeGoesThroughTheClient() throws {
        // An IPv6 address with a zone.
        #expect(try route("http://[fe80::1%25eth0]:8080/file") == nil)
    }

    @Test func theChoiceIsCarriedOutAsDecided() async throws {
        let pool = HTTPClientPool(configuration: HTTPClient.Configuration(), proxy: try ProxySettings(proxy: "http://proxy.lan:3128", noProxy: "direct.test"))
        var configuration = DownloadConfiguration()
        configuration.proxy = try ProxySettings(proxy: "http://proxy.lan:3128", noProxy: "direct.test")
        let settings = ResponseReceiver.Settings()
        func path(_ text: String) throws -> String {
            let plan = RequestPlan(url: try url(text), headers: [], offset: 0)
            switch ConnectionOpener.choose(for: plan, configuration: configuration, settings: settings, clients: pool) {
            case .client: return "client"
            #if os(Linux)
            case .direct(let direct): return direct.tls == nil ? "direct" : "direct+tls"
            #endif
            }
        }
        #if os(Linux)
        #expect(try path("http://direct.test/f") == "direct")
        #expect(try path("https://direct.test/f") == "direct+tls")
        #else
        #expect(try path("http://direct.test/f") == "client")
        #endif
        #expect(try path("http://elsewhere.test/f") == "client")
        configuration.usesDirectPath = false
        #expect(try path("http://direct.test/f") == "client")
        try await pool.shutdown()
    }

    private func route(_ text: String, direct: Bool = true, proxy: ProxySettings = ProxySettings()) throws -> DirectRoute? {
        let plan = RequestPlan(url: try url(text), headers: [], offset: 0)
        return ConnectionOpener.directRoute(for: plan, usesDirectPath: direct, proxy: proxy)
    }

    private func url(_ text: String) throws -> HTTPURL {
        try #require(HTTPURL(text))
    }
}
