import Foundation
import LecternPDF
import LecternTestSupport
import Testing

/// Shared set-up for tests that run the real `lectern` against the test compositor.
struct LecternHarness {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let repository = fixtures.deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The colours of colors-8pages.pdf, page 1 first (see Tests/Fixtures/make-fixtures).
    static let pageColors: [UInt32] = [
        0xE53935, 0x1E88E5, 0x43A047, 0xFDD835, 0x8E24AA, 0xFB8C00, 0x00ACC1, 0x6D4C41,
    ]

    /// The `wl_seat` versions pointer and seat tests run at: cage 0.1.4 offers 7, where the
    /// wheel comes as `axis_discrete`; 8 sends `axis_value120`; `wl_pointer.frame` from 5.
    static let seatVersions: [Int32] = [5, 7, 8]

    let compositor: TestCompositor
    let process: LecternProcess

    /// Starts Lectern with `arguments` (debug logs on, so the view state is logged), the
    /// compositor offering `wl_seat` at `seatVersion`, and `environment` added to Lectern's.
    init(
        _ arguments: [String], width: Int32 = 1280, height: Int32 = 720,
        seatVersion: Int32 = TestCompositor.newestSeatVersion, environment: [String: String] = [:]
    ) throws {
        compositor = try TestCompositor(outputWidth: width, outputHeight: height, seatVersion: seatVersion)
        var childEnvironment = compositor.environment.merging(environment) { _, new in new }
        childEnvironment["LECTERN_LOG_LEVEL"] =
            ProcessInfo.processInfo.environment["LECTERN_TEST_LOG_LEVEL"] ?? "debug"
        process = try LecternProcess(arguments: arguments, environment: childEnvironment)
    }

