import Glibc
import LecternLinux
import Testing

/// A child process with message channels: the machinery the render worker and speech share.
@Suite("Child processes")
struct ChildProcessTests {
    @Test("a spawned child has its channels as descriptors 3, 4, …; messages keep their boundaries")
    func spawnedChildAnswersOnItsChannels() throws {
        // The shell copies what comes on descriptor 4 back to it: one read, one write per message.
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["sh", "-c", "while true; do dd bs=65536 count=1 status=none <&4 >&4 || exit; done"],
            channels: 2)
        #expect(child.channels.count == 2)
        for message in [[UInt8](repeating: 7, count: 3), Array("hello".utf8)] {
            #expect(child.channels[1].send(message))
            let answer = try #require(child.channels[1].receive())
            #expect(answer.bytes == message)
            #expect(answer.fd == -1)
        }
        let status = ChildProcess.killAndReap(child.pid)
        #expect(ChildProcess.describe(status) == "signal 9")
        for channel in child.channels { channel.close() }
    }

    @Test("the reader sees a child's channel close when the child ends")
    func aChannelClosesWithItsChild() throws {
        let child = try ChildProcess.spawn("/bin/sh", arguments: ["sh", "-c", "exit 3"], channels: 1)
        #expect(child.channels[0].receive() == nil)
        #expect(ChildProcess.describe(ChildProcess.killAndReap(child.pid)) == "exit status 3")
        child.channels[0].close()
    }

    @Test("a child that cannot be started is an error, not a pid")
    func aMissingExecutableThrows() {
        #expect(throws: SystemError.self) {
            try ChildProcess.spawn("/nonexistent/lectern", arguments: ["lectern"], channels: 1)
        }
        #expect(!ChildProcess.isForked(role: "test"))
    }
}

/// The wire format every child process's messages use.
@Suite("Wire format")
struct WireFormatTests {
    @Test("what the writer puts, the reader gets back; a message cut short throws")
    func roundTrip() throws {
        var writer = WireWriter()
        writer.put(UInt8(9))
        writer.put(true)
        writer.put(-12)
        writer.put(2.5)
        writer.put("שלום")
        var reader = WireReader(writer.bytes)
        #expect(try reader.byte() == 9)
        #expect(try reader.bool())
        #expect(try reader.int() == -12)
        #expect(try reader.double() == 2.5)
        #expect(try reader.string() == "שלום")
        #expect(throws: WireError.self) { try reader.byte() }
        var cut = WireReader(Array(writer.bytes.dropLast()))
        _ = (try cut.byte(), try cut.bool(), try cut.int(), try cut.double())
        #expect(throws: WireError.self) { try cut.string() }
    }
}
