import Glibc
import LecternCore
import LecternLinux
import SystemPackage
import Testing

/// The headphone jack's events, as a sound card's input device sends them, through a pipe in
/// place of the device (no test can plug headphones in).
@Suite("Headphone jack")
struct HeadphoneJackTests {
    @Test("headphones in and out are reported on the loop; a device that goes away counts as out")
    func inAndOut() throws {
        let loop = try EventLoop(clock: ManualClock())
        let (read, write) = try FileDescriptor.pipe()
        defer { try? write.close() }
        _ = fcntl(read.rawValue, F_SETFL, O_NONBLOCK)
        let jack = HeadphoneJack(devices: [read], loop: loop)
        var told: [Bool] = []
        jack.onChange = { told.append($0) }
        #expect(!jack.areIn, "a pipe has no switch state: out")

        func send(_ inserted: Bool) throws {
            _ = try HeadphoneJack.event(inserted: inserted).withUnsafeBytes { try write.write($0) }
            try loop.runOnce(timeout: .milliseconds(100))
        }
        try send(true)
        #expect(jack.areIn)
        try send(true)  // the same state again: no change to tell
        try send(false)
        #expect(!jack.areIn)
        try send(true)
        #expect(told == [true, false, true])
        try write.close()
        try loop.runOnce(timeout: .milliseconds(100))
        #expect(!jack.areIn, "the device went away")
        #expect(told == [true, false, true, false])
    }

    @Test("no input device with a headphone switch: nothing to watch")
    func noJack() throws {
        let loop = try EventLoop(clock: ManualClock())
        let directory = "/tmp/lectern-no-jack-\(getpid())"
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        #expect(HeadphoneJack.open(directory: directory, loop: loop) == nil)
    }

    @Test("the input devices looked at: the event devices the directory holds, by number")
    func eventDevices() throws {
        let directory = "/tmp/lectern-input-\(getpid())"
        mkdir(directory, 0o700)
        let names = ["event10", "mouse0", "event2", "event", "eventX", "event0"]
        for name in names { close(creat(directory + "/" + name, 0o600)) }
        defer {
            for name in names { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        #expect(
            HeadphoneJack.eventDevices(in: directory) == ["event0", "event2", "event10"].map { directory + "/" + $0 })
        #expect(HeadphoneJack.eventDevices(in: directory + "/missing").isEmpty)
    }
}
