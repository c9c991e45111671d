import LecternLinux

/// A client of a kiosk's control socket (`lectern ctl`, tests, scripts in Swift): sends requests
/// as JSON lines and reads the replies.
public final class ControlClient {
    /// Why a request got no reply.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case connect(SystemError)
        case timedOut(path: String)
        case closed(path: String)
        case notAReply(String)

        public var description: String {
            switch self {
            case .connect(let error): "\(error) (is Lectern running, with its control socket there?)"
            case .timedOut(let path): "no reply from \(path)"
            case .closed(let path): "\(path) closed the connection without a reply"
            case .notAReply(let line): "not a reply: \(line)"
            }
        }
    }

    public let path: String
    public let connection: UnixConnection
    private var buffer: [UInt8] = []

    /// Connects to the socket at `path`.
    public init(path: String) throws(Failure) {
        self.path = path
        do {
            connection = try UnixConnection.connect(to: path)
        } catch {
            throw .connect(error)
        }
    }

    /// The standard socket's path: `$XDG_RUNTIME_DIR/lectern.sock`.
    public static func standardPath(runtimeDirectory: String?) -> String? {
        runtimeDirectory.map { $0 + "/lectern.sock" }
    }

    /// Sends `bytes` (a request's line); false when the kiosk is gone or does not read.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let result = bytes[offset...].withUnsafeBytes { connection.send($0) }
            switch result {
            case .sent(let count): offset += count
            case .wouldBlock: guard connection.waitUntilWritable(milliseconds: 5000) else { return false }
            case .failed: return false
            }
        }
        return true
    }

    /// Sends `request`.
    @discardableResult
    public func send(_ request: ControlRequest) -> Bool { send(request.line()) }

    /// The next reply line if one has arrived (never waits); `.closed` at end of stream.
    public func nextLine() throws(Failure) -> [UInt8]? {
        if let line = takeLine() { return line }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = chunk.withUnsafeMutableBytes { connection.receive(into: $0) }
            switch result {
            case .bytes(let count):
                buffer += chunk[0..<count]
                if let line = takeLine() { return line }
            case .wouldBlock: return nil
            case .end, .failed: throw .closed(path: path)
            }
        }
    }

    /// The next reply, waiting up to `milliseconds` for it.
    public func reply(timeout milliseconds: Int32 = 5000) throws(Failure) -> ControlReply {
        let line = try line(timeout: milliseconds)
        return try Self.decode(line)
    }

    /// The next line, waiting up to `milliseconds` for it.
    public func line(timeout milliseconds: Int32 = 5000) throws(Failure) -> [UInt8] {
        while true {
            if let line = try nextLine() { return line }
            guard connection.waitUntilReadable(milliseconds: milliseconds) else { throw .timedOut(path: path) }
        }
    }

    /// The reply a line holds.
    public static func decode(_ line: [UInt8]) throws(Failure) -> ControlReply {
        guard let reply = ControlReply.parse(line) else { throw .notAReply(String(decoding: line, as: UTF8.self)) }
        return reply
    }

    /// Sends `request` and waits for its reply.
    public func request(_ request: ControlRequest, timeout milliseconds: Int32 = 5000) throws(Failure) -> ControlReply {
        guard send(request) else { throw .closed(path: path) }
        return try reply(timeout: milliseconds)
    }

    private func takeLine() -> [UInt8]? {
        guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        return line
    }
}
