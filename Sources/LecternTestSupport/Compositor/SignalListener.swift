import CWaylandServer

/// A `wl_listener` on a libwayland destroy signal (of a resource, a client) or on the display's
/// client-created signal, calling a Swift closure.
///
/// The `wl_listener` lives in a heap block together with an unretained pointer to this object,
/// so the C notify function finds its way back without capturing anything. `remove()` mirrors
/// `init`: it unlinks the listener and frees the block; every listener a test compositor adds
/// is removed again (the "clean at teardown" check counts them).
final class SignalListener {
    private let block: UnsafeMutableRawPointer
    private let handler: (UnsafeMutableRawPointer?) -> Void
    private(set) var isRemoved = false

    private static let ownerOffset = MemoryLayout<wl_listener>.stride

    /// Creates an unlinked listener; link it with one of the `add*` functions.
    init(_ handler: @escaping (UnsafeMutableRawPointer?) -> Void) {
        self.handler = handler
        let size = Self.ownerOffset + MemoryLayout<UnsafeMutableRawPointer>.stride
        block = .allocate(byteCount: size, alignment: MemoryLayout<wl_listener>.alignment)
        let listener = block.bindMemory(to: wl_listener.self, capacity: 1)
        listener.initialize(to: wl_listener())
        wl_list_init(&listener.pointee.link)
        listener.pointee.notify = { listener, data in
            guard let listener else { return }
            let owner = UnsafeMutableRawPointer(listener).load(
                fromByteOffset: SignalListener.ownerOffset, as: UnsafeMutableRawPointer.self)
            Unmanaged<SignalListener>.fromOpaque(owner).takeUnretainedValue().handler(data)
        }
        block.storeBytes(
            of: Unmanaged.passUnretained(self).toOpaque(), toByteOffset: Self.ownerOffset,
            as: UnsafeMutableRawPointer.self)
    }

    /// The `wl_listener` to hand to libwayland.
    var listener: UnsafeMutablePointer<wl_listener> {
        block.assumingMemoryBound(to: wl_listener.self)
    }

    /// Unlinks the listener (harmless if libwayland already unlinked it while emitting a final
    /// destroy signal: it re-initialises the link then) and frees its block. Idempotent.
    func remove() {
        guard !isRemoved else { return }
        isRemoved = true
        wl_list_remove(&listener.pointee.link)
        listener.deinitialize(count: 1)
        block.deallocate()
    }

    deinit { remove() }
}