    /// Waits for a first frame showing something, then until Lectern stops committing.
    @discardableResult
    func settle(quiet: Duration = .milliseconds(500), timeout: Duration = .seconds(20)) -> Bool {
        guard compositor.wait(timeout: timeout, until: { compositor.commits.contains { !$0.isUniform } }) else {
            return false
        }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let count = compositor.commitCount
            if !compositor.wait(timeout: quiet, until: { compositor.commitCount != count }) { return true }
        }
        return false
    }

    /// The last view state Lectern logged, e.g. "page 5" or "page 5 viewport 10 20 300 400".
    var viewState: String? {
        process.errorOutput.split(separator: "\n").last { $0.contains("view state: ") }.map {
            String($0[$0.range(of: "view state: ")!.upperBound...])
        }
    }

    /// How many view states Lectern logged so far.
    var viewStateCount: Int {
        process.errorOutput.split(separator: "\n").count { $0.contains("view state: ") }
    }

    /// The page (1-based) of the last logged view state.
    var dominantPage: Int? {
        viewState.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
    }

    /// The viewport of the last logged view state, in PDF points.
    var viewport: (x: Double, y: Double, width: Double, height: Double)? {
        guard let parts = viewState?.split(separator: " "), parts.count == 7 else { return nil }
        let v = parts[3...].compactMap { Double($0) }
        return v.count == 4 ? (v[0], v[1], v[2], v[3]) : nil
    }

    var lastCommit: Commit? { compositor.commits.last }

    /// Which page of colors-8pages.pdf (1-based) shows at (x, y) of the last commit, if any.
    func page(atX x: Int, y: Int) -> Int? {
        guard let commit = lastCommit else { return nil }
        return Self.page(ofColor: commit.pixel(x: x, y: y))
    }

    /// The pages of colors-8pages.pdf met along row `y` (or column `x`) of the last commit, in order.
    func pages(alongRow y: Int) -> [Int] {
        guard let commit = lastCommit else { return [] }
        return Self.runs((0..<commit.width).map { Self.page(ofColor: commit.pixel(x: $0, y: y)) })
    }

    func pages(alongColumn x: Int) -> [Int] {
        guard let commit = lastCommit else { return [] }
        return Self.runs((0..<commit.height).map { Self.page(ofColor: commit.pixel(x: x, y: $0)) })
    }

    private static func runs(_ values: [Int?]) -> [Int] {
        var result: [Int] = []
        for case let page? in values where result.last != page { result.append(page) }
        return result
    }

    static func page(ofColor argb: UInt32) -> Int? {
        func close(_ a: UInt32, _ b: UInt32) -> Bool {
            let shifts: [UInt32] = [16, 8, 0]
            return shifts.allSatisfy { abs(Int(a >> $0 & 0xFF) - Int(b >> $0 & 0xFF)) <= 6 }
        }
        return pageColors.firstIndex { close(argb & 0xFF_FFFF, $0) }.map { $0 + 1 }
    }

    // MARK: Input

    /// Lets Lectern read what was sent and answer (frame callbacks, commits).
    func pump(_ duration: Duration = .milliseconds(16)) {
        _ = compositor.wait(timeout: duration) { false }
    }

    /// A one-finger tap. No `wl_touch.frame` unless `frames` (cage never sends one).
    func tap(x: Double, y: Double, id: Int32 = 0, frames: Bool = false) {
        compositor.touchDown(id: id, x: x, y: y)
        if frames { compositor.touchFrame() }
        pump(.milliseconds(40))
        compositor.touchUp(id: id)
        if frames { compositor.touchFrame() }
        pump()
    }

    /// A one-finger drag from `start` to `end` in `steps` moves `interval` apart, then release.
    func drag(
        from start: (Double, Double), to end: (Double, Double), steps: Int = 10,
        interval: Duration = .milliseconds(16), release: Bool = true, frames: Bool = false
    ) {
        compositor.touchDown(id: 0, x: start.0, y: start.1)
        if frames { compositor.touchFrame() }
        pump(interval)
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            compositor.touchMotion(id: 0, x: start.0 + (end.0 - start.0) * t, y: start.1 + (end.1 - start.1) * t)
            if frames { compositor.touchFrame() }
            pump(interval)
        }
        if release {
            compositor.touchUp(id: 0)
            if frames { compositor.touchFrame() }
            pump()
        }
    }

    /// Advertises a keyboard too, waits for Lectern to bind it and focuses Lectern's surface.
    func enableKeyboard(timeout: Duration = .seconds(5)) -> Bool {
        compositor.setSeatCapabilities([.touch, .pointer, .keyboard])
        guard compositor.wait(timeout: timeout, until: { compositor.keyboardResourceCount > 0 }) else { return false }
        pump(.milliseconds(50))  // the keymap
        guard compositor.keyboardEnter() else { return false }
        pump()
        return true
    }

    /// Presses and releases the key with evdev code `code` (see `Key`).
    func press(_ code: UInt32) {
        compositor.keyboardKey(code, pressed: true)
        pump(.milliseconds(10))
        compositor.keyboardKey(code, pressed: false)
        pump(.milliseconds(10))
    }

    /// Types the digits of `number` then Enter.
    func type(page number: Int) {
        for character in String(number) { press(Key.digit(Int(String(character))!)) }
        press(Key.enter)
    }

    /// Evdev key codes (linux/input-event-codes.h).
    enum Key {
        static let escape: UInt32 = 1
        static func digit(_ d: Int) -> UInt32 { d == 0 ? 11 : UInt32(1 + d) }
        static let minus: UInt32 = 12
        static let equal: UInt32 = 13  // "+" for Lectern
        static let backspace: UInt32 = 14
        static let q: UInt32 = 16
        static let w: UInt32 = 17
        static let enter: UInt32 = 28
        static let leftControl: UInt32 = 29
        static let leftAlt: UInt32 = 56
        static let f4: UInt32 = 62
        static let home: UInt32 = 102
        static let up: UInt32 = 103
        static let pageUp: UInt32 = 104
        static let left: UInt32 = 105
        static let right: UInt32 = 106
        static let end: UInt32 = 107
        static let down: UInt32 = 108
        static let pageDown: UInt32 = 109
    }

    /// `BTN_LEFT`.
    static let leftButton: UInt32 = 0x110

    /// A left click at (x, y): the pointer moves there, presses and releases.
    func click(x: Double, y: Double) {
        compositor.pointerMotion(x: x, y: y)
        compositor.pointerFrame()
        pump()
        compositor.pointerButton(Self.leftButton, pressed: true)
        compositor.pointerFrame()
        pump(.milliseconds(40))
        compositor.pointerButton(Self.leftButton, pressed: false)
        compositor.pointerFrame()
        pump()
    }

    /// Waits until Lectern's log contains `text`.
    func waitForLog(_ text: String, timeout: Duration = .seconds(20)) -> Bool {
        compositor.wait(timeout: timeout) { process.errorOutput.contains(text) }
    }

    /// Waits until the log's view state says `page` (1-based).
    func waitForPage(_ page: Int, timeout: Duration = .seconds(10)) -> Bool {
        compositor.wait(timeout: timeout) { dominantPage == page }
    }

    /// Writes the last commit as a PNG (for looking at a failure); returns the path, or nil.
    @discardableResult
    func saveLastCommit(_ name: String) -> String? {
        guard let commit = lastCommit else { return nil }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-\(name).png").path
        let written = commit.pixels.withUnsafeBytes { raw in
            (try? PNGWriter.write(
                bgra: raw.baseAddress!, width: commit.width, height: commit.height, stride: commit.width * 4, to: path))
                != nil
        }
        return written ? path : nil
    }

    /// Sends SIGTERM and waits; returns the exit status. Tears the compositor down.
    func stop() throws -> Int32? {
        process.terminate()
        let status = process.waitForExit(timeout: .seconds(10), dispatching: compositor)
        try compositor.teardown()
        return status
    }
}
