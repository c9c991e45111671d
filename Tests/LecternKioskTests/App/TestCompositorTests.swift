import Foundation
import LecternTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Tests of the test compositor itself, driven by a real libwayland-client in this process
/// (`TestClient`) and by a real client process (weston-simple-shm, when installed). Lectern
/// itself is tested through it in `LecternSkeletonTests`.
@Suite(.serialized)
struct TestCompositorTests {
    /// A compositor and a client with its fullscreen toplevel configured.
    private func connectedPair(
        width: Int32 = 320, height: Int32 = 200
    ) throws -> (TestCompositor, TestClient) {
        let compositor = try TestCompositor(outputWidth: width, outputHeight: height)
        let client = try TestClient(compositor: compositor)
        #expect(TestClient.run(client, with: compositor) { client.hasGlobals && client.outputSize != nil })
        client.createFullscreenToplevel(title: "pair")
        #expect(TestClient.run(client, with: compositor) { client.configureCount == 1 })
        return (compositor, client)
    }

    @Test func privateRuntimeDirectoryHoldsTheSocketAndIsRemovedAtTeardown() throws {
        let compositor = try TestCompositor()
        let directory = try #require(compositor.environment["XDG_RUNTIME_DIR"])
        let display = try #require(compositor.environment["WAYLAND_DISPLAY"])
        var info = stat()
        #expect(stat(directory, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(stat("\(directory)/\(display)", &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        try compositor.teardown()
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func advertisesShmFormatsOutputModeAndSeat() throws {
        let compositor = try TestCompositor(outputWidth: 1280, outputHeight: 720)
        let client = try TestClient(compositor: compositor)
        #expect(
            TestClient.run(client, with: compositor) {
                client.hasGlobals && client.outputSize != nil && client.seatCapabilities != 0
                    && client.shmFormats.count >= 2
            })
        #expect(client.shmFormats.contains(0) && client.shmFormats.contains(1))  // argb8888, xrgb8888
        #expect(client.outputSize?.width == 1280 && client.outputSize?.height == 720)
        #expect(client.seatCapabilities == 1 | 4)  // pointer | touch
        #expect(compositor.clientCount == 1)
        client.disconnect()
        #expect(compositor.wait(timeout: .seconds(5)) { compositor.clientCount == 0 })
        #expect(compositor.isClean)
        try compositor.teardown()
    }

    @Test func initialCommitGetsAFullscreenConfigureOfTheOutputSize() throws {
        let (compositor, client) = try connectedPair(width: 320, height: 200)
        #expect(client.configuredSize?.width == 320 && client.configuredSize?.height == 200)
        let toplevel = try #require(compositor.toplevel)
        #expect(toplevel.title == "pair")
        #expect(toplevel.appID == "lectern.testclient")
        #expect(toplevel.wantsFullscreen)
        #expect(toplevel.lastConfigureSerial == client.lastConfigureSerial)
        #expect(toplevel.lastAckedSerial == 0)
        #expect(compositor.commits.isEmpty)
        client.disconnect()
        try compositor.teardown()
    }

