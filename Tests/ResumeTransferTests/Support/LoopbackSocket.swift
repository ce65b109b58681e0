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

/// A port on 127.0.0.1 that was free a moment ago: nothing listens on it.
func unusedLoopbackPort() -> Int? {
    guard let socket = boundLoopbackSocket() else { return nil }
    close(socket.descriptor)
    return socket.port
}
