import Foundation
import Testing

/// The policy in force acts at once where a change must (`PolicyInForce.observe`): the parts
/// that use a key restart what it times.
@Suite("Policy in force", .serialized)
struct PolicyInForceTests {
    @Test("a new idle.reset in the running kiosk's policy counts from the change, not from the last touch")
    func idleResetChangedLive() throws {
        let colors = PolicyTests.colors
        let policy = try PolicyTests.PolicyDirectory("document = \"\(colors)\"\n[idle]\nreset = 600\ncountdown = 0\n")
        let lectern = try KioskHarness(["--config", policy.path])
        #expect(lectern.settle())
        let start = lectern.clock.now
        let first = try #require(lectern.status.idleResetDeadline)
        #expect(abs(first - (start + 600)) < 1, "the file's 600 s, not the default 120 s")

        lectern.advance(by: 100)
        try policy.replace(with: "document = \"\(colors)\"\n[idle]\nreset = 30\ncountdown = 0\n")
        #expect(PolicyTests().letPolicyApply(lectern))
        let changed = try #require(lectern.status.idleResetDeadline)
        #expect(abs(changed - (lectern.clock.now + 30)) < 1, "30 s from the change: \(changed - lectern.clock.now)")

        lectern.advance(by: 10)
        lectern.tap(x: 640, y: 360)
        let touched = try #require(lectern.status.idleResetDeadline)
        #expect(abs(touched - (lectern.clock.now + 30)) < 1, "a touch starts the new 30 s over")
        try lectern.stop()
    }
}
