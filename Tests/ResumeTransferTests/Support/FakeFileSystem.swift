import Foundation
import Synchronization

@testable import ResumeSystemCalls
@testable import ResumeTransfer

#if canImport(Glibc)
import Glibc
#endif

/// An in-memory file system for the engine's ``FileSystemCalls`` that plays what a real disk
/// does to a process: it keeps what was fsynced apart from what was only written, and names
/// made durable by a folder fsync apart from names only created or renamed, so ``powerLoss()``
/// leaves exactly what a crash would; and it fails chosen calls (ENOSPC, EIO) or every call after
/// the N-th, as a machine that lost power at that step.
///
/// The model is the strict POSIX one: file contents are durable after `fsync` of the file, names
/// (creation, rename, unlink) after `fsync` of their folder. Symbolic links are not modelled.
final class FakeFileSystem: Sendable {
    enum Call: Hashable, Sendable {
        case open, close, fstat, lstat, flock, pread, pwrite, ftruncate, fsync, rename, unlink, list
    }

    /// A rename onto a name ending in `.resume`, seen before it happens: the test checks what
    /// the new blob claims against what is durable at that moment.
    struct BlobRename: Sendable {
        var blob: Data
        /// The durable (fsynced) content of each file, by name, at the moment of the rename.
        var durable: [String: Data]
    }

    private struct Node {
        var data: [UInt8] = []
        var synced: [UInt8] = []
    }

    private struct State {
        var nodes: [Int: Node] = [:]
        var names: [String: Int] = [:]
        var durableNames: [String: Int] = [:]
        var folders: Set<String>
        var descriptors: [Int32: (node: Int?, folder: String?)] = [:]
        var nextNode = 1
        var nextDescriptor: Int32 = 100
        var callCount = 0
        var crashAfter: Int?
        var faults: [Call: (nth: Int, code: Int32)] = [:]
        var counts: [Call: Int] = [:]
        var blobRenames: [BlobRename] = []
    }

    private let state: Mutex<State>

    /// A file system with these folders, empty.
    init(folders: Set<String>) {
        self.state = Mutex(State(folders: folders))
    }

    // MARK: what the test controls

    /// Every call after the first `count` fails with EIO: the machine stopped there.
    func crash(after count: Int) {
        self.state.withLock { $0.crashAfter = count }
    }

    /// The `nth` call (1-based) of kind `call` fails with `code`, once.
    func fail(_ call: Call, nth: Int, with code: Int32) {
        self.state.withLock { $0.faults[call] = (nth, code) }
    }

    /// Power comes back: only durable names and contents remain, no file is open, faults are gone.
    func powerLoss() {
        self.state.withLock { state in
            state.names = state.durableNames
            for (id, node) in state.nodes { state.nodes[id]?.data = node.synced }
            let live = Set(state.names.values)
            state.nodes = state.nodes.filter { live.contains($0.key) }
            state.descriptors = [:]
            state.crashAfter = nil
            state.faults = [:]
            state.counts = [:]
            state.callCount = 0
        }
    }

    /// The calls made so far (since the last power loss).
    var callCount: Int { self.state.withLock { $0.callCount } }

    /// Every blob rename seen, in order.
    var blobRenames: [BlobRename] { self.state.withLock { $0.blobRenames } }

    /// The content of `path` as a running system sees it.
    func contents(_ path: String) -> Data? {
        self.state.withLock { state in state.names[path].flatMap { state.nodes[$0] }.map { Data($0.data) } }
    }

    /// The names in the folder, sorted.
    func names(in folder: String) -> [String] {
        self.state.withLock { state in
            state.names.keys.filter { ($0 as NSString).deletingLastPathComponent == folder }
                .map { ($0 as NSString).lastPathComponent }.sorted()
        }
    }

    /// Puts a file in place, durable, as if it had been there before.
    func install(_ data: Data, at path: String) {
        self.state.withLock { state in
            let id = state.nextNode
            state.nextNode += 1
            state.nodes[id] = Node(data: Array(data), synced: Array(data))
            state.names[path] = id
            state.durableNames[path] = id
        }
    }

    // MARK: the calls

