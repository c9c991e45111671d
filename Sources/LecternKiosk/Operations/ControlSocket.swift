import Glibc
import LecternLinux
import Logging

/// The control socket's transport: a Unix socket speaking JSON lines, on the event loop.
///
/// Each connection's peer is checked when it connects (`SO_PEERCRED`): the kiosk's own user,
/// root, or a member of the policy's group; anyone else gets an error and is closed. Nothing a
/// client does can hold the reader up or bring it down: every read and write is non-blocking; a
/// line longer than `Limits.lineBytes`, a client that sends no whole line for
/// `Limits.idleSeconds`, one that does not read its replies (a reply that does not fit in its
/// socket buffer), and clients beyond `Limits.clients` get an error if they can take it and are
/// closed. Requests of one client are answered in order; what they do is `ControlCommands`'.
final class ControlSocket {
    /// What one client may do.
    struct Limits {
        /// The longest line (request) in bytes.
        var lineBytes = 4096
        /// Clients connected at once.
        var clients = 128
        /// Seconds a client may stay connected without a whole line.
        var idleSeconds = 10.0
    }

    /// One connected client.
    final class Client {
        let connection: UnixConnection
        let peer: PeerCredentials
        fileprivate var buffer: [UInt8] = []
        fileprivate var watch: EventLoop.Watch?
        fileprivate var timer: EventLoop.Timer?
        /// A reply is awaited (a screenshot being written): later lines wait.
        fileprivate var isBusy = false
        /// A request is being handed to `handle` (a reply now needs no further processing).
        fileprivate var isDispatching = false
        /// The client closed its end: it is closed once its last reply went.
        fileprivate var hasEnded = false
        /// Subscribed to events (`events`): ends the subscription.
        fileprivate var unsubscribe: (() -> Void)?
        fileprivate(set) var isClosed = false

        fileprivate init(connection: UnixConnection, peer: PeerCredentials) {
            self.connection = connection
            self.peer = peer
        }
    }

    let loop: EventLoop
    let listener: UnixListener
    let limits: Limits
    private let logger: Logger
    private let allowedGroup: UInt32?
    private var listenerWatch: EventLoop.Watch?
    private var clients: [ObjectIdentifier: Client] = [:]
    /// Answers a request; calls its second argument exactly once, now or later.
    var handle: (ControlRequest, @escaping (ControlReply) -> Void) -> Void = { _, reply in
        reply(.failure("not ready"))
    }
    /// Subscribes a client to the events named (nil: all): each line it is given goes to the
    /// client, and returns false when the client cannot take it (it is dropped then); the
    /// result ends the subscription. Nil: `events` is refused.
    var subscribe: ((Set<KioskEvent.Name>?, _ send: @escaping ([UInt8]) -> Bool) -> () -> Void)?
    /// Connections refused or dropped so far (wrong user, too many, too long, too slow).
    private(set) var dropped = 0

    /// Listens at `path` (mode 0600, or 0660 owned by `group` when one is named).
    init(path: String, group: String?, limits: Limits = Limits(), loop: EventLoop, logger: Logger) throws(SystemError) {
        let gid = group.flatMap(groupID(named:))
        listener = try UnixListener(path: path, mode: gid == nil ? 0o600 : 0o660)
        if let gid, chown(path, UInt32.max, gid) != 0 {
            logger.warning("cannot give the control socket to group \(group ?? ""): \(errnoText(errno))")
        }
        allowedGroup = gid
        self.limits = limits
        self.loop = loop
        self.logger = logger
        listenerWatch = loop.watch(listener.descriptor) { [unowned self] in acceptClients() }
    }

    /// Clients connected now.
    var clientCount: Int { clients.count }

    /// Closes every client and the socket, removing its file (shutdown).
    func close() {
        listenerWatch?.cancel()
        listenerWatch = nil
        for client in clients.values { drop(client, reason: nil) }
        listener.close()
    }

    private func acceptClients() {
        // Bounded: a flood of connections cannot keep the loop here.
        for _ in 0..<limits.clients {
            guard let (connection, peer) = listener.accept() else { return }
            let client = Client(connection: connection, peer: peer)
            guard isAllowed(peer) else {
                logger.warning("control socket: refused uid \(peer.uid) (pid \(peer.pid))")
                refuse(client, "permission denied: uid \(peer.uid) may not use this socket")
                continue
            }
            guard clients.count < limits.clients else {
                refuse(client, "too many clients (\(limits.clients)); try again")
                continue
            }
            clients[ObjectIdentifier(client)] = client
            client.watch = loop.watch(connection.descriptor) { [unowned self, unowned client] in read(client) }
            restartTimer(client)
        }
    }

    /// The kiosk's own user, root, or a member of the policy's group.
    private func isAllowed(_ peer: PeerCredentials) -> Bool {
        peer.uid == getuid() || peer.uid == 0 || allowedGroup.map { peer.isMember(ofGroup: $0) } == true
    }

