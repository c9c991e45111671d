import Foundation
import LecternKiosk
import LecternTestSupport
import Testing

/// The home view kept across restarts (issue 33, item 1): committed at the first configure,
/// before the document is open, and replaced by the live frame without a visible change;
/// ignored when the file changed, the screen's size changed, or the kept file is corrupt.
@Suite("First frame", .serialized)
struct FirstFrameTests {
    typealias StateDirectory = SavedViewTests.StateDirectory

    /// Where the frame is kept in `state`.
    static func keptFile(_ state: StateDirectory) -> String { state.path + "/lectern/first-frame.bin" }

    /// Runs the app on `document` until its home view is kept, stops it, and returns the frame.
    func keepHome(
        _ document: String, state: StateDirectory, width: Int32 = 1280, height: Int32 = 720, scale: Int32 = 1,
        options: [String] = []
    ) throws
        -> Commit?
    {
        let lectern = try KioskHarness(
            [document, "--no-accessibility-button"] + options, width: width, height: height, scale: scale,
            variables: state.variables)
        #expect(lectern.settle())
        #expect(lectern.status.firstFramesKept == 1)
        let home = lectern.lastCommit
        try lectern.stop()
        #expect(FileManager.default.fileExists(atPath: Self.keptFile(state)))
        return home
    }

    /// Starts the app on `document` with the worker's open answer held back for a second, and
    /// turns until the first commit or for 300 ms of real time: the document is still opening.
    func startHeldBack(
        _ document: String, state: StateDirectory, width: Int32 = 1280, height: Int32 = 720, scale: Int32 = 1,
        options: [String] = []
    ) throws
        -> KioskHarness
    {
        let lectern = try KioskHarness(
            [document, "--no-accessibility-button", "--open-answer-delay-ms", "1000"] + options, width: width,
            height: height, scale: scale, variables: state.variables)
        let deadline = ContinuousClock.now + .milliseconds(300)
        while lectern.lastCommit == nil, ContinuousClock.now < deadline { lectern.turn(wait: .milliseconds(2)) }
        #expect(lectern.status.document == .opening)
        return lectern
    }

    /// Starts the app held back (`startHeldBack`) and checks that nothing was committed before
    /// the document opened because the kept frame was ignored; then settles. Returns the app and
    /// why the frame was ignored (nil: it was not).
    func startIgnoringKeptFrame(
        _ document: String, state: StateDirectory, width: Int32 = 1280, height: Int32 = 720
    ) throws -> (KioskHarness, reason: String?) {
        let lectern = try startHeldBack(document, state: state, width: width, height: height)
        #expect(lectern.status.framesCommitted == 0, "a frame was committed before the document opened")
        var reason: String?
        if case .ignored(let why) = lectern.status.firstFrame { reason = why }
        #expect(reason != nil, "first frame: \(lectern.status.firstFrame)")
        #expect(lectern.settle())
        return (lectern, reason)
    }

    @Test(
        "the kept home view is the first commit, before the document opens, and the live frame equals it",
        arguments: [false, true])
    func shownBeforeOpen(chromeAlways: Bool) throws {
        let state = try StateDirectory()
        // A page of text: the frame is no one colour.
        let document = try state.copy(LecternHarness.fixture("letter-6pages.pdf"))
        // The chrome always shown: the home view has the thumbnail bar, kept once every
        // thumbnail is drawn, and shown at the next start until the live bar has them all too.
        var options: [String] = []
        if chromeAlways {
            let policy = state.path + "/chrome-always.toml"
            try "[chrome]\nshow = \"always\"\n".write(toFile: policy, atomically: true, encoding: .utf8)
            options = ["--config", policy]
        }
        let home = try #require(try keepHome(document, state: state, options: options))
        let lectern = try startHeldBack(document, state: state, options: options)
        let first = try #require(lectern.lastCommit, "nothing committed before the document opened")
        #expect(!first.isUniform)
        // Two round trips before it: the globals, then the window's configure, which brought the
        // first events of what was bound (`Display(awaitsBoundState:)`) too.
        #expect(first.roundTripsBefore == 2)
        #expect(lectern.status.firstFrame == .shown)
        #expect(first.pixels == home.pixels)
        #expect(lectern.settle())
        #expect(lectern.status.document == .open(pageCount: 6))
        // Every frame since, the live ones too, shows the same pixels: no visible change.
        let commits = lectern.compositor.commits.filter { $0.title != "Lectern mirror" && !$0.pixels.isEmpty }
        #expect(commits.count >= 2)
        #expect(commits.allSatisfy { $0.pixels == home.pixels })
        #expect(lectern.dominantPage == 1)
        // The same frame is kept already: nothing is written again.
        #expect(lectern.status.firstFramesKept == 0)
        try lectern.stop()
    }

    @Test("a frame kept on an output of scale 2 is shown at the next start: the scale comes before the configure")
    func scaled() throws {
        let state = try StateDirectory()
        let document = try state.copy(LecternHarness.fixture("letter-6pages.pdf"))
        let home = try #require(try keepHome(document, state: state, scale: 2))
        #expect(home.width == 1280 && home.bufferScale == 2)
        let lectern = try startHeldBack(document, state: state, scale: 2)
        #expect(lectern.status.firstFrame == .shown)
        let first = try #require(lectern.lastCommit, "nothing committed before the document opened")
        #expect(first.width == 1280 && first.bufferScale == 2)
        let showsHome = first.pixels == home.pixels
        #expect(showsHome, "the first commit is the kept home view")
        try lectern.stop()
    }

