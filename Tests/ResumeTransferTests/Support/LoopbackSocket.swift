import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket bound to a port the system chose on 127.0.0.1, listening if asked: its descriptor
/// (the caller closes it) and port; nil when none could be had.
func boundLoopbackSocket(listening: Bool = false) -> (descriptor: Int32, port: Int)? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            bind(descriptor, raw, length) == 0 && (!listening || listen(descriptor, 16) == 0) && getsockname(descriptor, raw, &length) == 0
        }
    }
    guard bound else {
        close(descriptor)
        return nil
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// A port on 127.0.0.1 that was free a moment ago: nothing listens on it. Only for a server that
/// binds it at once (nginx); a test that needs a port nobody answers on takes
/// ``withRefusingLoopbackPort(_:)``.
func unusedLoopbackPort() -> Int? {
    guard let socket = boundLoopbackSocket() else { return nil }
    close(socket.descriptor)
    return socket.port
}

/// Runs `body` with a port on 127.0.0.1 (and ::1, where there is one) that refuses every
/// connection for as long as `body` runs: bound, never listening. A port merely closed again is
/// handed to the next server that asks for any port (a fresh-clone CI run connected to "nobody" and
/// downloaded another test's file); a bound one is handed to none.
func withRefusingLoopbackPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    guard let held = boundLoopbackSocket() else { throw POSIXError(.EADDRNOTAVAIL) }
    defer { close(held.descriptor) }
    let six = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    defer { if six >= 0 { close(six) } }
    if six >= 0 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        address.sin6_port = UInt16(held.port).bigEndian
        // No ::1 (IPv6 off) is no matter: then nothing can listen there either.
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(six, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
    }
    return try await body(held.port)
}

/// A loopback address of the test's own (127.x.y.z: all of 127/8 is the loopback interface on
/// Linux), for a server whose connections a test numbers. A full test run is full of strays on
/// 127.0.0.1: downloaders of finished tests still retrying the port their server gave up, tests
/// connecting to a port they believe closed, https clients whose port was taken over. A stray
/// that reaches a scripted server takes a connection's number, and with it the script or the cut
/// meant for the test's own client (fresh-clone CI runs failed so: a POST answered with the
/// script of the offset request, a first connection without the cut). On an address of its own
/// the server is reached only by the test that started it.
func privateLoopbackAddress() -> String {
    "127.\(Int.random(in: 1...254)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
}
