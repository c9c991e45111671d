import FoundationEssentials
import LecternCore

/// One request on the control socket: a JSON object on one line, `{"command": "status"}`,
/// `{"command": "goto", "page": 12}`, `{"command": "open", "path": "/srv/kiosk/menu.pdf"}`,
/// `{"command": "reset"}`, `{"command": "reload"}`,
/// `{"command": "screenshot", "path": "/run/lectern/shot.png"}`,
/// `{"command": "binding", "binding": "right"}`, `{"command": "events", "names": ["page-changed"]}`
/// (then one `KioskEvent` per line until the client goes). Unknown fields are ignored.
public struct ControlRequest: Codable, Equatable, Sendable {
    /// The commands Lectern knows.
    public static let commands = [
        "status", "goto", "open", "reset", "reload", "screenshot", "binding", "speech", "events",
    ]

    public var command: String
    /// `goto`: the page, counting from 1.
    public var page: Int?
    /// `goto`: the page's label (`/PageLabels`), instead of `page`.
    public var label: String?
    /// `open`: the document; `screenshot`: the PNG to write; `speech`: `start` or `stop`.
    public var path: String?
    /// `binding`: `left` or `right`, the document's reading direction to set
    /// (/ViewerPreferences /Direction), saved like a visitor's form (`annotations.save`).
    public var binding: String?
    /// `events`: the events wanted, by name (`KioskEvent.Name`: "page-changed"…); nil or none: all.
    public var names: [String]?

    public init(
        command: String, page: Int? = nil, label: String? = nil, path: String? = nil, binding: String? = nil,
        names: [String]? = nil
    ) {
        self.command = command
        self.page = page
        self.label = label
        self.path = path
        self.binding = binding
        self.names = names
    }

    private enum CodingKeys: String, CodingKey { case command, page, label, path, binding, names }

    /// Reads `page` as any JSON number first: a decoder asked for an `Int` calls a fraction or
    /// a number past `Int`'s range "not valid JSON", which would hide which field is wrong.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        command = try container.decode(String.self, forKey: .command)
        if let number = try container.decodeIfPresent(Double.self, forKey: .page) {
            guard number.rounded() == number, let whole = Int(exactly: number) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .page, in: container, debugDescription: "not a whole number in range")
            }
            page = whole
        }
        label = try container.decodeIfPresent(String.self, forKey: .label)
        path = try container.decodeIfPresent(String.self, forKey: .path)
        binding = try container.decodeIfPresent(String.self, forKey: .binding)
        names = try container.decodeIfPresent([String].self, forKey: .names)
    }

    /// `events`: the names asked for as `KioskEvent.Name`s (nil: every event), or the first
    /// unknown name.
    public var eventNames: Result<Set<KioskEvent.Name>?, ControlProtocolError> {
        guard let names, !names.isEmpty else { return .success(nil) }
        var known: Set<KioskEvent.Name> = []
        for name in names {
            guard let event = KioskEvent.Name(rawValue: name) else {
                let all = KioskEvent.Name.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(.invalid("unknown event \"\(name)\" (known: \(all))"))
            }
            known.insert(event)
        }
        return .success(known)
    }
}

/// What a kiosk reports about itself (`status`).
public struct ControlStatus: Codable, Equatable, Sendable {
    /// The document's path.
    public var document: String
    /// `opening`, `open` or `failed`.
    public var state: String
    /// The page on screen, counting from 1 (0 while nothing is open).
    public var page: Int
    public var pageCount: Int
    /// Where the reader is (the page counts from 0 here, as in `state.json`).
    public var viewState: ViewState?
    public var zoom: Double
    /// Seconds since the last touch, click or key (or since start).
    public var idleSeconds: Double
    public var uptimeSeconds: Double
    public var framesCommitted: Int
    /// The last thing that went wrong: the document failing to open, a new version refused, a
    /// policy edit refused (nil: nothing).
    public var lastError: String?
    public var version: String
    /// Speech (nil from a kiosk older than this field).
    public var speech: Speech?
    /// The keypad focus (nil from a kiosk older than this field).
    public var focus: Focus?
    /// Input→present times since the start, by input ("touch", "pointer", "key"; seconds),
    /// where the compositor offers `wp_presentation` (nil from a kiosk older than this field).
    public var inputToPresent: [String: KioskStatus.Presentations.Percentiles]? = nil
    /// The opening hours (nil from a kiosk older than this field).
    public var hours: Hours?
    /// Resident memory (nil from a kiosk older than this field).
    public var memory: Memory? = nil

    /// The resident memory (`VmRSS`) of the reader and of its render worker, apart.
    public struct Memory: Codable, Equatable, Sendable {
        public var readerKiB: Int?
        /// Nil: no worker runs (`--render-process off`, or between a crash and the restart).
        public var workerKiB: Int?

