import Foundation
import LecternLinux
import Testing

/// `SharedFile`: a regular file opened read-write, read with pread, its descriptor handed on.
@Suite("Shared file")
struct SharedFileTests {
    @Test("reads where asked, hands its descriptor on open and read-write, and refuses what is not a file")
    func sharedFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-shared-\(UUID())").path
        defer { unlink(path) }
        try Data((0..<100).map { UInt8($0) }).write(to: URL(fileURLWithPath: path))
        var file: SharedFile? = try SharedFile(path: path)
        #expect(file?.size == 100)
        #expect(try file?.read(count: 4, at: 10) == [10, 11, 12, 13])
        #expect(try file?.read(count: 8, at: 96) == [96, 97, 98, 99], "fewer where the file ends")
        let descriptor = try #require(file?.takeDescriptor())
        file = nil
        // Still open after the object went, and writable (as a compositor maps it).
        defer { close(descriptor) }
        #expect(fcntl(descriptor, F_GETFL) & O_ACCMODE == O_RDWR)
        var byte: UInt8 = 7
        #expect(pwrite(descriptor, &byte, 1, 0) == 1)
        #expect(throws: SystemError.self) { try SharedFile(path: FileManager.default.temporaryDirectory.path) }
        do {
            _ = try SharedFile(path: path + ".gone")
            Issue.record("a missing file opened")
        } catch {
            #expect(error.code == ENOENT)
        }
    }
}
