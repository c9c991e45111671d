import ArgumentParser
import Glibc
import LecternCore
import LecternKiosk

/// `lectern ctl COMMAND`: asks a running kiosk over its control socket (`ControlClient`) and
/// prints the reply, for people (one line per fact) or for scripts (`--json`: the reply's line).
struct Ctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lectern ctl",
        abstract: "Ask a running Lectern what it shows, or tell it what to show (its control socket).",
        discussion: """
            Commands: status; goto PAGE (a number, counting from 1, or a page label); open PATH (the \
            policy's document or a PDF in control.documents); reset (the start view); reload (the \
            policy and the document); screenshot PATH (a PNG in control.screenshots); binding \
            left|right (the document's reading direction, saved as annotations.save says); speech \
            start|stop (read the page on screen aloud, or stop); events [NAME…] (print each event \
            as a JSON line as it happens, until the kiosk goes: document-loaded, document-failed, \
            spread-shown, page-changed, zoom-changed, view-state-restored, component-activated, \
            annotation-tapped, text-selected, idle-reset, attract-started; none named: all). Exits 1 \
            when the kiosk refuses, 2 when it cannot be reached.
            """)

    @Argument(help: "status, goto, open, reset, reload, screenshot, binding, speech or events.")
    var command: String

    /// The command's argument. Parsed as everything the options leave, so that `goto -1` is a
    /// page (the kiosk says it is out of range), not an unknown option.
    @Argument(
        parsing: .allUnrecognized,
        help: "goto: the page or its label; open, screenshot: the path; binding: left or right; speech: start or stop.")
    var arguments: [String] = []

    var argument: String? { arguments.first }

    @Option(
        help: ArgumentHelp(
            "The control socket (default: $XDG_RUNTIME_DIR/lectern.sock).", valueName: "path"))
    var socket: String?

    @Flag(help: "Print the reply as JSON, as the socket sent it.")
    var json = false

    @Option(help: ArgumentHelp("Seconds to wait for the reply (default 5).", valueName: "seconds"))
    var timeout = 5.0

    func validate() throws {
        guard ControlRequest.commands.contains(command) else {
            throw ValidationError(
                "unknown command \(command) (known: \(ControlRequest.commands.joined(separator: ", ")))")
        }
        if command == "events" {
            if case .failure(let error) = request.eventNames { throw ValidationError(error.description) }
            return
        }
        guard arguments.count <= 1 else {
            throw ValidationError("\(command) takes one argument, not \(arguments.joined(separator: " "))")
        }
        let needsArgument = ["goto", "open", "screenshot", "binding", "speech"].contains(command)
        if needsArgument, argument == nil { throw ValidationError("\(command) needs an argument") }
        if !needsArgument, argument != nil { throw ValidationError("\(command) takes no argument") }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be 0 to 3600 seconds") }
    }

    /// The request the command line asks for.
    var request: ControlRequest {
        switch command {
        case "goto":
            Int(argument ?? "").map { ControlRequest(command: command, page: $0) }
                ?? ControlRequest(command: command, label: argument)
        case "open", "screenshot", "speech": ControlRequest(command: command, path: argument)
        case "binding": ControlRequest(command: command, binding: argument)
        case "events": ControlRequest(command: command, names: arguments)
        default: ControlRequest(command: command)
        }
    }

    func run() throws {
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        guard let path = socket ?? ControlClient.standardPath(runtimeDirectory: runtime) else {
            throw ValidationError("XDG_RUNTIME_DIR is not set: give the socket with --socket")
        }
        if command == "events" { return try follow(path: path) }
        let line: [UInt8]
        let reply: ControlReply
        do {
            let client = try ControlClient(path: path)
            // A kiosk that refuses this user says why and closes: its line is read even when
            // the request could not be sent.
            client.send(request)
            line = try client.line(timeout: Int32(timeout * 1000))
            reply = try ControlClient.decode(line)
        } catch {
            printError("lectern ctl: \(error)")
            throw ExitCode(2)
        }
        if json {
            print(String(decoding: line, as: UTF8.self))
        } else if let error = reply.error {
            printError("lectern ctl: \(error)")
        } else {
            print(Self.describe(reply))
        }
        if !reply.ok { throw ExitCode.failure }
    }

    /// `events`: prints each event's line as it comes, until the kiosk closes the connection.
    private func follow(path: String) throws {
        do {
            let client = try ControlClient(path: path)
            client.send(request)
            let reply = try ControlClient.decode(try client.line(timeout: Int32(timeout * 1000)))
            guard reply.ok else {
                printError("lectern ctl: \(reply.error ?? "refused")")
                throw ExitCode.failure
            }
            // Each line as it comes (not buffered: a pipe into a script sees it at once).
            while true {
                let line = try client.line(timeout: -1) + [0x0A]
                _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            }
        } catch let failure as ControlClient.Failure {
            if case .closed = failure { return }
            printError("lectern ctl: \(failure)")
            throw ExitCode(2)
        }
    }

    private func printError(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The reply for a person to read.
    static func describe(_ reply: ControlReply) -> String {
        var lines: [String] = []
        if let path = reply.path { lines.append("wrote \(path)") }
        if let status = reply.status {
            lines.append("document: \(status.document) (\(status.state))")
            lines.append("page: \(status.page) of \(status.pageCount)")
            if let viewport = status.viewState?.viewport {
                lines.append(
                    "zoom: \(Int((status.zoom * 100).rounded())) % (viewport \(Int(viewport.minX)) \(Int(viewport.minY)) "
                        + "\(Int(viewport.width))×\(Int(viewport.height)) pt)")
            }
            lines.append("idle: \(Int(status.idleSeconds)) s, up: \(Int(status.uptimeSeconds)) s")
            if let code = status.language {
                lines.append("language: \(code)\(Language.named(code).map { " (\($0.name))" } ?? "")")
            }
            if let error = status.lastError { lines.append("last error: \(error)") }
            if let hours = status.hours {
                let show = hours.show.map { ", show \($0)" } ?? ""
                let until = hours.nextChange.map { " until \($0)" } ?? ""
                lines.append("hours: \(hours.isOpen ? "open" : "closed")\(until)\(show)")
            }
            for (input, times) in (status.inputToPresent ?? [:]).sorted(by: { $0.key < $1.key }) {
                func ms(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
                lines.append(
                    "\(input) to screen: median \(ms(times.p50)), p99 \(ms(times.p99)), longest \(ms(times.max)) (\(times.count) frames)"
                )
            }
            if let memory = status.memory {
                func mib(_ kib: Int?) -> String {
                    kib.map { "\((Double($0) / 1024 * 10).rounded() / 10) MiB" } ?? "none"
                }
                lines.append("resident memory: reader \(mib(memory.readerKiB)), render worker \(mib(memory.workerKiB))")
            }
            if let audit = status.audit {
                let state = audit.isRunning ? " (an audit is running)" : ""
                lines.append("audit of \(audit.document): \(audit.pagesAudited) pages\(state)")
                lines += audit.findings.map { "  " + $0 }
            }
            lines.append("version: \(status.version)")
        }
        return lines.isEmpty ? "ok" : lines.joined(separator: "\n")
    }
}
