import Foundation
import LecternCore
import LecternKiosk
import LecternTestSupport
import Testing

/// The view kept across restarts (issue 15): `state.json` in `$STATE_DIRECTORY/lectern`,
/// restored only for the same version of the same document. `KioskApp` in process on the manual
/// clock, and once the real binary killed with SIGKILL.
@Suite("Saved view", .serialized)
struct SavedViewTests {
    static let colors = LecternHarness.fixture("colors-8pages.pdf")

    /// A fresh state directory (and a place for documents), removed at the end.
    final class StateDirectory {
        let url: URL
        var path: String { url.path }
        var file: String { url.appendingPathComponent("lectern/state.json").path }
        var variables: [String: String] { ["STATE_DIRECTORY": path, "XDG_RUNTIME_DIR": path] }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-state-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        /// A copy of `fixture` in this directory.
        func copy(_ fixture: String) throws -> String {
            let path = url.appendingPathComponent((fixture as NSString).lastPathComponent).path
            try FileManager.default.copyItem(atPath: fixture, toPath: path)
            return path
        }

        /// The saved view's JSON object, if the file holds one.
        var saved: [String: Any]? {
            (try? Data(contentsOf: URL(fileURLWithPath: file)))
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }

        /// The saved view state (`pageIndex`, `viewport`).
        var savedView: NSDictionary? { saved?["view"] as? NSDictionary }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Runs the app on `arguments` with `state`, goes to `page` (typed) and stops it.
    func visit(page: Int, _ arguments: [String], state: StateDirectory) throws {
        let lectern = try KioskHarness(arguments, variables: state.variables)
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.type(page: page)
        #expect(lectern.waitForPage(page))
        try lectern.stop()
    }

    @Test("a restart returns to the page it was on, over the start page the command line names")
    func restartRestores() throws {
        let state = try StateDirectory()
        try visit(page: 6, [Self.colors, "--page", "2"], state: state)
        #expect(state.savedView?["pageIndex"] as? Int == 5, "state.json: \(state.saved ?? [:])")
        let again = try KioskHarness([Self.colors, "--page", "2"], variables: state.variables)
        #expect(again.settle())
        #expect(again.dominantPage == 6, "view state: \(again.viewState ?? "none")")
        #expect(again.status.savedView == .restored(page: 5))
        #expect(again.page(atX: 640, y: 200) == 6)
        try again.stop()
    }

    @Test("a view saved for an older version of the document is not restored")
    func changedDocument() throws {
        let state = try StateDirectory()
        let document = try state.copy(Self.colors)
        try visit(page: 6, [document, "--page", "2"], state: state)
        #expect(state.savedView?["pageIndex"] as? Int == 5)
        // A new version renamed over it (same bytes, new file): another version.
        let replacement = try state.copy(LecternHarness.fixture("letter-6pages.pdf"))
        try FileManager.default.removeItem(atPath: replacement)
        try FileManager.default.copyItem(atPath: Self.colors, toPath: replacement)
        #expect(rename(replacement, document) == 0)
        let again = try KioskHarness([document, "--page", "2"], variables: state.variables)
        #expect(again.settle())
        #expect(again.dominantPage == 2, "the start page: \(again.viewState ?? "none")")
        #expect(again.status.savedView == .otherDocumentOrVersion)
        try again.stop()
    }

    @Test(
        "a corrupt or truncated state file is ignored, and the status says why",
        arguments: ["{\"format\":1,\"docu", "\u{0}\u{1}garbage", ""])
    func corruptFile(contents: String) throws {
        let state = try StateDirectory()
        try visit(page: 6, [Self.colors], state: state)
        try contents.write(toFile: state.file, atomically: false, encoding: .utf8)
        let again = try KioskHarness([Self.colors, "--page", "3"], variables: state.variables)
        #expect(again.settle())
        #expect(again.dominantPage == 3, "the start page: \(again.viewState ?? "none")")
        #expect(again.page(atX: 640, y: 200) == 3)
        let ignored = if case .ignored(let reason) = again.status.savedView { reason } else { "" }
        #expect(ignored.contains("ignoring the saved view"), "\(again.status.savedView)")
        // And the file is good again once the first frame is shown.
        #expect(again.status.savedViews == 1)
        try again.stop()
        #expect(state.savedView?["pageIndex"] as? Int == 2)
    }