    @Test func commitRecordsPixelsDamageAndAck() throws {
        let (compositor, client) = try connectedPair(width: 64, height: 48)
        client.ackConfigure()
        try client.draw(width: 64, height: 48) { x, y in x < 32 ? 0x00FF_0000 : (y < 24 ? 0x0000_FF00 : 0x0000_0000) }
        #expect(TestClient.run(client, with: compositor) { compositor.commits.count == 1 })
        let commit = try #require(compositor.lastCommit)
        #expect(commit.sequence == 1)
        #expect(commit.width == 64 && commit.height == 48)
        #expect(commit.format == .xrgb8888)
        #expect(commit.pixel(x: 0, y: 0) == 0xFFFF_0000)  // alpha forced for xrgb
        #expect(commit.pixel(x: 40, y: 0) == 0xFF00_FF00)
        #expect(commit.pixel(x: 63, y: 47) == 0xFF00_0000)
        #expect(!commit.isUniform)
        #expect(commit.distinctColors() == 3)
        #expect(commit.darkFraction(in: DamageRect(x: 32, y: 24, width: 32, height: 24)) == 1)
        #expect(commit.darkFraction(in: DamageRect(x: 32, y: 0, width: 32, height: 24)) < 0.01)
        #expect(commit.bufferDamage == [DamageRect(x: 0, y: 0, width: 64, height: 48)])
        #expect(commit.surfaceDamage.isEmpty)
        #expect(commit.configureAcked)
        #expect(commit.ackedConfigureSerial == client.lastConfigureSerial)
        // autoFrameCallback and autoRelease answer on the following dispatches.
        #expect(
            TestClient.run(client, with: compositor) { client.frameDoneCount == 1 && client.bufferReleaseCount == 1 })
        #expect(compositor.protocolErrors.isEmpty)
        client.disconnect()
        try compositor.teardown()
    }

    @Test func withoutAutoSwitchesFramesAndReleasesWaitForTheTest() throws {
        let (compositor, client) = try connectedPair(width: 16, height: 16)
        compositor.autoFrameCallback = false
        compositor.autoRelease = false
        client.ackConfigure()
        try client.draw(width: 16, height: 16) { _, _ in 0x0012_3456 }
        #expect(TestClient.run(client, with: compositor) { compositor.commits.count == 1 })
        #expect(compositor.lastCommit?.isUniform == true)
        // Nothing is answered while the switches are off...
        TestClient.run(client, with: compositor, timeout: .milliseconds(100)) { false }
        #expect(client.frameDoneCount == 0 && client.bufferReleaseCount == 0)
        #expect(compositor.pendingFrameCallbackCount == 1 && compositor.busyBufferCount == 1)
        // ...until the test answers.
        compositor.sendFrameCallbacks()
        compositor.releaseBuffers()
        #expect(
            TestClient.run(client, with: compositor) { client.frameDoneCount == 1 && client.bufferReleaseCount == 1 })
        #expect(compositor.pendingFrameCallbackCount == 0 && compositor.busyBufferCount == 0)
        client.disconnect()
        try compositor.teardown()
    }

    @Test func reconfigureToANewSizeAndToZero() throws {
        let (compositor, client) = try connectedPair(width: 64, height: 64)
        client.ackConfigure()
        try client.draw(width: 64, height: 64) { x, _ in UInt32(x) }
        #expect(TestClient.run(client, with: compositor) { compositor.commits.count == 1 })

        let serial = try #require(compositor.configure(width: 40, height: 30))
        #expect(serial > client.lastConfigureSerial)
        #expect(TestClient.run(client, with: compositor) { client.lastConfigureSerial == serial })
        #expect(client.configuredSize?.width == 40 && client.configuredSize?.height == 30)
        // A commit before acking the new configure is recorded as not acked.
        try client.draw(width: 64, height: 64) { x, _ in UInt32(x) }
        #expect(TestClient.run(client, with: compositor) { compositor.commits.count == 2 })
        #expect(compositor.lastCommit?.configureAcked == false)
        client.ackConfigure()
        try client.draw(width: 40, height: 30) { _, y in UInt32(y) }
        #expect(TestClient.run(client, with: compositor) { compositor.commitCount == 3 })
        #expect(compositor.lastCommit?.width == 40 && compositor.lastCommit?.height == 30)
        #expect(compositor.lastCommit?.configureAcked == true)
        #expect(compositor.lastCommit?.sequence == 3)

        let zero = try #require(compositor.configure(width: 0, height: 0))
        #expect(TestClient.run(client, with: compositor) { client.lastConfigureSerial == zero })
        #expect(client.configuredSize?.width == 0 && client.configuredSize?.height == 0)
        #expect(compositor.toplevel?.configuredWidth == 0)
        client.disconnect()
        try compositor.teardown()
    }

    @Test func commitHistoryKeepsTheLatestCommits() throws {
        let (compositor, client) = try connectedPair(width: 4, height: 4)
        compositor.commitHistoryLimit = 3
        client.ackConfigure()
        for frame in 1...5 {
            try client.draw(width: 4, height: 4) { _, _ in UInt32(frame) }
            #expect(TestClient.run(client, with: compositor) { compositor.commitCount == frame })
        }
        #expect(compositor.commits.map(\.sequence) == [3, 4, 5])
        #expect(compositor.lastCommit?.pixel(x: 0, y: 0) == 0xFF00_0005)
        #expect(compositor.commits[1].timestamp < compositor.commits[2].timestamp)
        client.disconnect()
        try compositor.teardown()
    }

    @Test func bufferBeforeTheFirstAckIsAProtocolError() throws {
        let (compositor, client) = try connectedPair(width: 8, height: 8)
        try client.draw(width: 8, height: 8) { _, _ in 0 }
        #expect(TestClient.run(client, with: compositor) { !client.isConnected })
        #expect(compositor.commits.isEmpty)
        #expect(compositor.protocolErrors.count == 1)
        #expect(compositor.wait(timeout: .seconds(5)) { compositor.clientCount == 0 })
        try compositor.teardown()
    }

    @Test func disconnectClientsEndsTheConnectionAndLeavesNothingBehind() throws {
        let (compositor, client) = try connectedPair(width: 8, height: 8)
        client.ackConfigure()
        try client.draw(width: 8, height: 8) { _, _ in 0 }
        #expect(TestClient.run(client, with: compositor) { compositor.commits.count == 1 })
        #expect(compositor.surfaceCount == 1)
        #expect(!compositor.isClean)
        compositor.disconnectClients()
        #expect(compositor.clientCount == 0)
        #expect(compositor.isClean)
        #expect(compositor.surfaceCount == 0)
        #expect(TestClient.run(client, with: compositor) { !client.pump() })
        #expect(!client.isConnected)
        try compositor.teardown()
    }

    @Test func destroyingTheToplevelLeavesTheCompositorClean() throws {
        let (compositor, client) = try connectedPair(width: 8, height: 8)
        client.ackConfigure()
        try client.draw(width: 8, height: 8) { _, _ in 0 }
        #expect(
            TestClient.run(client, with: compositor) { client.frameDoneCount == 1 && client.bufferReleaseCount == 1 })
        client.destroyToplevel()
        #expect(TestClient.run(client, with: compositor) { compositor.toplevel == nil && compositor.surfaceCount == 0 })
        client.disconnect()
        #expect(compositor.wait(timeout: .seconds(5)) { compositor.isClean })
        try compositor.teardown()
    }

    @Test func touchHelpersReachTheClientsTouch() throws {
        let (compositor, client) = try connectedPair(width: 100, height: 100)
        #expect(!compositor.touchDown(id: 0, x: 1, y: 1))  // no wl_touch yet
        client.requestTouch()
        #expect(TestClient.run(client, with: compositor) { compositor.touchResourceCount == 1 })
        #expect(compositor.touchDown(id: 1, x: 10.5, y: 20))
        #expect(compositor.touchMotion(id: 1, x: 30, y: 40.25))
        #expect(compositor.touchFrame())
        #expect(compositor.touchUp(id: 1))
        #expect(compositor.touchCancel())
        #expect(TestClient.run(client, with: compositor) { client.touchEvents.count == 5 })
        #expect(client.touchEvents == ["down 1 10.5,20.0", "motion 1 30.0,40.25", "frame", "up 1", "cancel"])
        client.disconnect()
        try compositor.teardown()
    }

    @Test func pointerHelpersReachTheClientsPointer() throws {
        let (compositor, client) = try connectedPair(width: 100, height: 100)
        #expect(!compositor.pointerEnter(x: 1, y: 1))  // no wl_pointer yet
        client.requestPointer()
        #expect(TestClient.run(client, with: compositor) { compositor.pointerResourceCount == 1 })
        #expect(compositor.pointerEnter(x: 1.5, y: 2))
        #expect(compositor.pointerMotion(x: 3, y: 4.25))
        #expect(compositor.pointerButton(0x110, pressed: true))
        #expect(compositor.pointerAxis(.vertical, value: 15, value120: 120, source: 0))
        #expect(compositor.pointerFrame())
        #expect(compositor.pointerLeave())
        #expect(TestClient.run(client, with: compositor) { client.pointerEvents.count == 8 })
        #expect(
            client.pointerEvents == [
                "enter 1.5,2.0", "motion 3.0,4.25", "button 272 1", "axis_source 0", "axis_value120 0 120",
                "axis 0 15.0", "frame", "leave",
            ])
        client.disconnect()
        try compositor.teardown()
    }

    @Test func keyboardHelpersSendAnXkbKeymapAndKeys() throws {
        let (compositor, client) = try connectedPair(width: 100, height: 100)
        compositor.setSeatCapabilities([.pointer, .keyboard, .touch])
        #expect(TestClient.run(client, with: compositor) { client.seatCapabilities == 7 })
        #expect(!compositor.keyboardEnter())  // no wl_keyboard yet
        compositor.keyboardRepeatInfo(rate: 30, delay: 200)
        client.requestKeyboard()
        #expect(TestClient.run(client, with: compositor) { client.keyboardEvents.count == 2 })
        let keymap = try #require(TestCompositor.defaultKeymap)
        #expect(client.keyboardEvents == ["keymap 1 \(keymap.utf8.count + 1)", "repeat 30 200"])
        #expect(client.keymapText == keymap)
        #expect(keymap.contains("xkb_keycodes") && keymap.contains("<UP>"))
        #expect(compositor.keyboardEnter(pressedKeys: [42]))
        #expect(compositor.keyboardModifiers(depressed: 1))
        #expect(compositor.keyboardKey(103, pressed: true))
        #expect(compositor.keyboardKey(103, pressed: false))
        compositor.keyboardRepeatInfo(rate: 0, delay: 0)
        #expect(compositor.keyboardLeave())
        #expect(TestClient.run(client, with: compositor) { client.keyboardEvents.count == 8 })
        #expect(
            client.keyboardEvents.dropFirst(2) == [
                "enter [42]", "modifiers 1 0 0 0", "key 103 1", "key 103 0", "repeat 0 0", "leave",
            ])
        client.disconnect()
        try compositor.teardown()
    }

    @Test func removingTheSeatGlobalHidesItFromNewClients() throws {
        let compositor = try TestCompositor()
        #expect(compositor.removeSeatGlobal())
        #expect(!compositor.removeSeatGlobal())
        let client = try TestClient(compositor: compositor)
        #expect(TestClient.run(client, with: compositor) { client.hasGlobals && client.outputSize != nil })
        #expect(client.seatCapabilities == 0)
        client.requestTouch()  // no seat: nothing to ask
        #expect(compositor.touchResourceCount == 0)
        client.disconnect()
        try compositor.teardown()
    }

    @Test func pingIsAnsweredWithPong() throws {
        let (compositor, client) = try connectedPair()
        let serial = compositor.ping()
        #expect(TestClient.run(client, with: compositor) { compositor.pongs.contains(serial) })
        #expect(client.pingCount == 1)
        client.disconnect()
        try compositor.teardown()
    }

    @Test func outputChangesReachTheClient() throws {
        let (compositor, client) = try connectedPair(width: 100, height: 100)
        compositor.setOutput(width: 800, height: 600)
        #expect(TestClient.run(client, with: compositor) { client.outputSize?.width == 800 })
        #expect(client.outputSize?.height == 600)
        client.disconnect()
        try compositor.teardown()
    }

    @Test func commitHelpersOnAKnownPicture() {
        // 4x2: a white row over a row of black, grey, black, white.
        let commit = Commit(
            sequence: 1, timestamp: .now, width: 4, height: 2, format: .argb8888,
            pixels: [
                0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF,
                0xFF00_0000, 0xFF80_8080, 0xFF00_0000, 0xFFFF_FFFF,
            ])
        #expect(commit.pixel(x: 1, y: 1) == 0xFF80_8080)
        #expect(!commit.isUniform)
        #expect(commit.distinctColors() == 3)
        #expect(commit.distinctColors(sampleStep: 2) == 1)  // samples (0,0) and (2,0) only
        #expect(commit.darkFraction() == 0.25)
        #expect(commit.darkFraction(in: DamageRect(x: 0, y: 1, width: 2, height: 1)) == 0.5)
        #expect(commit.darkFraction(in: DamageRect(x: 10, y: 10, width: 2, height: 2)) == 0)
        #expect(
            Commit(
                sequence: 2, timestamp: .now, width: 2, height: 1, format: .xrgb8888,
                pixels: [0xFF12_3456, 0xFF12_3456]
            ).isUniform)
    }

    @Test func processOutputIsCapturedAndExitStatusReported() throws {
        let process = try LecternProcess(
            executableURL: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "echo out; echo err >&2; echo \"$WAYLAND_DISPLAY\"; exit 3"],
            environment: ["WAYLAND_DISPLAY": "wayland-test"])
        #expect(process.waitForExit(timeout: .seconds(10)) == 3)
        #expect(process.output == "out\nwayland-test\n")
        #expect(process.errorOutput == "err\n")
        #expect(!process.wasKilledBySignal)
    }

    @Test func terminateSendsSigterm() throws {
        let process = try LecternProcess(executableURL: URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"])
        #expect(process.isRunning)
        #expect(process.waitForExit(timeout: .milliseconds(50)) == nil)
        process.terminate()
        #expect(process.waitForExit(timeout: .seconds(10)) == SIGTERM)
        #expect(process.wasKilledBySignal)
    }

    // MARK: A real client process: weston-simple-shm (Debian package weston)

    static let westonSimpleShm = "/usr/bin/weston-simple-shm"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: westonSimpleShm)))
    func westonSimpleShmDrawsFramesThroughTheCompositor() throws {
        let compositor = try TestCompositor()
        let process = try LecternProcess(
            executableURL: URL(fileURLWithPath: Self.westonSimpleShm), environment: compositor.environment)
        // simple-shm draws 250x250 frames paced by frame callbacks, each one different.
        #expect(
            compositor.wait(timeout: .seconds(10)) { compositor.commitCount >= 5 || !process.isRunning },
            "stderr: \(process.errorOutput)")
        let commit = try #require(compositor.lastCommit)
        #expect(commit.width == 250 && commit.height == 250)
        #expect(commit.configureAcked)
        #expect(!commit.isUniform)
        #expect(compositor.protocolErrors.isEmpty)
        compositor.disconnectClients()
        #expect(process.waitForExit(timeout: .seconds(10), dispatching: compositor) != nil)
        try compositor.teardown()
    }
}
