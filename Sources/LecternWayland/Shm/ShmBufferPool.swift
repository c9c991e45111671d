import CWaylandClient

/// Bookkeeping of a swap chain, independent of Wayland so it can be unit tested:
/// which slots are busy, how old each slot's contents are, which slots wait to be freed.
public struct SwapChainState: Equatable, Sendable {
    public struct Slot: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public var isBusy = false
        /// Frames since this slot was last committed; 0 means its contents are undefined.
        public var age = 0
        /// Dropped by the pool while busy: freed when released.
        public var isRetired = false
    }

    public private(set) var slots: [Int: Slot] = [:]
    private var nextID = 0
    public let maximumCount: Int

    public init(maximumCount: Int = 3) { self.maximumCount = maximumCount }

    /// What `acquire` decided.
    public enum Acquisition: Equatable, Sendable {
        /// Reuse an existing, idle slot of the right size.
        case reuse(Int)
        /// Create a new slot with this id (its age is 0).
        case create(Int)
        /// Every slot is busy and the pool is full: wait for a release.
        case exhausted
    }

    /// Picks an idle slot of the given size, preferring the youngest contents; retires
    /// slots of another size (freed at once if idle, on release if busy).
    /// - Returns: the decision plus the ids to free now.
    public mutating func acquire(width: Int, height: Int) -> (Acquisition, freeNow: [Int]) {
        var freeNow: [Int] = []
        for (id, slot) in slots where slot.width != width || slot.height != height {
            if slot.isBusy {
                slots[id]?.isRetired = true
            } else {
                slots[id] = nil
                freeNow.append(id)
            }
        }
        let idle = slots.filter { !$0.value.isBusy && !$0.value.isRetired }
        if let best = idle.min(by: { lhs, rhs in
            let l = lhs.value.age == 0 ? Int.max : lhs.value.age
            let r = rhs.value.age == 0 ? Int.max : rhs.value.age
            return l == r ? lhs.key < rhs.key : l < r
        }) {
            return (.reuse(best.key), freeNow.sorted())
        }
        // Retired buffers do not block a resize, but they still hold memory: a compositor that
        // never releases (and a resize after every frame) must not make the pool grow without
        // bound. At most `maximumCount` buffers of the current size, `2 × maximumCount` in all.
        let live = slots.values.filter { !$0.isRetired }.count
        guard live < maximumCount, slots.count < 2 * maximumCount else { return (.exhausted, freeNow.sorted()) }
        let id = nextID
        nextID += 1
        slots[id] = Slot(width: width, height: height)
        return (.create(id), freeNow.sorted())
    }

    /// Marks `id` committed: it becomes busy with age 1; every other slot with defined
    /// contents gets one frame older.
    public mutating func committed(_ id: Int) {
        for key in slots.keys where key != id && slots[key]!.age > 0 {
            slots[key]!.age += 1
        }
        slots[id]?.isBusy = true
        slots[id]?.age = 1
    }

    /// The compositor released `id`. - Returns: true if the slot must be freed now.
    public mutating func released(_ id: Int) -> Bool {
        guard var slot = slots[id] else { return false }
        slot.isBusy = false
        if slot.isRetired {
            slots[id] = nil
            return true
        }
        slots[id] = slot
        return false
    }

    /// Forgets a slot whose memory was lost (e.g. creation failed).
    public mutating func remove(_ id: Int) { slots[id] = nil }
}

/// A pool of `ShmBuffer`s for one surface: never hands out a busy buffer, frees buffers
/// of an old size as soon as the compositor releases them. Made by `Display.makeBufferPool()`;
/// keeps the display (and so the connection) alive until its buffers are destroyed.
public final class ShmBufferPool {
    private let display: Display
    private var state: SwapChainState
    private var buffers: [Int: ShmBuffer] = [:]
    /// The buffers' `wl_shm` format (nil: the display's `frameFormat`).
    private let format: UInt32?

    init(display: Display, maximumCount: Int = 3, format: UInt32? = nil) {
        self.display = display
        self.format = format
        state = SwapChainState(maximumCount: maximumCount)
    }

    /// An idle buffer of exactly this size, or nil when all are busy (wait for a release).
    public func acquire(width: Int, height: Int) throws(WaylandError) -> ShmBuffer? {
        let (decision, freeNow) = state.acquire(width: width, height: height)
        for id in freeNow {
            buffers.removeValue(forKey: id)?.destroy()
        }
        switch decision {
        case .reuse(let id):
            let buffer = buffers[id]!
            buffer.age = state.slots[id]!.age
            return buffer
        case .create(let id):
            do {
                let buffer = try ShmBuffer(
                    shm: display.shm!, width: width, height: height, format: format ?? display.frameFormat)
                buffer.pool = self
                buffers[id] = buffer
                return buffer
            } catch {
                state.remove(id)
                throw error
            }
        case .exhausted:
            return nil
        }
    }

    /// `memory` (a file's frame: the kept first frame) as a buffer outside the pool, in the
    /// pool's format (`ShmBuffer.standalone`); nil without wl_shm.
    public func standalone(_ memory: ShmMemory) -> ShmBuffer? {
        guard let shm = display.shm else { return nil }
        return ShmBuffer.standalone(shm: shm, memory: memory, format: display.frameFormat)
    }

    /// Records that `buffer` was attached and committed.
    public func committed(_ buffer: ShmBuffer) {
        guard let id = id(of: buffer) else { return }
        state.committed(id)
    }

    func bufferReleased(_ buffer: ShmBuffer) {
        guard let id = id(of: buffer) else { return }
        if state.released(id) {
            buffers.removeValue(forKey: id)?.destroy()
        }
    }

    /// Number of buffers currently allocated (busy or idle; at most twice the pool's limit,
    /// while buffers of an old size wait for their release).
    public var count: Int { buffers.count }
    /// Buffers the compositor holds (committed, not yet released).
    public var busyCount: Int { state.slots.values.filter(\.isBusy).count }

    private func id(of buffer: ShmBuffer) -> Int? {
        buffers.first { $0.value === buffer }?.key
    }

    deinit {
        for buffer in buffers.values { buffer.destroy() }
    }
}
