import ArgumentParser
import Foundation
import ResumeTransfer

/// `--proxy` and `--noproxy`, shared by every command that transfers (downloads and uploads):
/// which proxy a request goes through, by curl's rules.
struct ProxyOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Use this proxy for http and https ([http://|socks5://][USER:PASSWORD@]HOST[:PORT], port 1080 by default; '' for none). Default: http_proxy, https_proxy, all_proxy from the environment, as curl.",
        valueName: "URL"))
    var proxy: String?

    @Option(name: .customLong("noproxy"), help: ArgumentHelp(
        "Hosts to reach without the proxy, comma-separated ('*' for all; a name covers its subdomains; 10.0.0.0/8 blocks). Default: no_proxy from the environment.",
        valueName: "LIST"))
    var noProxy: String?

    func validate() throws {
        if let proxy {
            do {
                _ = try ProxySettings(proxy: proxy)
            } catch {
                throw ValidationError("--proxy: \(Self.message(error))")
            }
        }
    }

    /// The proxies for these options and `environment`; a bad proxy variable is printed as a
    /// diagnostic and is exit status 1.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ProxySettings {
        do {
            return try Self.settings(proxy: self.proxy, noProxy: self.noProxy, environment: environment)
        } catch {
            Diagnostic(file: "proxy", message: Self.message(error)).emit()
            throw ExitCode(1)
        }
    }

    /// curl's precedence: `--proxy` over the environment's proxies, `--noproxy` over `no_proxy`.
    static func settings(proxy: String?, noProxy: String?, environment: [String: String]) throws(TransferError) -> ProxySettings {
        var settings: ProxySettings
        if let proxy {
            settings = try ProxySettings(proxy: proxy)
            settings.noProxy = ProxySettings.noProxyList(environment: environment)
        } else {
            settings = try ProxySettings(environment: environment)
        }
        if let noProxy { settings.noProxy = ProxySettings.noProxyList(noProxy) }
        return settings
    }

    private static func message(_ error: any Error) -> String {
        if case .invalidProxy(let message) = error as? TransferError { return message }
        return "\(error)"
    }
}
