import CLecternLinux
import Glibc
import SystemPackage

/// Tells whether headphones are plugged in, and when that changes: speech starts in them and
/// says what a passer-by must not hear only through them. `HeadphoneJack` is the kernel's
/// jack switch; a test plugs its own in.
public protocol HeadphoneDetector: AnyObject {
    /// Headphones are in now.
    var areIn: Bool { get }
    /// Called on the loop when headphones go in (true) or come out (false).
    var onChange: ((Bool) -> Void)? { get set }
}

/// The sound card's headphone jack, as the kernel reports it: input devices (`/dev/input/event*`)
/// with the switch SW_HEADPHONE_INSERT ("HDA Intel PCH Headphone"), which the event loop
/// watches. A USB headset is a sound card of its own and has no such switch: it is not seen.
/// Corresponding C calls: `open`, `ioctl(EVIOCGBIT)`, `ioctl(EVIOCGSW)`, `read`.
public final class HeadphoneJack: HeadphoneDetector {
    public private(set) var areIn: Bool
    public var onChange: ((Bool) -> Void)?
    /// The devices that have the switch (owned: closed with this object).
    private var devices: [(descriptor: FileDescriptor, watch: EventLoop.Watch)] = []
    /// Each device's last state (headphones in on any of them: in).
    private var states: [Bool]

    /// The jacks among the input devices in `directory` (nil: none has the switch, or none can
    /// be read: the kiosk user needs the `input` group or a logind seat).
    public static func open(directory: String = "/dev/input", loop: EventLoop) -> HeadphoneJack? {
        var found: [FileDescriptor] = []
        for path in eventDevices(in: directory) {
            let fd = CLecternLinux_evdev_open_headphone_jack(path)
            if fd >= 0 { found.append(FileDescriptor(rawValue: fd)) }
        }
        guard !found.isEmpty else { return nil }
        return HeadphoneJack(devices: found, loop: loop)
    }

    /// The paths of the `event*` devices in `directory`, by number: one read of the directory,
    /// where trying every name from event0 to event63 cost 64 failed opens at every start.
    public static func eventDevices(in directory: String) -> [String] {
        guard let listing = opendir(directory) else { return [] }
        defer { closedir(listing) }
        var devices: [(number: Int, path: String)] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("event"), let number = Int(name.dropFirst(5)) else { continue }
            devices.append((number, directory + "/" + name))
        }
        return devices.sorted { $0.number < $1.number }.map(\.path)
    }

    /// Watches `devices`, which it owns: jacks' input devices, or (a test's) pipes that carry
    /// their events (`Self.event(inserted:)`), whose state starts out.
    public init(devices: [FileDescriptor], loop: EventLoop) {
        states = devices.map { CLecternLinux_evdev_headphones_in($0.rawValue) == 1 }
        areIn = states.contains(true)
        for (index, descriptor) in devices.enumerated() {
            let watch = loop.watch(descriptor) { [weak self] in self?.read(device: index) }
            self.devices.append((descriptor, watch))
        }
    }

    deinit {
        for device in devices {
            device.watch.cancel()
            try? device.descriptor.close()
        }
    }

    /// The bytes a jack's device sends when headphones go in or out (for a test's pipe).
    public static func event(inserted: Bool) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes {
            CLecternLinux_evdev_headphone_event($0.baseAddress, $0.count, inserted ? 1 : 0)
        }
        return Array(buffer.prefix(count))
    }

    private func read(device index: Int) {
        let descriptor = devices[index].descriptor
        switch CLecternLinux_evdev_read_headphones(descriptor.rawValue) {
        case 0: states[index] = false
        case 1: states[index] = true
        case 3: states[index] = CLecternLinux_evdev_headphones_in(descriptor.rawValue) == 1
        case -1:
            // The sound card went away (unplugged, driver unloaded): no headphones there.
            devices[index].watch.cancel()
            states[index] = false
        default: return
        }
        let now = states.contains(true)
        guard now != areIn else { return }
        areIn = now
        onChange?(now)
    }
}