        public init(readerKiB: Int?, workerKiB: Int?) {
            self.readerKiB = readerKiB
            self.workerKiB = workerKiB
        }
    }

    /// The chrome's language, its code ("de"; nil from a kiosk older than this field).
    public var language: String? = nil

    /// Open or closed (`[hours]`), and when that changes.
    public struct Hours: Codable, Equatable, Sendable {
        /// Inside the opening hours (always, without them).
        public var isOpen: Bool
        /// The next change, in local time ("2026-11-30 08:00"); nil: none coming.
        public var nextChange: String?
        /// The show in force (the open range's, or while closed the next one's).
        public var show: String?

        public init(isOpen: Bool, nextChange: String?, show: String?) {
            self.isOpen = isOpen
            self.nextChange = nextChange
            self.show = show
        }
    }
    /// The audit of the document on screen (nil: none started yet, or a kiosk older than this
    /// field).
    public var audit: AuditStatus?

    /// What speech is doing (`KioskStatus.Speech`).
    public struct Speech: Codable, Equatable, Sendable {
        /// The document is being read aloud (F1, `speech start`, or a keypad key).
        public var isOn: Bool
        /// The sentence being spoken.
        public var sentence: String?
        /// What speech was last asked to say, in order.
        public var queue: [String]

        public init(isOn: Bool, sentence: String?, queue: [String]) {
            self.isOn = isOn
            self.sentence = sentence
            self.queue = queue
        }
    }

    /// Where five-key navigation's focus is (`KioskStatus.KeypadFocus`).
    public struct Focus: Codable, Equatable, Sendable {
        /// The ring shows (a keypad key was pressed since the last touch).
        public var isShown: Bool
        /// "page", "search", "outline", "grid", "editing", "shelf".
        public var level: String
        /// "text", "link", "field", "button"; nil: nothing is focused.
        public var kind: String?
        /// What is said for it.
        public var label: String?
        /// Its page, counting from 1 (nil for a button).
        public var page: Int?

        public init(isShown: Bool, level: String, kind: String?, label: String?, page: Int?) {
            self.isShown = isShown
            self.level = level
            self.kind = kind
            self.label = label
            self.page = page
        }
    }
}

extension ControlStatus.Speech {
    init(_ speech: KioskStatus.Speech) {
        self.init(isOn: speech.isOn, sentence: speech.sentence, queue: speech.queue)
    }
}

extension ControlStatus.Focus {
    init(_ focus: KioskStatus.KeypadFocus) {
        self.init(
            isShown: focus.isShown, level: focus.level, kind: focus.kind, label: focus.label,
            page: focus.page.map { $0 + 1 })
    }
}

/// The answer to one request: one JSON object on one line.
public struct ControlReply: Codable, Equatable, Sendable {
    public var ok: Bool
    /// Why the request failed, for an operator to read.
    public var error: String?
    /// `status`, and after every successful command.
    public var status: ControlStatus?
    /// `screenshot`: the file written.
    public var path: String?

    public init(ok: Bool, error: String? = nil, status: ControlStatus? = nil, path: String? = nil) {
        self.ok = ok
        self.error = error
        self.status = status
        self.path = path
    }

    /// The reply a line holds, or nil.
    public static func parse(_ line: some Collection<UInt8>) -> ControlReply? {
        try? JSONDecoder().decode(ControlReply.self, from: Data(line))
    }

    /// A refusal.
    public static func failure(_ message: String) -> ControlReply { ControlReply(ok: false, error: message) }

    /// The reply as it goes on the wire: compact JSON and a newline.
    public func line() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data(#"{"ok":false,"error":"cannot encode the reply"}"#.utf8))
            + [0x0A]
    }
}

extension ControlRequest {
    /// The request a line holds, or why it holds none ("not JSON …", "unknown command …").
    public static func parse(_ line: some Collection<UInt8>) -> Result<ControlRequest, ControlProtocolError> {
        let request: ControlRequest
        do {
            request = try JSONDecoder().decode(ControlRequest.self, from: Data(line))
        } catch DecodingError.keyNotFound(let key, _) {
            return .failure(.invalid("the request has no \"\(key.stringValue)\""))
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            return .failure(
                .invalid("\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"))
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            // A number too large for its field, or a fraction where a whole number goes.
            return .failure(
                .invalid(
                    "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not a whole number in range"))
        } catch {
            return .failure(.invalid("not a JSON object: \(String(decoding: line.prefix(80), as: UTF8.self))"))
        }
        guard commands.contains(request.command) else {
            return .failure(
                .invalid("unknown command \"\(request.command)\" (known: \(commands.joined(separator: ", ")))"))
        }
        return .success(request)
    }

    /// The request as it goes on the wire: compact JSON and a newline.
    public func line() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }
}

/// Why a line on the control socket was refused.
public enum ControlProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let message): message
        }
    }
}
