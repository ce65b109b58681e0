import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// nginx started from the config in `nginx/nginx.conf`, serving `root` on a free loopback port.
final class Nginx {
    let port: Int
    /// The same server over TLS (tls/server.pem, trusted through ``TestServer/certificateAuthorityFile``).
    let tlsPort: Int
    let root: String
    private let process: Process

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "nginx is not installed (apt-get install nginx-light); the transfer tests need it as a real server"
        }
    }

    struct DidNotStart: Error, CustomStringConvertible {
        var log: String
        var description: String { "nginx did not start: \(log)" }
    }

    static func executable() throws -> String {
        for path in ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw Missing()
    }

    init(root: String, prefix: String) throws {
        let nginx = try Self.executable()
        guard let template = Bundle.module.url(forResource: "nginx/nginx.conf", withExtension: nil),
              let text = try? String(contentsOf: template, encoding: .utf8)
        else {
            throw DidNotStart(log: "nginx/nginx.conf is missing from the test resources")
        }
        self.port = try Self.freePort()
        var tlsPort = try Self.freePort()
        // Two free ports at once: the second ask may give the first again.
        for _ in 0..<20 where tlsPort == self.port { tlsPort = try Self.freePort() }
        self.tlsPort = tlsPort
        self.root = root
        let certificates = URL(fileURLWithPath: TestServer.certificateAuthorityFile).deletingLastPathComponent().path
        let config = text
            .replacingOccurrences(of: "@PREFIX@", with: prefix)
            .replacingOccurrences(of: "@ROOT@", with: root)
            .replacingOccurrences(of: "@TLS_PORT@", with: String(self.tlsPort))
            .replacingOccurrences(of: "@PORT@", with: String(self.port))
            .replacingOccurrences(of: "@CERT@", with: certificates + "/server.pem")
            .replacingOccurrences(of: "@KEY@", with: certificates + "/server-key.pem")
        try config.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Ready when the port accepts connections.
        for _ in 0..<500 {
            if Self.accepts(port: self.port) { return }
            if !process.isRunning { break }
            usleep(10_000)
        }
        let log = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? "(no log)"
        self.stop()
        throw DidNotStart(log: log)
    }

    func url(_ path: String, tls: Bool = false) -> String {
        tls ? "https://127.0.0.1:\(self.tlsPort)/\(path)" : "http://127.0.0.1:\(self.port)/\(path)"
    }

    func stop() {
        if self.process.isRunning {
            // SIGQUIT: graceful stop of master and workers.
            kill(self.process.processIdentifier, SIGQUIT)
            self.process.waitUntilExit()
        }
    }

    private static func freePort() throws -> Int {
        guard let port = unusedLoopbackPort() else { throw DidNotStart(log: "no free port") }
        return port
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Runs `body` with nginx serving a fresh directory; the served files are made readable by the
/// unprivileged worker.
func withNginx<T>(_ body: (Nginx, String) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
        let root = directory + "/www"
        let prefix = directory + "/nginx"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix, withIntermediateDirectories: true)
        // nginx workers run as nobody when started by root.
        chmod(directory, 0o755)
        chmod(root, 0o755)
        let nginx = try Nginx(root: root, prefix: prefix)
        defer { nginx.stop() }
        return try await body(nginx, directory)
    }
}

/// Writes a file nginx serves, with a chosen modification time (nginx's ETag is mtime-size).
func publish(_ data: Data, as name: String, in root: String, modified: Date) throws {
    let path = root + "/" + name
    try data.write(to: URL(fileURLWithPath: path))
    chmod(path, 0o644)
    try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
}