    @Test("written after the first frame, at most once a second while the view changes, and on exit")
    func writeRate() throws {
        let state = try StateDirectory()
        let lectern = try KioskHarness([Self.colors], variables: state.variables)
        #expect(lectern.settle())
        #expect(lectern.status.savedViews == 1, "the first frame's view")
        #expect(lectern.enableKeyboard())
        // Ten page changes over 3 s: at most one write a second, the last view within the second.
        let start = lectern.clock.now
        for index in 0..<10 {
            lectern.press(index < 7 ? LecternHarness.Key.pageDown : LecternHarness.Key.pageUp)
            lectern.advance(by: 0.3)
        }
        let elapsed = lectern.clock.now - start
        let writes = lectern.status.savedViews - 1
        #expect(writes >= Int(elapsed) - 1 && writes <= Int(elapsed.rounded(.up)), "\(writes) writes in \(elapsed) s")
        lectern.advance(by: 1.1)
        let atRest = lectern.status.savedViews
        lectern.advance(by: 5)
        #expect(lectern.status.savedViews == atRest, "nothing is written while the view stays")
        let shown = try #require(lectern.status.viewState)
        try lectern.stop()
        #expect(state.savedView?["pageIndex"] as? Int == shown.pageIndex)
    }

    @Test("the idle reset still goes to the start page after a restored view")
    func idleResetAfterRestore() throws {
        let state = try StateDirectory()
        try visit(page: 7, [Self.colors, "--page", "2", "--idle-reset", "5"], state: state)
        let again = try KioskHarness([Self.colors, "--page", "2", "--idle-reset", "5"], variables: state.variables)
        #expect(again.settle())
        #expect(again.dominantPage == 7)
        again.advance(by: 5.1)
        #expect(again.dominantPage == 2, "back to the start page: \(again.viewState ?? "none")")
        try again.stop()
        #expect(state.savedView?["pageIndex"] as? Int == 1, "the start view is saved too")
    }

    @Test("the policy's state.persist = false neither restores nor writes")
    func persistenceOff() throws {
        let state = try StateDirectory()
        try visit(page: 6, [Self.colors], state: state)
        let before = try Data(contentsOf: URL(fileURLWithPath: state.file))
        let policy = try PolicyTests.PolicyDirectory("[state]\npersist = false\n")
        let again = try KioskHarness([Self.colors, "--config", policy.path], variables: state.variables)
        #expect(again.settle())
        #expect(again.dominantPage == 1, "not restored: \(again.viewState ?? "none")")
        #expect(again.enableKeyboard())
        again.type(page: 4)
        #expect(again.waitForPage(4))
        again.advance(by: 2)
        #expect(again.status.savedViews == 0)
        try again.stop()
        #expect(try Data(contentsOf: URL(fileURLWithPath: state.file)) == before, "the file is left alone")
    }

    @Test("killed with SIGKILL, the real binary comes back on the same page and viewport")
    func killedAndRestarted() throws {
        let state = try StateDirectory()
        let arguments = [Self.colors, "--page", "2"]
        let first = try LecternHarness(arguments, environment: ["STATE_DIRECTORY": state.path])
        #expect(first.settle())
        #expect(first.enableKeyboard())
        for key in [LecternHarness.Key.digit(5), LecternHarness.Key.enter, LecternHarness.Key.equal] {
            first.press(key)
        }
        #expect(first.settle())
        // Once the zoomed view is on disk (at most a second later), kill it where it stands.
        let written = first.compositor.wait(timeout: .seconds(5)) {
            state.savedView?["pageIndex"] as? Int == 4 && state.savedView?["viewport"] is NSDictionary
        }
        #expect(written, "state.json: \(state.saved ?? [:])")
        let killedView = try #require(state.savedView)
        let killedFrame = try #require(first.lastCommit)
        first.process.kill9()
        _ = first.process.waitForExit(timeout: .seconds(5), dispatching: first.compositor)
        #expect(first.process.wasKilledBySignal)
        try first.compositor.teardown()
        let inode = (try FileManager.default.attributesOfItem(atPath: state.file)[.systemFileNumber] as? Int) ?? 0

        let second = try LecternHarness(arguments, environment: ["STATE_DIRECTORY": state.path])
        #expect(second.settle())
        #expect(second.page(atX: 640, y: 200) == 5, "the restored page shows")
        // The restarted reader saves its first frame's view: it is the one it was killed in.
        let rewritten = second.compositor.wait(timeout: .seconds(5)) {
            (try? FileManager.default.attributesOfItem(atPath: state.file)[.systemFileNumber] as? Int) != inode
        }
        #expect(rewritten)
        #expect(
            Self.sameView(state.savedView, killedView), "restored \(state.savedView ?? [:]), killed in \(killedView)")
        #expect(second.lastCommit?.pixels == killedFrame.pixels, "the screen shows what it showed")
        #expect(try second.stop() == 0)
    }

