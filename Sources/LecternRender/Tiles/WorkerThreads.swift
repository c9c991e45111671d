import CLecternLinux
import Glibc
import LecternLinux

// The tile workers' lock and threads, on pthreads directly: Foundation's `NSCondition` and
// `Thread` were all this module took from Foundation, and linking Foundation into `lectern`
// brought its conformance records (every first protocol lookup scans them all), its
// initializers and ICU's 34 MB along: about a third of the start-up work (kiosk/bench startup).

/// A mutex with one condition variable, as `NSCondition` offers: `lock`, `unlock`, `wait`,
/// `broadcast`. Not recursive.
public final class ConditionLock: @unchecked Sendable {
    // Sendable: the pthread objects are made for sharing between threads; they live at stable
    // heap addresses (a pthread mutex must not move) owned by this object.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        // With default attributes these only fail on resource exhaustion at start.
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Unlocks, sleeps until `broadcast` (or a spurious wake-up: callers loop), locks again.
    public func wait() { pthread_cond_wait(condition, mutex) }
    /// As `wait()`, but for at most `seconds`; false when the time ran out.
    public func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)  // the condition variable's default clock
        let nanoseconds = Int(now.tv_nsec) + Int((max(0, seconds) * 1e9).rounded())
        var until = timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        return pthread_cond_timedwait(condition, mutex, &until) != ETIMEDOUT
    }

    /// Wakes every thread in `wait`.
    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts a detached thread named `name` (its first 15 bytes show in `ps` and `top`) that
/// runs `body`, with the default stack size (the stack rlimit, as `Thread` had).
public func startDetachedThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    let context = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread, nil,
        { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            _ = CLecternLinux_set_thread_name(box.name)
            box.body()
            return nil
        }, context)
    // A reader without its render threads cannot show a page: fail loudly at start.
    precondition(status == 0, "cannot start thread \(name): \(errnoText(status))")
    pthread_detach(thread)
}
