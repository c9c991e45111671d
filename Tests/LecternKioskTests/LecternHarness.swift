import Foundation
import LecternPDF
import LecternTestSupport
import Testing

/// Shared set-up for tests that run the real `lectern` binary against the test compositor (what
/// only a process shows: peak memory, signals, exit statuses), and the fixtures, colours and
/// key codes every kiosk test uses. Tests of what the app does run it in process: `KioskHarness`.
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
        // A saved view of its own (a test that restarts Lectern passes the same STATE_DIRECTORY).
        var childEnvironment = compositor.environment.merging(
            ["STATE_DIRECTORY": compositor.runtimeDirectory.path]
        ) { _, new in new }.merging(environment) { _, new in new }
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

    var lastCommit: Commit? { compositor.commits.last }

    /// Which page of colors-8pages.pdf (1-based) shows at (x, y) of the last commit, if any.
    func page(atX x: Int, y: Int) -> Int? {
        guard let commit = lastCommit else { return nil }
        return Self.page(ofColor: commit.pixel(x: x, y: y))
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
        static let f12: UInt32 = 88
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

    /// Waits until Lectern's log contains `text`.
    func waitForLog(_ text: String, timeout: Duration = .seconds(20)) -> Bool {
        compositor.wait(timeout: timeout) { process.errorOutput.contains(text) }
    }

    /// Sends SIGTERM and waits; returns the exit status. Tears the compositor down.
    func stop() throws -> Int32? {
        process.terminate()
        let status = process.waitForExit(timeout: .seconds(10), dispatching: compositor)
        try compositor.teardown()
        return status
    }
}
