import Foundation
import Testing

@testable import LecternLinux

/// The backlight's `bl_power`, in a directory made to look like /sys/class/backlight.
@Suite("Backlight")
struct BacklightTests {
    @Test("auto finds the first device; off writes 4 and on 0 to bl_power; a missing device throws")
    func power() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("backlight-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["intel_backlight", "acpi_video0"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(name), withIntermediateDirectories: true)
            try "0\n".write(to: root.appendingPathComponent(name + "/bl_power"), atomically: false, encoding: .utf8)
        }
        let backlight = try #require(Backlight.named("auto", in: root.path))
        #expect(backlight.directory == root.path + "/acpi_video0")
        try backlight.setPower(on: false)
        #expect(try String(contentsOfFile: backlight.directory + "/bl_power", encoding: .utf8) == "4\n")
        try backlight.setPower(on: true)
        #expect(try String(contentsOfFile: backlight.directory + "/bl_power", encoding: .utf8) == "0\n")
        #expect(Backlight.named("auto", in: root.path + "/none") == nil)
        #expect(Backlight.named("/sys/class/backlight/x") == Backlight(directory: "/sys/class/backlight/x"))
        #expect(throws: SystemError.self) { try Backlight(directory: root.path + "/gone").setPower(on: false) }
    }
}
