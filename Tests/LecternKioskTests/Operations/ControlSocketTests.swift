import Foundation
import LecternCore
import LecternKiosk
import LecternLinux
import LecternPDF
import LecternTestSupport
import Testing

/// The control socket (issue 15): JSON lines on `$XDG_RUNTIME_DIR/lectern.sock`, `KioskApp` in
/// process on the manual clock. The app's loop runs on the test's thread, so a client here
/// sends, then the test turns the loop until the reply is there.
@Suite("Control socket", .serialized)
struct ControlSocketTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// A kiosk with its control socket, and a directory for documents and screenshots.
    final class Kiosk {
        let lectern: KioskHarness
        let directory: URL
        var socket: String { lectern.status.controlSocket ?? "" }

        init(_ arguments: [String] = [colors], policy: String = "") throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "lectern-ctl-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("documents"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("shots"), withIntermediateDirectories: true)
            let policyPath = directory.appendingPathComponent("lectern.toml").path
            try """
            [control]
            documents = "\(directory.path)/documents"
            screenshots = "\(directory.path)/shots"
            \(policy)
            """.write(toFile: policyPath, atomically: true, encoding: .utf8)
            lectern = try KioskHarness(arguments + ["--config", policyPath])
            #expect(lectern.settle())
        }

        /// A client connected to the kiosk.
        func connect() throws -> ControlClient { try ControlClient(path: socket) }

        /// Sends `bytes` on `client` and turns the loop until a reply line comes (or the
        /// connection ends: nil).
        func send(_ bytes: [UInt8], on client: ControlClient) -> ControlReply? {
            client.send(bytes)
            for _ in 0..<2000 {
                lectern.turn(wait: .milliseconds(1))
                do {
                    if let line = try client.nextLine() { return ControlReply.parse(line) }
                } catch {
                    return nil
                }
            }
            Issue.record("no reply")
            return nil
        }

        func ask(_ request: ControlRequest) throws -> ControlReply? {
            let client = try connect()
            defer { client.connection.close() }
            let reply = send(request.line(), on: client)
            lectern.settle()
            return reply
        }

        /// Whether the server closed `client` (end of stream), turning the loop meanwhile.
        func isClosed(_ client: ControlClient) -> Bool {
            for _ in 0..<500 {
                lectern.turn(wait: .milliseconds(1))
                do { _ = try client.nextLine() } catch { return true }
            }
            return false
        }

        deinit {
            try? lectern.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test("status, goto, reset, reload, open and screenshot each do what they say")
    func everyCommand() throws {
        let kiosk = try Kiosk([Self.colors, "--page", "2"])
        let lectern = kiosk.lectern
        // The socket file is the owner's alone.
        var info = stat()
        #expect(stat(kiosk.socket, &info) == 0 && info.st_mode & 0o777 == 0o600)

        let status = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status)
        #expect(status.document == Self.colors && status.state == "open")
        #expect(status.page == 2 && status.pageCount == 8 && status.viewState?.pageIndex == 1)
        #expect(status.viewState?.viewport == nil && status.lastError == nil && status.version == KioskApp.version)
        // The reader's resident memory (here: the test process's) and the render worker's, apart.
        let memory = try #require(status.memory)
        #expect((memory.readerKiB ?? 0) > 1024 && (memory.workerKiB ?? 0) > 1024)
        #expect(memory.readerKiB != memory.workerKiB)

        let moved = try kiosk.ask(ControlRequest(command: "goto", page: 6))
        #expect(moved?.ok == true && moved?.status?.page == 6)
        #expect(lectern.page(atX: 640, y: 200) == 6)

        let reset = try kiosk.ask(ControlRequest(command: "reset"))
        #expect(reset?.ok == true)
        #expect(lectern.page(atX: 640, y: 200) == 2, "the start page")

        let shot = kiosk.directory.appendingPathComponent("shots/screen.png").path
        let written = try kiosk.ask(ControlRequest(command: "screenshot", path: shot))
        #expect(written?.ok == true && written?.path == shot, "\(String(describing: written))")
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 1000)

        let other = kiosk.directory.appendingPathComponent("documents/text.pdf").path
        try FileManager.default.copyItem(atPath: LecternHarness.fixture("text-3pages.pdf"), toPath: other)
        let opened = try kiosk.ask(ControlRequest(command: "open", path: other))
        #expect(opened?.ok == true)
        #expect(
            opened?.status?.document == other && opened?.status?.state == "opening",
            "the reply names the document being opened: \(String(describing: opened?.status))")
        #expect(lectern.wait { lectern.status.documentReloads == 1 })
        lectern.settle()
        let now = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status)
        #expect(now.document == other && now.pageCount == 3)

        let reloaded = try kiosk.ask(ControlRequest(command: "reload"))
        #expect(reloaded?.ok == true)
        #expect(lectern.wait { lectern.status.documentReloads == 2 })

        // A book in the directory opens too (issue 35); a file not named as a document does not.
        let book = kiosk.directory.appendingPathComponent("documents/book.epub").path
        try GeneratedEPUB.numbered(chapters: 2, paragraphs: 4).write(to: book)
        #expect(try kiosk.ask(ControlRequest(command: "open", path: book))?.ok == true)
        #expect(lectern.wait { lectern.status.documentReloads == 3 })
        lectern.settle()
        #expect(try kiosk.ask(ControlRequest(command: "status"))?.status?.document == book)
        let notes = kiosk.directory.appendingPathComponent("documents/notes.txt").path
        try "text".write(toFile: notes, atomically: true, encoding: .utf8)
        #expect(try kiosk.ask(ControlRequest(command: "open", path: notes))?.ok != true)
    }

    @Test("status says what speech says and where the keypad focus is; keypad 5 on a link turns to its page")
    func speechAndFocus() throws {
        // links.pdf: "Links", then "Go to page 3" under a link to page 3 (Tests/e2e/sway.sh too).
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-ctl-\(UUID()).wav").path
        defer { unlink(wav) }
        let kiosk = try Kiosk([LecternHarness.fixture("links.pdf"), "--speech-output", wav])
        let lectern = kiosk.lectern
        let before = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status)
        #expect(before.speech == ControlStatus.Speech(isOn: false, sentence: nil, queue: []))
        #expect(before.focus == ControlStatus.Focus(isShown: false, level: "page", kind: nil, label: nil, page: nil))

        #expect(try kiosk.ask(ControlRequest(command: "speech", path: "start"))?.status?.speech?.isOn == true)
        #expect(lectern.wait { !lectern.status.speech.queue.isEmpty })
        let started = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status?.speech)
        #expect(
            started.isOn && started.queue.starts(with: ["links.pdf.", "Page 1 of 3.", "Press F1 for help.", "Links"]),
            "the orientation, then the page: \(started.queue)")

        #expect(lectern.enableKeyboard())
        var labels: [String?] = []
        for _ in 0..<3 {
            lectern.press(80)  // keypad 2
            labels.append(try kiosk.ask(ControlRequest(command: "status"))?.status?.focus?.label)
        }
        #expect(labels == ["Links", "Go to page 3", "Link to page 3: Go to page 3"])
        let focused = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status)
        #expect(
            focused.focus
                == ControlStatus.Focus(
                    isShown: true, level: "page", kind: "link", label: "Link to page 3: Go to page 3", page: 1))
        #expect(focused.speech?.queue == ["Link to page 3: Go to page 3"], "the focused item is said instead")

        lectern.press(76)  // keypad 5
        #expect(lectern.waitForPage(3))
        let followed = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status)
        #expect(followed.page == 3 && followed.focus?.page == 3 && followed.focus?.label == "Page three")
    }

    @Test("a document opened over the socket stays on screen when the policy changes something else")
    func openedDocumentOutlivesAPolicyChange() throws {
        let kiosk = try Kiosk()
        let lectern = kiosk.lectern
        let other = kiosk.directory.appendingPathComponent("documents/text.pdf").path
        try FileManager.default.copyItem(atPath: LecternHarness.fixture("text-3pages.pdf"), toPath: other)
        #expect(try kiosk.ask(ControlRequest(command: "open", path: other))?.ok == true)
        #expect(lectern.wait { lectern.status.documentReloads == 1 })
        lectern.settle()

        let policy = kiosk.directory.appendingPathComponent("lectern.toml").path
        let text = try String(contentsOfFile: policy, encoding: .utf8)
        try (text + "\n[idle]\nreset = 300\n").write(toFile: policy, atomically: true, encoding: .utf8)
        #expect(lectern.wait { lectern.status.hasPendingFileChanges })
        lectern.advance(by: 0.3)  // the file's quiet period
        #expect(lectern.status.policyGeneration == 2, "\(lectern.status.policyError ?? "")")
        lectern.settle()
        let now = try #require(try kiosk.ask(ControlRequest(command: "status"))?.status)
        #expect(now.document == other && now.pageCount == 3, "still the opened document: \(now)")
        #expect(lectern.status.documentReloads == 1, "nothing was opened again")
    }

    @Test("malformed JSON, unknown commands, bad values and paths each get an error; the client may go on")
    func badRequests() throws {
        let kiosk = try Kiosk()
        let client = try kiosk.connect()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside.png").path
        let cases: [(String, String)] = [
            ("{\"command\": \"status\"", "not a JSON object"),
            ("[1, 2]", "not a JSON object"),
            ("{}", "no \"command\""),
            ("{\"command\": 3}", "wrong type"),
            ("{\"command\": \"explode\"}", "unknown command \"explode\""),
            ("{\"command\": \"goto\"}", "goto needs a page"),
            ("{\"command\": \"goto\", \"page\": 9}", "page 9 is out of range (1–8)"),
            ("{\"command\": \"goto\", \"page\": \"two\"}", "wrong type"),
            ("{\"command\": \"goto\", \"label\": \"iv\"}", "no page is labelled \"iv\""),
            ("{\"command\": \"goto\", \"page\": 99999999999999999999}", "page is not a whole number in range"),
            ("{\"command\": \"goto\", \"page\": 2.5}", "page is not a whole number in range"),
            ("{\"command\": \"goto\", \"page\": -1}", "page -1 is out of range (1–8)"),
            (
                "{\"command\": \"goto\", \"label\": \"99999999999999999999\"}",
                "page 99999999999999999999 is out of range (1–8)"
            ),
            ("{\"command\": \"open\", \"path\": \"/etc/passwd\"}", "is not the policy's document"),
            ("{\"command\": \"open\", \"path\": \"\(kiosk.directory.path)/documents/../../x.pdf\"}", "is not"),
            (
                "{\"command\": \"screenshot\", \"path\": \"\(outside)\"}",
                "screenshots go in \(kiosk.directory.path)/shots (control.screenshots)"
            ),
            (
                "{\"command\": \"screenshot\", \"path\": \"\(kiosk.directory.path)/shots/../x.png\"}",
                "screenshots go in"
            ),
            ("{\"command\": \"screenshot\", \"path\": \"\(kiosk.directory.path)/shots/x.txt\"}", "ending in .png"),
        ]
        for (line, message) in cases {
            let reply = kiosk.send(Array((line + "\n").utf8), on: client)
            #expect(reply?.ok == false, "\(line)")
            #expect(reply?.error?.contains(message) == true, "\(line): \(reply?.error ?? "no reply")")
        }
        #expect(!FileManager.default.fileExists(atPath: outside))
        // Still answered, still on page 1.
        #expect(kiosk.send(ControlRequest(command: "status").line(), on: client)?.status?.page == 1)
        #expect(kiosk.lectern.page(atX: 640, y: 200) == 1)
    }

    @Test("an oversized line, a silent client and a vanished one are dropped; the reader goes on")
    func misbehavingClients() throws {
        let kiosk = try Kiosk()
        let long = try kiosk.connect()
        let reply = kiosk.send(Array(repeating: UInt8(ascii: "x"), count: 10_000), on: long)
        #expect(reply?.error?.contains("longer than 4096 bytes") == true, "\(String(describing: reply))")
        #expect(kiosk.isClosed(long))

        let silent = try kiosk.connect()
        kiosk.lectern.turn()
        kiosk.lectern.advanceWithoutSettling(by: 10.5)
        #expect(kiosk.isClosed(silent), "dropped after 10 s without a line")

        // A client that sends a request and goes away before the reply.
        for _ in 0..<5 {
            let vanishing = try kiosk.connect()
            vanishing.send(ControlRequest(command: "status"))
            vanishing.connection.close()
        }
        kiosk.lectern.settle()
        #expect(try kiosk.ask(ControlRequest(command: "goto", page: 3))?.ok == true)
        #expect(kiosk.lectern.page(atX: 640, y: 200) == 3)
    }

    /// Runs `lectern ctl ARGUMENTS` as `user` while the loop turns; its exit status and output.
    func ctlAsKioskUser(_ arguments: [String], user: String, kiosk: Kiosk) throws -> (status: Int32, output: String) {
        let binary = try LecternProcess.lecternExecutable()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", user, "--", binary.path, "ctl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning, ContinuousClock.now < deadline { kiosk.lectern.turn(wait: .milliseconds(2)) }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    /// The unprivileged user `kiosk/install-deps` creates (LECTERN_USER, default kiosk): its
    /// name, uid and primary gid, looked up, never assumed.
    static func unprivilegedUser() -> (name: String, uid: uid_t, gid: gid_t)? {
        let name = ProcessInfo.processInfo.environment["LECTERN_USER"] ?? "kiosk"
        guard let entry = getpwnam(name) else {
            Issue.record("no user '\(name)' to run lectern ctl as: kiosk/install-deps creates it")
            return nil
        }
        return (name, entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    @Test(
        "a peer of another user is refused, even when the socket file lets it connect; the policy's group admits it",
        .enabled(if: geteuid() == 0, "runs lectern ctl as another user: needs root"))
    func wrongUser() throws {
        guard let user = Self.unprivilegedUser() else { return }
        let kiosk = try Kiosk()
        // Open the way through the file system: only SO_PEERCRED stands between.
        #expect(chmod((kiosk.socket as NSString).deletingLastPathComponent, 0o711) == 0)
        #expect(chmod(kiosk.socket, 0o666) == 0)
        let refused = try ctlAsKioskUser(["status", "--socket", kiosk.socket, "--json"], user: user.name, kiosk: kiosk)
        #expect(refused.status == 1, "\(refused.output)")
        #expect(
            refused.output.contains("permission denied: uid \(user.uid) may not use this socket"), "\(refused.output)")

        let group = String(cString: getgrgid(user.gid).pointee.gr_name)
        let admitted = try Kiosk(policy: "group = \"\(group)\"")
        #expect(chmod((admitted.socket as NSString).deletingLastPathComponent, 0o711) == 0)
        var info = stat()
        #expect(stat(admitted.socket, &info) == 0 && info.st_mode & 0o777 == 0o660 && info.st_gid == user.gid)
        let answered = try ctlAsKioskUser(["goto", "4", "--socket", admitted.socket], user: user.name, kiosk: admitted)
        #expect(answered.status == 0, "\(answered.output)")
        #expect(answered.output.contains("page: 4 of 8"), "\(answered.output)")
    }

    @Test("100 clients at once while a finger drags: every one answered, no frame held up")
    func manyClientsWhileDragging() throws {
        let kiosk = try Kiosk([Self.colors, "--scroll", "continuous", "--direction", "vertical"])
        let lectern = kiosk.lectern
        let path = kiosk.socket
        // A drag, one move a frame, for as long as the clients take (at least a second).
        let c = lectern.compositor
        c.touchDown(id: 0, x: 640, y: 200)
        c.touchFrame()
        lectern.advanceWithoutSettling(by: KioskHarness.frame)
        // Past the touch slop: from here every move scrolls.
        for step in 1...5 {
            c.touchMotion(id: 0, x: 640, y: 200 + Double(step * 4))
            c.touchFrame()
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
        }
        let replies = Replies()
        let group = DispatchGroup()
        for _ in 0..<100 {
            DispatchQueue.global().async(group: group) {
                let reply = try? ControlClient(path: path).request(ControlRequest(command: "status"), timeout: 20_000)
                replies.add(reply)
            }
        }
        var moves = 5, missed = 0
        let deadline = ContinuousClock.now + .seconds(30)
        while (moves < 60 || replies.count < 100), ContinuousClock.now < deadline {
            let commits = c.commitCount
            moves += 1
            // Up and down the screen, 4 px a frame.
            let travel = (moves * 4) % 800
            c.touchMotion(id: 0, x: 640, y: 200 + Double(travel < 400 ? travel : 800 - travel))
            c.touchFrame()
            lectern.advanceWithoutSettling(by: KioskHarness.frame)
            // The frame callback came, the move is drawn by the next turn at the latest.
            if c.commitCount == commits {
                lectern.turn(wait: .milliseconds(1))
                if c.commitCount == commits { missed += 1 }
            }
        }
        c.touchUp(id: 0)
        lectern.settle()
        group.wait()
        #expect(replies.count == 100)
        #expect(replies.ok == 100, "answered: \(replies.ok) of \(replies.count)")
        #expect(moves >= 60 && missed == 0, "\(missed) of \(moves) moves not drawn within a frame")
    }

    final class Replies: @unchecked Sendable {
        // Sendable: guarded by `lock`.
        private let lock = NSLock()
        private var replies: [ControlReply?] = []
        func add(_ reply: ControlReply?) { lock.withLock { replies.append(reply) } }
        var count: Int { lock.withLock { replies.count } }
        var ok: Int { lock.withLock { replies.filter { $0?.ok == true && $0?.status?.pageCount == 8 }.count } }
    }

    @Test(
        "binding right sets the document's reading direction: the view turns right to left, the idle reset saves it to a copy"
    )
    func bindingIsSetAndSavedToACopy() throws {
        let saved = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lectern-binding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: saved, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: saved) }
        let kiosk = try Kiosk(
            policy:
                "[annotations]\nsave = \"copy\"\nsave-directory = \"\(saved.path)\"\n[idle]\nreset = 30\ncountdown = 0\n"
        )
        let lectern = kiosk.lectern
        #expect(!lectern.status.readsRightToLeft)
        #expect(
            try kiosk.ask(ControlRequest(command: "binding", binding: "up"))?.error == "binding needs left or right")
        #expect(try kiosk.ask(ControlRequest(command: "binding", binding: "right"))?.ok == true)
        #expect(lectern.wait { lectern.status.readsRightToLeft }, "the view follows the document's new direction")
        #expect(lectern.status.annotations.hasUnsavedChanges)
        lectern.advance(by: 31)
        #expect(lectern.wait { lectern.status.annotations.saves == 1 })
        let copy = try #require(lectern.status.annotations.lastSavePath)
        #expect(try PDFDocument(path: copy).isRightToLeft, "the copy reads right to left")
        #expect(try !PDFDocument(path: Self.colors).isRightToLeft, "the source does not")
    }

    @Test("after binding right and left the thumbnail bar shows the current page again (its strip flips)")
    func bindingRecentresTheBar() throws {
        let kiosk = try Kiosk([try TextDocument.path(pages: 36), "--page", "5"])
        let lectern = kiosk.lectern
        lectern.tap(x: 640, y: 360)
        lectern.advance(by: 0.35)
        #expect(lectern.status.navigation.isThumbnailBarShown)
        #expect(lectern.status.navigation.thumbnailPages.contains(4), "page 5's thumbnail shows")
        for binding in ["right", "left"] {
            #expect(try kiosk.ask(ControlRequest(command: "binding", binding: binding))?.ok == true)
            #expect(lectern.wait { lectern.status.readsRightToLeft == (binding == "right") })
            lectern.settle()
            #expect(lectern.status.navigation.isThumbnailBarShown)
            #expect(
                lectern.status.navigation.thumbnailPages.contains(4),
                "binding \(binding): page 5's thumbnail shows: \(lectern.status.navigation.thumbnailPages)")
        }
    }
}