    var calls: FileSystemCalls {
        FileSystemCalls(
            open: { path, flags, mode in self.open(path, flags) },
            close: { fd in
                self.perform(.close) { state in
                    guard state.descriptors.removeValue(forKey: fd) != nil else { return .failure(.init(EBADF)) }
                    return .success(())
                }
            },
            fstat: { fd in
                self.perform(.fstat) { state in
                    guard let open = state.descriptors[fd] else { return .failure(.init(EBADF)) }
                    if let node = open.node { return .success(.init(kind: .regular, size: Int64(state.nodes[node]?.data.count ?? 0))) }
                    return .success(.init(kind: .directory, size: 0))
                }
            },
            lstat: { path in
                self.perform(.lstat) { state in
                    if let id = state.names[path] { return .success(.init(kind: .regular, size: Int64(state.nodes[id]?.data.count ?? 0))) }
                    if state.folders.contains(path) { return .success(.init(kind: .directory, size: 0)) }
                    return .failure(.init(ENOENT))
                }
            },
            flock: { fd, _ in
                self.perform(.flock) { state in state.descriptors[fd] == nil ? .failure(.init(EBADF)) : .success(()) }
            },
            pread: { fd, buffer, offset in
                self.perform(.pread) { state in
                    guard let id = state.descriptors[fd]?.node, let node = state.nodes[id] else { return .failure(.init(EBADF)) }
                    guard offset < node.data.count else { return .success(0) }
                    let count = min(buffer.count, node.data.count - Int(offset))
                    node.data.withUnsafeBytes { bytes in
                        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<Int(offset) + count]))
                    }
                    return .success(count)
                }
            },
            pwrite: { fd, bytes, offset in
                self.perform(.pwrite) { state in
                    guard let id = state.descriptors[fd]?.node, var node = state.nodes[id] else { return .failure(.init(EBADF)) }
                    let end = Int(offset) + bytes.count
                    if node.data.count < end { node.data.append(contentsOf: repeatElement(0, count: end - node.data.count)) }
                    node.data.withUnsafeMutableBytes { target in
                        UnsafeMutableRawBufferPointer(rebasing: target[Int(offset)..<end]).copyMemory(from: bytes)
                    }
                    state.nodes[id] = node
                    return .success(bytes.count)
                }
            },
            ftruncate: { fd, length in
                self.perform(.ftruncate) { state in
                    guard let id = state.descriptors[fd]?.node, var node = state.nodes[id] else { return .failure(.init(EBADF)) }
                    if node.data.count > Int(length) {
                        node.data.removeLast(node.data.count - Int(length))
                    } else {
                        node.data.append(contentsOf: repeatElement(0, count: Int(length) - node.data.count))
                    }
                    state.nodes[id] = node
                    return .success(())
                }
            },
            fsync: { fd in
                self.perform(.fsync) { state in
                    guard let open = state.descriptors[fd] else { return .failure(.init(EBADF)) }
                    if let id = open.node {
                        let written = state.nodes[id]?.data ?? []
                        state.nodes[id]?.synced = written
                    } else if let folder = open.folder {
                        // The folder's entries as they are now become what survives.
                        let inside = { (path: String) in (path as NSString).deletingLastPathComponent == folder }
                        state.durableNames = state.durableNames.filter { !inside($0.key) }
                        for (path, id) in state.names where inside(path) { state.durableNames[path] = id }
                    }
                    return .success(())
                }
            },
            rename: { from, to in
                self.perform(.rename) { state in
                    guard let id = state.names[from] else { return .failure(.init(ENOENT)) }
                    if to.hasSuffix(".resume") {
                        var durable: [String: Data] = [:]
                        for (path, node) in state.names { durable[path] = state.nodes[node].map { Data($0.synced) } }
                        state.blobRenames.append(BlobRename(blob: Data(state.nodes[id]?.data ?? []), durable: durable))
                    }
                    state.names[from] = nil
                    state.names[to] = id
                    return .success(())
                }
            },
            unlink: { path in
                self.perform(.unlink) { state in
                    state.names.removeValue(forKey: path) == nil ? .failure(.init(ENOENT)) : .success(())
                }
            },
            listDirectory: { folder in
                self.perform(.list) { state in
                    guard state.folders.contains(folder) else { return .failure(.init(ENOENT)) }
                    return .success(state.names.keys.filter { ($0 as NSString).deletingLastPathComponent == folder }
                        .map { ($0 as NSString).lastPathComponent })
                }
            }
        )
    }

    private func open(_ path: String, _ flags: Int32) -> Result<Int32, FileSystemCalls.Failure> {
        self.perform(.open) { state in
            let descriptor = state.nextDescriptor
            if flags & O_DIRECTORY != 0 {
                guard state.folders.contains(path) else { return .failure(.init(ENOTDIR)) }
                state.nextDescriptor += 1
                state.descriptors[descriptor] = (nil, path)
                return .success(descriptor)
            }
            if state.folders.contains(path) {
                guard flags & O_ACCMODE == O_RDONLY else { return .failure(.init(EISDIR)) }
                state.nextDescriptor += 1
                state.descriptors[descriptor] = (nil, path)
                return .success(descriptor)
            }
            guard state.folders.contains((path as NSString).deletingLastPathComponent) else { return .failure(.init(ENOENT)) }
            var id = state.names[path]
            if id != nil, flags & O_CREAT != 0, flags & O_EXCL != 0 { return .failure(.init(EEXIST)) }
            if id == nil {
                guard flags & O_CREAT != 0 else { return .failure(.init(ENOENT)) }
                id = state.nextNode
                state.nextNode += 1
                state.nodes[id!] = Node()
                state.names[path] = id
            }
            if flags & O_TRUNC != 0 { state.nodes[id!]?.data = [] }
            state.nextDescriptor += 1
            state.descriptors[descriptor] = (id, nil)
            return .success(descriptor)
        }
    }

    /// Counts the call, applies a crash or a fault, else runs it.
    private func perform<T>(_ call: Call, _ body: (inout State) -> Result<T, FileSystemCalls.Failure>) -> Result<T, FileSystemCalls.Failure> {
        self.state.withLock { state in
            state.callCount += 1
            state.counts[call, default: 0] += 1
            if let limit = state.crashAfter, state.callCount > limit { return .failure(.init(EIO)) }
            if let fault = state.faults[call], fault.nth == state.counts[call] {
                state.faults[call] = nil
                return .failure(.init(fault.code))
            }
            return body(&state)
        }
    }
}
