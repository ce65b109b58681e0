import CSpliceShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket and pipe calls of the direct receiver (``FileSystemCalls/sockets``): the system's
/// by default; a test replaces one member to fail a receive or a splice mid-body.
///
/// Each goes through ``retryingOnInterrupt(_:)``, so `EAGAIN` (nothing waiting on a non-blocking
/// socket) and `EINPROGRESS` (a connect under way) come back as failures for the caller to wait on.
package struct SocketCalls: Sendable {
    package typealias Failure = FileSystemCalls.Failure

    /// The addresses of a stream socket to `host` at `port` (`getaddrinfo`, any family, the port
    /// numeric), in the resolver's order; never empty on success.
    package var resolve: @Sendable (_ host: String, _ port: Int) -> Result<[ResolvedAddress], ResolutionFailure> = { host, port in
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        var status: Int32 = 0
        // getaddrinfo answers with its own codes; only EAI_SYSTEM stands for an errno, which the
        // one EINTR helper reads (an interrupted lookup is asked again, like every other call).
        let asked = retryingOnInterrupt { () -> Int32 in
            if let list { freeaddrinfo(list) }
            list = nil
            status = getaddrinfo(host, String(port), &hints, &list)
            return status == EAI_SYSTEM ? -1 : 0
        }
        defer { if let list { freeaddrinfo(list) } }
        guard case .success = asked, status == 0, let first = list else { return .failure(ResolutionFailure(code: status)) }
        var addresses: [ResolvedAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            if let address = ResolvedAddress(info.pointee) { addresses.append(address) }
        }
        return addresses.isEmpty ? .failure(ResolutionFailure(code: status)) : .success(addresses)
    }
    package var socket: @Sendable (_ family: Int32, _ type: Int32) -> Result<Int32, Failure> = { family, type in
        retryingOnInterrupt { Glibc.socket(family, type, 0) }
    }
    package var connect: @Sendable (_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Result<Void, Failure> = {
        socket, address, length in
        retryingOnInterrupt { Glibc.connect(socket, address, length) }.map { _ in }
    }
    /// The socket's pending error (`getsockopt(SO_ERROR)`): 0 once a connect succeeded.
    package var pendingError: @Sendable (_ socket: Int32) -> Result<Int32, Failure> = { socket in
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return retryingOnInterrupt { getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) }.map { _ in error }
    }
    /// `send` with `MSG_NOSIGNAL`: a closed connection is `EPIPE`, not a signal.
    package var send: @Sendable (_ socket: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Failure> = { socket, bytes in
        guard let base = bytes.baseAddress else { return .success(0) }
        return retryingOnInterrupt { Glibc.send(socket, base, bytes.count, Int32(MSG_NOSIGNAL)) }
    }
    /// The count received, 0 when the peer closed the connection.
    package var recv: @Sendable (_ socket: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Failure> = { socket, buffer in
        guard let base = buffer.baseAddress else { return .success(0) }
        return retryingOnInterrupt { Glibc.recv(socket, base, buffer.count, 0) }
    }
    /// `setsockopt(SO_RCVLOWAT)`: `poll` says the socket is readable once `bytes` wait (or the
    /// stream ended); a non-blocking receive still takes whatever is there.
    package var setReceiveLowWater: @Sendable (_ socket: Int32, _ bytes: Int32) -> Result<Void, Failure> = { socket, bytes in
        var value = bytes
        return retryingOnInterrupt { setsockopt(socket, SOL_SOCKET, SO_RCVLOWAT, &value, socklen_t(MemoryLayout<Int32>.size)) }.map { _ in }
    }
    /// `ioctl(FIONREAD)`: how many received bytes wait to be read.
    package var pendingBytes: @Sendable (_ socket: Int32) -> Result<Int, Failure> = { socket in
        var count: Int32 = 0
        return retryingOnInterrupt { ioctl(socket, UInt(FIONREAD), &count) }.map { _ in Int(max(count, 0)) }
    }
    /// `poll` for at most `milliseconds` (-1: no limit): how many descriptors are ready.
    package var poll: @Sendable (_ descriptors: UnsafeMutableBufferPointer<pollfd>, _ milliseconds: Int32) -> Result<Int32, Failure> = {
        descriptors, milliseconds in
        guard let base = descriptors.baseAddress else { return .success(0) }
        return retryingOnInterrupt { Glibc.poll(base, nfds_t(descriptors.count), milliseconds) }
    }
    /// A non-blocking, close-on-exec pipe.
    package var pipe: @Sendable () -> Result<(read: Int32, write: Int32), Failure> = {
        var fds: [Int32] = [-1, -1]
        return retryingOnInterrupt { csplice_pipe(&fds) }.map { _ in (fds[0], fds[1]) }
    }
    /// Asks for a pipe of `size` bytes: the capacity granted.
    package var setPipeSize: @Sendable (_ pipe: Int32, _ size: Int32) -> Result<Int32, Failure> = { pipe, size in
        retryingOnInterrupt { csplice_set_pipe_size(pipe, size) }
    }
    /// Moves up to `count` bytes from the socket into the pipe without blocking: the count
    /// moved, 0 when the peer closed the connection.
    package var spliceFromSocket: @Sendable (_ socket: Int32, _ pipe: Int32, _ count: Int) -> Result<Int, Failure> = { socket, pipe, count in
        retryingOnInterrupt { csplice_from_socket(socket, pipe, count) }
    }
    package var read: @Sendable (_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Failure> = { descriptor, buffer in
        guard let base = buffer.baseAddress else { return .success(0) }
        return retryingOnInterrupt { Glibc.read(descriptor, base, buffer.count) }
    }
    package var write: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Failure> = { descriptor, bytes in
        guard let base = bytes.baseAddress else { return .success(0) }
        return retryingOnInterrupt { Glibc.write(descriptor, base, bytes.count) }
    }
    /// Not retried (see ``retryingOnInterrupt(_:)``).
    package var close: @Sendable (_ descriptor: Int32) -> Result<Void, Failure> = { descriptor in
        Glibc.close(descriptor) == 0 ? .success(()) : .failure(Failure(errno))
    }

    init() {}

    /// The operating system's calls.
    static let system = SocketCalls()
}

/// One address ``SocketCalls/resolve`` found, copied out of the resolver's list so that nothing
/// has to be freed after it.
package struct ResolvedAddress: Sendable {
    /// `AF_INET` or `AF_INET6`: what `socket` takes.
    package var family: Int32
    /// The `sockaddr_in` or `sockaddr_in6`, as `connect` takes it.
    var storage: sockaddr_storage
    /// How many bytes of ``storage`` are the address.
    var length: socklen_t

    /// The address of one resolver entry; nil for a family other than IPv4 and IPv6, or one
    /// longer than a `sockaddr_storage`.
    init?(_ info: addrinfo) {
        guard let raw = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6,
              Int(info.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size
        else { return nil }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: Int(info.ai_addrlen)))
        }
        self.init(family: info.ai_family, storage: storage, length: info.ai_addrlen)
    }

    /// An address as a fake resolver gives it.
    init(family: Int32, storage: sockaddr_storage, length: socklen_t) {
        self.family = family
        self.storage = storage
        self.length = length
    }

    /// Runs `body` with the address as `connect` takes it.
    package func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: self.storage) { storage in
            // A sockaddr_storage is laid out to be read as any sockaddr (its first fields are one).
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, self.length) }
        }
    }
}

/// Why a name did not resolve: `getaddrinfo`'s code (`EAI_*`), said in the resolver's words.
package struct ResolutionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `EAI_*` code (0 when the resolver succeeded with no usable address).
    var code: Int32

    init(code: Int32) {
        self.code = code
    }

    /// `gai_strerror`'s words for the code.
    package var description: String { String(cString: gai_strerror(self.code)) }
}
