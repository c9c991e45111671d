import Dispatch
import Glibc
import LecternCore
import LecternLinux
import Testing

/// Jobs off the loop's thread, their completions back on it through the loop's own wake-up.
@Suite("Background work")
struct BackgroundWorkTests {
    @Test("jobs run off the loop's thread, in order; their completions run on it once the loop turns")
    func completionsOnTheLoop() throws {
        let loop = try EventLoop(clock: ManualClock())
        let work = BackgroundWork(label: "test.background", loop: loop)
        let loopThread = pthread_self()
        var results: [Int] = []
        var completedOnLoop = true
        for value in 1...3 {
            work.submit({ (value, pthread_self()) }) { value, thread in
                #expect(pthread_equal(thread, loopThread) == 0, "job \(value) ran off the loop's thread")
                completedOnLoop = completedOnLoop && pthread_equal(pthread_self(), loopThread) != 0
                results.append(value)
            }
        }
        #expect(work.isBusy)
        #expect(results.isEmpty, "nothing runs before the loop turns")
        for _ in 0..<100 where results.count < 3 { try loop.runOnce(timeout: .seconds(10)) }
        #expect(results == [1, 2, 3])
        #expect(completedOnLoop)
        #expect(!work.isBusy)
    }

    @Test("a job's end wakes a loop waiting in poll, and its completion runs in that turn")
    func aJobWakesTheLoop() throws {
        let loop = try EventLoop(clock: ManualClock())
        let work = BackgroundWork(label: "test.background", loop: loop)
        let gate = DispatchSemaphore(value: 0)
        var delivered = false
        work.submit({ gate.wait() }) { delivered = true }
        try loop.runOnce(timeout: .zero)
        #expect(!delivered && work.isBusy, "the job waits at its gate")
        gate.signal()
        try loop.runOnce(timeout: .seconds(10))  // nothing else can end this poll
        #expect(delivered)
        #expect(!work.isBusy)
    }

    @Test("waitUntilDone waits for every job and runs the completions left, without the loop")
    func waitUntilDone() throws {
        let loop = try EventLoop(clock: ManualClock())
        let work = BackgroundWork(label: "test.background", loop: loop)
        let gate = DispatchSemaphore(value: 0)
        var results: [String] = []
        work.submit({ gate.wait() }) { results.append("first") }
        work.submit({ "second" }) { results.append($0) }
        DispatchQueue.global().async { gate.signal() }
        work.waitUntilDone()
        #expect(results == ["first", "second"])
        #expect(!work.isBusy)
    }

    @Test("a dropped BackgroundWork delivers nothing more; its jobs still end")
    func droppedDeliversNothing() throws {
        let loop = try EventLoop(clock: ManualClock())
        var work: BackgroundWork? = BackgroundWork(label: "test.background", loop: loop)
        let ended = DispatchSemaphore(value: 0)
        var delivered = false
        work?.submit({ ended.signal() }) { delivered = true }
        work = nil
        #expect(ended.wait(timeout: .now() + 10) == .success)
        try loop.runOnce(timeout: .seconds(10))  // woken by the job's end
        #expect(!delivered)
    }

    @Test("abandoned jobs still end, but their completions do not run; later jobs are delivered")
    func abandon() throws {
        let loop = try EventLoop(clock: ManualClock())
        let work = BackgroundWork(label: "test.background", loop: loop)
        let gate = DispatchSemaphore(value: 0)
        var results: [String] = []
        work.submit({ gate.wait() }) { results.append("abandoned") }
        work.abandon()
        #expect(!work.isBusy)
        work.submit({ "later" }) { results.append($0) }
        gate.signal()
        for _ in 0..<100 where results.isEmpty { try loop.runOnce(timeout: .seconds(10)) }
        #expect(results == ["later"])
        #expect(!work.isBusy)
    }
}