    /// Starts the app on `document` without configuring its window, and turns for 200 ms of real
    /// time with the clock standing still.
    func startUnconfigured(_ document: String, state: StateDirectory) throws -> KioskHarness {
        let lectern = try KioskHarness(
            [document, "--no-accessibility-button"], autoConfigure: false, variables: state.variables)
        #expect(lectern.wait { lectern.compositor.toplevel != nil })
        let deadline = ContinuousClock.now + .milliseconds(200)
        while ContinuousClock.now < deadline { lectern.turn(wait: .milliseconds(2)) }
        return lectern
    }

    @Test("with a frame kept, the document opens once that frame is on screen (0.1 s on without a configure)")
    func opensAfterKeptFrame() throws {
        let state = try StateDirectory()
        let document = try state.copy(LecternHarness.fixture("letter-6pages.pdf"))
        // No frame kept: the document opens while the window waits for its size.
        let cold = try startUnconfigured(document, state: state)
        #expect(cold.status.document == .open(pageCount: 6))
        try cold.stop()
        _ = try keepHome(document, state: state)
        // A frame kept: nothing opens before the first configure has shown it.
        let warm = try startUnconfigured(document, state: state)
        #expect(warm.status.document == .opening)
        warm.compositor.configure(width: 1280, height: 720)
        #expect(warm.settle())
        #expect(warm.status.firstFrame == .shown)
        #expect(warm.status.document == .open(pageCount: 6))
        try warm.stop()
        // A compositor that never configures: the document opens 0.1 s on all the same.
        let unconfigured = try startUnconfigured(document, state: state)
        #expect(unconfigured.status.document == .opening)
        unconfigured.clock.advance(by: 0.1)
        #expect(unconfigured.wait { unconfigured.status.document != .opening })
        #expect(unconfigured.status.document == .open(pageCount: 6))
        try unconfigured.stop()
    }

    @Test("a frame kept for an older version of the file is not shown")
    func fileChanged() throws {
        let state = try StateDirectory()
        let document = try state.copy(SavedViewTests.colors)
        _ = try keepHome(document, state: state)
        // What `lectern` asks before it forks its render worker (none when a kept frame will show).
        #expect(KioskApp.keepsFirstFrame { state.variables[$0] })
        #expect(KioskApp.keepsFirstFrame(variable: { state.variables[$0] }, document: document))
        #expect(!KioskApp.keepsFirstFrame(variable: { state.variables[$0] }, document: document + ".other"))
        // The same bytes, touched: another modification time is another version.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, document, &times, 0) == 0)
        #expect(!KioskApp.keepsFirstFrame { state.variables[$0] })
        let (lectern, reason) = try startIgnoringKeptFrame(document, state: state)
        #expect(reason?.contains("another document, version") == true)
        #expect(lectern.page(atX: 640, y: 360) == 1)
        #expect(lectern.status.firstFramesKept == 1)
        try lectern.stop()
    }

    @Test("a frame kept for another screen size is not shown")
    func resized() throws {
        let state = try StateDirectory()
        let document = try state.copy(SavedViewTests.colors)
        _ = try keepHome(document, state: state)
        let (lectern, reason) = try startIgnoringKeptFrame(document, state: state, width: 1024, height: 768)
        #expect(reason == "kept for a 1280x720 frame or another scale")
        #expect(lectern.lastCommit?.width == 1024)
        #expect(lectern.status.firstFramesKept == 1)
        try lectern.stop()
    }

    @Test("a corrupt or truncated kept frame is not shown", arguments: [false, true])
    func corrupt(truncated: Bool) throws {
        let state = try StateDirectory()
        let document = try state.copy(SavedViewTests.colors)
        _ = try keepHome(document, state: state)
        let file = Self.keptFile(state)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        if truncated {
            bytes.removeLast(4096)
        } else {
            bytes[bytes.count / 2] ^= 0x40
        }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let (lectern, reason) = try startIgnoringKeptFrame(document, state: state)
        #expect(reason?.hasPrefix("corrupt") == true)
        #expect(lectern.page(atX: 640, y: 360) == 1)
        try lectern.stop()
    }

    @Test("a start that is not on the home view shows nothing kept; the idle reset's home view is kept")
    func notHome() throws {
        let state = try StateDirectory()
        let document = try state.copy(SavedViewTests.colors)
        _ = try keepHome(document, state: state)
        let lectern = try KioskHarness([document, "--no-accessibility-button"], variables: state.variables)
        #expect(lectern.settle())
        #expect(lectern.enableKeyboard())
        lectern.type(page: 3)
        #expect(lectern.waitForPage(3))
        #expect(lectern.status.firstFramesKept == 0)
        try lectern.stop()
        try FileManager.default.removeItem(atPath: Self.keptFile(state))
        // Restarted on page 3 (the saved view): not the home view.
        let again = try startHeldBack(document, state: state)
        #expect(again.status.framesCommitted == 0)
        #expect(again.status.firstFrame == .none)
        #expect(again.settle())
        #expect(again.dominantPage == 3)
        #expect(again.status.firstFramesKept == 0)
        #expect(!FileManager.default.fileExists(atPath: Self.keptFile(state)))
        // The idle reset goes home: that frame is kept.
        again.advance(by: 121)
        #expect(again.dominantPage == 1)
        #expect(again.status.firstFramesKept == 1)
        try again.stop()
        #expect(FileManager.default.fileExists(atPath: Self.keptFile(state)))
    }
}