    private func refuse(_ client: Client, _ message: String) {
        dropped += 1
        _ = send(ControlReply.failure(message), to: client)
        client.connection.close()
    }

    private func restartTimer(_ client: Client) {
        client.timer?.cancel()
        client.timer = loop.schedule(after: limits.idleSeconds) { [unowned self, unowned client] in
            drop(client, reason: "no request for \(Int(limits.idleSeconds)) s")
        }
    }

    private func read(_ client: Client) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        // At most a few lines' worth per turn: a client that floods is read over several turns.
        for _ in 0..<4 {
            let result = chunk.withUnsafeMutableBytes { client.connection.receive(into: $0) }
            switch result {
            case .bytes(let count):
                client.buffer += chunk[0..<count]
                guard processLines(of: client) else { return }
            case .wouldBlock:
                return
            case .end, .failed:
                // Whole lines that came before the end are still answered.
                client.hasEnded = true
                client.watch?.cancel()
                _ = processLines(of: client)
                if !client.isBusy { drop(client, reason: nil) }
                return
            }
        }
    }

    /// Answers the whole lines waiting; false when the client was dropped.
    private func processLines(of client: Client) -> Bool {
        while !client.isBusy, !client.isClosed, let newline = client.buffer.firstIndex(of: 0x0A) {
            let line = client.buffer[..<newline]
            client.buffer.removeSubrange(...newline)
            restartTimer(client)
            let trimmed = line.last == 0x0D ? line.dropLast() : line
            guard !trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { continue }
            guard trimmed.count <= limits.lineBytes else {
                drop(client, reason: "a line longer than \(limits.lineBytes) bytes")
                return false
            }
            switch ControlRequest.parse(trimmed) {
            case .failure(let error):
                guard send(.failure(error.description), to: client) else { return false }
            case .success(let request) where request.command == "events":
                return subscribe(client, to: request)
            case .success(let request):
                client.isBusy = true
                client.isDispatching = true
                handle(request) { [weak self, weak client] reply in
                    guard let self, let client, !client.isClosed else { return }
                    client.isBusy = false
                    guard send(reply, to: client), !client.isDispatching else { return }
                    // A reply that came later (a screenshot): the lines that waited go on.
                    if processLines(of: client), client.hasEnded, !client.isBusy { drop(client, reason: nil) }
                }
                client.isDispatching = false
            }
        }
        if client.isClosed { return false }
        if client.buffer.count > limits.lineBytes, client.buffer.firstIndex(of: 0x0A) == nil {
            drop(client, reason: "a line longer than \(limits.lineBytes) bytes")
            return false
        }
        return true
    }

    /// `events`: the client gets the events it named, one line each, from now until it goes;
    /// what it sends from now on is not read. One that does not read them fast enough (its socket
    /// buffer full) is dropped: an event is never waited for. False: the client was dropped.
    private func subscribe(_ client: Client, to request: ControlRequest) -> Bool {
        guard let subscribe else { return send(.failure("events are not offered here"), to: client) }
        switch request.eventNames {
        case .failure(let error):
            return send(.failure(error.description), to: client)
        case .success(let names):
            client.timer?.cancel()
            client.timer = nil
            client.watch?.cancel()
            client.watch = nil
            client.buffer = []
            client.isBusy = true
            guard send(ControlReply(ok: true), to: client) else { return false }
            client.unsubscribe = subscribe(names) { [weak self, weak client] line in
                guard let self, let client, !client.isClosed else { return false }
                return send(line: line, to: client, reason: "it does not read its events")
            }
            return false
        }
    }

    /// Sends `reply` whole or drops the client (it does not read what it is sent); false then.
    private func send(_ reply: ControlReply, to client: Client) -> Bool {
        send(line: reply.line(), to: client, reason: "it does not read its replies")
    }

    /// Sends `line` whole or drops the client for `reason`; false then.
    private func send(line: [UInt8], to client: Client, reason: String) -> Bool {
        let result = line.withUnsafeBytes { client.connection.send($0) }
        guard case .sent(let count) = result, count == line.count else {
            if !client.isClosed, clients[ObjectIdentifier(client)] != nil { drop(client, reason: reason) }
            return false
        }
        return true
    }

    /// Closes `client`, telling it why if there is a reason (and it can take it).
    private func drop(_ client: Client, reason: String?) {
        guard !client.isClosed else { return }
        client.isClosed = true
        clients[ObjectIdentifier(client)] = nil
        client.unsubscribe?()
        client.unsubscribe = nil
        client.watch?.cancel()
        client.timer?.cancel()
        if let reason {
            dropped += 1
            logger.warning("control socket: dropped a client (uid \(client.peer.uid)): \(reason)")
            let line = ControlReply.failure("closing the connection: \(reason)").line()
            _ = line.withUnsafeBytes { client.connection.send($0) }
        }
        client.connection.close()
    }
}