    @Test("a document opened over the control socket comes back after a restart, on its page")
    func openedDocumentRestored() throws {
        let state = try StateDirectory()
        let documents = state.url.appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        let text = documents.appendingPathComponent("text.pdf").path
        try FileManager.default.copyItem(atPath: LecternHarness.fixture("text-3pages.pdf"), toPath: text)
        let policy = state.url.appendingPathComponent("lectern.toml").path
        try "[control]\ndocuments = \"\(documents.path)\"\n".write(toFile: policy, atomically: true, encoding: .utf8)
        let arguments = [Self.colors, "--config", policy]

        let first = try KioskHarness(arguments, variables: state.variables)
        #expect(first.settle())
        let client = try ControlClient(path: try #require(first.status.controlSocket))
        #expect(client.send(ControlRequest(command: "open", path: text)))
        var reply: ControlReply?
        let answered = first.wait {
            if let line = try? client.nextLine() { reply = ControlReply.parse(line) }
            return reply != nil
        }
        #expect(answered)
        #expect(reply?.ok == true, "\(String(describing: reply))")
        client.connection.close()
        #expect(first.wait { first.status.documentReloads == 1 })
        #expect(first.settle())
        #expect(first.enableKeyboard())
        first.type(page: 2)
        #expect(first.waitForPage(2))
        try first.stop()
        #expect(state.saved?["document"] as? String == text, "state.json: \(state.saved ?? [:])")

        // The command line still names colors-8pages.pdf: the restart opens text.pdf on page 2.
        let again = try KioskHarness(arguments, variables: state.variables)
        #expect(again.settle())
        #expect(again.status.document == .open(pageCount: 3), "\(again.status.document)")
        #expect(again.dominantPage == 2, "view state: \(again.viewState ?? "none")")
        try again.stop()
    }

    @Test("a test's or benchmark's Lectern never restores the view saved in the user's state directory")
    func harnessHasItsOwnStateDirectory() throws {
        // The user's state: Lectern run as a person would (no STATE_DIRECTORY; XDG_STATE_HOME),
        // left on page 5.
        let home = try StateDirectory()
        let user = ["STATE_DIRECTORY": "", "XDG_STATE_HOME": home.path]
        let person = try LecternHarness([Self.colors, "--page", "5"], environment: user)
        #expect(person.settle())
        #expect(try person.stop() == 0)
        #expect(home.savedView?["pageIndex"] as? Int == 4, "the user's view: \(home.saved ?? [:])")

        // A harness start with the same XDG_STATE_HOME: LecternProcess gives it the compositor's
        // private directory as STATE_DIRECTORY, so it starts on page 1 and leaves the user's file
        // alone.
        let before = try Data(contentsOf: URL(fileURLWithPath: home.file))
        let started = try LecternHarness([Self.colors], environment: ["XDG_STATE_HOME": home.path])
        #expect(started.settle())
        #expect(started.page(atX: 640, y: 200) == 1, "the start page, not the user's saved view")
        #expect(try started.stop() == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.file)) == before)
    }

    /// Whether two saved view states are the same page and viewport (to a billionth of a point:
    /// a restore goes through the screen's coordinates and back).
    static func sameView(_ a: NSDictionary?, _ b: NSDictionary?) -> Bool {
        func numbers(_ view: NSDictionary?) -> [Double] {
            let viewport = view?["viewport"] as? NSDictionary
            let origin = viewport?["origin"] as? NSDictionary, size = viewport?["size"] as? NSDictionary
            return [view?["pageIndex"], origin?["x"], origin?["y"], size?["width"], size?["height"]]
                .map { ($0 as? NSNumber)?.doubleValue ?? .nan }
        }
        let (x, y) = (numbers(a), numbers(b))
        return zip(x, y).allSatisfy { abs($0 - $1) < 1e-9 }
    }
}
