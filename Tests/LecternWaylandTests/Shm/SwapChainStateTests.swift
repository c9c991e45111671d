import LecternWayland
import Testing

@Suite("Buffer pool bookkeeping")
struct SwapChainStateTests {
    @Test("a busy buffer is never handed out again until released")
    func busyNeverReused() {
        var state = SwapChainState(maximumCount: 2)
        let (first, _) = state.acquire(width: 100, height: 50)
        guard case .create(let a) = first else { Issue.record("expected a new slot, got \(first)"); return }
        state.committed(a)
        let (second, _) = state.acquire(width: 100, height: 50)
        guard case .create(let b) = second else { Issue.record("expected a second slot, got \(second)"); return }
        #expect(a != b)
        state.committed(b)
        // Both busy and the pool is full: nothing may be handed out.
        #expect(state.acquire(width: 100, height: 50).0 == .exhausted)
        #expect(state.released(a) == false)
        #expect(state.acquire(width: 100, height: 50).0 == .reuse(a))
    }

    @Test("age counts frames since a buffer's contents were committed")
    func ages() {
        var state = SwapChainState(maximumCount: 3)
        guard case .create(let a) = state.acquire(width: 10, height: 10).0 else { Issue.record("no slot"); return }
        #expect(state.slots[a]?.age == 0, "a new buffer's contents are undefined")
        state.committed(a)
        #expect(state.slots[a]?.age == 1)
        guard case .create(let b) = state.acquire(width: 10, height: 10).0 else { Issue.record("no slot"); return }
        state.committed(b)
        #expect(state.slots[a]?.age == 2)
        #expect(state.slots[b]?.age == 1)
        _ = state.released(a)
        _ = state.released(b)
        // The youngest idle buffer is preferred: fewer pixels to repaint.
        #expect(state.acquire(width: 10, height: 10).0 == .reuse(b))
        state.committed(b)
        #expect(state.slots[a]?.age == 3)
        #expect(state.slots[b]?.age == 1)
    }

    @Test("buffers of an old size are freed at once if idle and on release if busy")
    func deferredFree() {
        var state = SwapChainState(maximumCount: 3)
        guard case .create(let first) = state.acquire(width: 10, height: 10).0 else { Issue.record("no slot"); return }
        state.committed(first)
        guard case .create(let second) = state.acquire(width: 10, height: 10).0 else { Issue.record("no slot"); return }
        state.committed(second)
        _ = state.released(first)  // first idle, second still busy
        let (decision, freeNow) = state.acquire(width: 20, height: 20)
        guard case .create(let fresh) = decision else { Issue.record("expected a new slot, got \(decision)"); return }
        #expect(freeNow == [first], "an idle buffer of the old size is freed at once")
        #expect(state.slots[first] == nil)
        #expect(state.slots[second]?.isRetired == true, "the busy buffer waits for its release")
        #expect(state.acquire(width: 20, height: 20).0 != .reuse(second), "a retired buffer is never handed out")
        #expect(state.released(second) == true, "freed as soon as the compositor releases it")
        #expect(state.slots[second] == nil)
        #expect(state.slots[fresh]?.width == 20)
    }

    @Test("retired buffers do not count against the pool limit")
    func retiredDoNotBlock() {
        var state = SwapChainState(maximumCount: 1)
        guard case .create(let a) = state.acquire(width: 10, height: 10).0 else { Issue.record("no slot"); return }
        state.committed(a)
        // Resize while the only buffer is busy: a new one can still be made.
        guard case .create(let b) = state.acquire(width: 30, height: 30).0 else {
            Issue.record("resize blocked"); return
        }
        #expect(a != b)
        state.committed(b)
        #expect(state.acquire(width: 30, height: 30).0 == .exhausted)
    }

    @Test("a compositor that never releases, and a resize every frame: the pool stops at twice its limit")
    func neverReleasedIsBounded() {
        var state = SwapChainState(maximumCount: 3)
        var made = 0
        for size in 1...20 {
            while case .create(let id) = state.acquire(width: size, height: size).0 {
                state.committed(id)
                made += 1
            }
        }
        #expect(made == 6, "3 of the first size, then 3 more while those wait for their release")
        #expect(state.slots.count == 6)
        #expect(state.acquire(width: 99, height: 99).0 == .exhausted, "frames wait for a release")
        // One release of a retired buffer frees it and makes room for one of the new size.
        let retired = state.slots.first { $0.value.isRetired }!.key
        let freed = state.released(retired)
        #expect(freed)
        guard case .create = state.acquire(width: 99, height: 99).0 else {
            Issue.record("no room after a release"); return
        }
    }
}
