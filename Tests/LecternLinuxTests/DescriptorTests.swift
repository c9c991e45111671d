import Foundation
import LecternLinux
import SystemPackage
import Testing

/// LecternLinux's descriptors against the real kernel: eventfd, timerfd, inotify, Unix sockets.
@Suite("Descriptors")
struct DescriptorTests {
    /// Whether `descriptor` is readable within `milliseconds`.
    static func isReadable(_ descriptor: FileDescriptor, within milliseconds: Int32) -> Bool {
        var pfd = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&pfd, 1, milliseconds)
            if n < 0 && errno == EINTR { continue }
            return n > 0 && pfd.revents & Int16(POLLIN) != 0
        }
    }

    /// How long until the timerfd `descriptor` fires (zero: it is disarmed; nil: unreadable), as
    /// the kernel says in `/proc/self/fdinfo` (`it_value: (seconds, nanoseconds)`).
    static func remaining(_ descriptor: FileDescriptor) -> Duration? {
        guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(descriptor.rawValue)", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("it_value:") })
        else { return nil }
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int64($0) }
        guard numbers.count == 2 else { return nil }
        return .seconds(numbers[0]) + .nanoseconds(numbers[1])
    }

    /// A new, empty directory under the temporary directory (the caller removes it).
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-linux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("an eventfd is readable once signalled, counts the signals, and is quiet after a drain")
    func eventFD() throws {
        let event = try EventFD()
        #expect(!Self.isReadable(event.descriptor, within: 0))
        event.signal()
        event.signal()
        #expect(Self.isReadable(event.descriptor, within: 0))
        #expect(event.drain() == 2)
        #expect(!Self.isReadable(event.descriptor, within: 0))
        #expect(event.drain() == 0, "draining an empty eventfd does not block")
    }

    @Test("a timerfd fires once after it is armed, and not once disarmed")
    func timerFD() throws {
        let timer = try TimerFD()
        timer.arm(milliseconds: 1)
        #expect(Self.isReadable(timer.descriptor, within: 5_000))
        #expect(timer.drain() == 1)
        timer.arm(milliseconds: 50)
        #expect((Self.remaining(timer.descriptor) ?? .zero) > .zero, "armed")
        timer.arm(milliseconds: nil)
        #expect(Self.remaining(timer.descriptor) == .zero, "disarmed before it fired: the kernel will not fire it")
        #expect(!Self.isReadable(timer.descriptor, within: 0))
    }

    @Test("inotify reports a file renamed into a watched directory by name, as a rename")
    func inotifyRename() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inotify = try Inotify()
        let watch = try inotify.watch(directory: directory.path)
        let target = directory.appendingPathComponent("policy.toml").path
        try writeFileAtomically(Array("a = 1\n".utf8), to: target)
        #expect(Self.isReadable(inotify.descriptor, within: 5_000))
        let events = inotify.read()
        #expect(events.contains { $0.watch == watch && $0.name == "policy.toml" && $0.isRenamedOver }, "\(events)")
    }

    @Test("an atomic write leaves the new contents with the mode asked for, and no temporary file")
    func atomicWrite() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.json").path
        try writeFileAtomically(Array("old".utf8), to: path)
        try writeFileAtomically(Array("new".utf8), to: path, mode: 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["state.json"])
        #expect(throws: SystemError.self) {
            try writeFileAtomically([1], to: directory.appendingPathComponent("missing/file").path)
        }
    }

    @Test("a Unix socket: the listener's file has its mode, the peer's credentials are ours, bytes go both ways")
    func unixSocket() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("control.sock").path
        let listener = try UnixListener(path: path, mode: 0o600)
        defer { listener.close() }
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let client = try UnixConnection.connect(to: path)
        #expect(Self.isReadable(listener.descriptor, within: 5_000))
        let accepted = try #require(listener.accept())
        let (server, peer) = accepted
        #expect(peer.uid == getuid() && peer.gid == getgid() && peer.pid == getpid())
        #expect(peer.isMember(ofGroup: getgid()))
        let hello = Array("hello".utf8)
        #expect(hello.withUnsafeBytes { client.send($0) } == .sent(5))
        #expect(server.waitUntilReadable(milliseconds: 5_000))
        var buffer = [UInt8](repeating: 0, count: 16)
        let received = buffer.withUnsafeMutableBytes { server.receive(into: $0) }
        #expect(received == .bytes(5) && Array(buffer.prefix(5)) == hello)
    }
}
