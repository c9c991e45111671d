import Glibc

/// A screen's backlight in sysfs (`/sys/class/backlight/NAME`), powered down and up through
/// its `bl_power`: 4 (FB_BLANK_POWERDOWN) is off, 0 (FB_BLANK_UNBLANK) on. The brightness is
/// left as it is. Writing needs the right to `bl_power` (kiosk/71-lectern-backlight.rules).
public struct Backlight: Equatable, Sendable {
    /// The device's directory.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The standard place of backlights.
    public static let classDirectory = "/sys/class/backlight"

    /// The backlight `setting` names: a directory, or "auto" for the first (by name) in
    /// `classDirectory`; nil when "auto" finds none.
    public static func named(_ setting: String, in classDirectory: String = classDirectory) -> Backlight? {
        guard setting == "auto" else { return Backlight(directory: setting) }
        guard let directory = opendir(classDirectory) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.min().map { Backlight(directory: classDirectory + "/" + $0) }
    }

    /// Powers it up or down.
    public func setPower(on: Bool) throws(SystemError) {
        let path = directory + "/bl_power"
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open(\(path))") }
        defer { close(fd) }
        let text = on ? "0\n" : "4\n"
        var written: Int
        repeat { written = text.withCString { write(fd, $0, 2) } } while written < 0 && errno == EINTR
        guard written == 2 else { throw SystemError("write(\(path))", errno: written < 0 ? errno : EIO) }
    }
}
