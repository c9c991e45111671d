import Foundation
import LecternPolicy
import Testing

/// The declarations of `PolicySettings` are the table of keys, and `KioskConfiguration`'s
/// members read and write the same values the policy file and the command line set.
@Suite("Policy settings")
struct PolicySettingsTests {
    /// The keys `kiosk/lectern.toml` documents (set or commented out), as dotted names, in order.
    static func documentedKeys() throws -> [String] {
        let repository = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let text = try String(contentsOfFile: "/" + repository + "/kiosk/lectern.toml", encoding: .utf8)
        var section = ""
        var keys: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let header = line.wholeMatch(of: /#?\s*\[\[?([a-z.-]+)\]\]?/) {
                // A show's table, `[hours.show.NAME]`, documents the keys of every show.
                section = header.1.hasPrefix("hours.show.") ? "hours.show.*" : String(header.1)
            } else if let key = line.prefixMatch(of: /#?\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s/) {
                keys.append(section.isEmpty ? String(key.1) : section + "." + key.1)
            }
        }
        return keys
    }

    @Test("the table holds each declared setting once, and kiosk/lectern.toml documents exactly its keys")
    func everySettingOnce() throws {
        var names = PolicyKeys.names
        #expect(Set(names).count == names.count, "a key named twice: \(names)")
        let declared = Mirror(reflecting: PolicySettings()).children.count
        #expect(
            names.count == 2 + declared + PolicyKeys.components.count,
            "document, documents, every let of PolicySettings and the components")
        names += PolicyKeys.showKeys.map { "hours.show.*." + $0 }
        names += PolicyFile.shelfKeys.map { "shelf." + $0 }
        let documented = try Self.documentedKeys()
        #expect(Set(documented).count == documented.count, "kiosk/lectern.toml names a key twice")
        #expect(
            Set(names).subtracting(documented).isEmpty,
            "keys kiosk/lectern.toml lacks: \(Set(names).subtracting(documented).sorted())")
        #expect(
            Set(documented).subtracting(names).isEmpty,
            "keys kiosk/lectern.toml has that Lectern does not know: \(Set(documented).subtracting(names).sorted())")
    }

    @Test("an unknown key's message lists the section's keys in the order they are declared")
    func unknownKeyListsTheSection() {
        do {
            _ = try PolicyFile.parse("[render]\nprocesses = \"on\"\n", path: "p.toml", over: PolicyFileTests.base)
            Issue.record("an unknown key passed")
        } catch {
            #expect(
                error.problems.map(\.description) == [
                    "p.toml:2: render.processes: unknown key (known here: process, deadline, pans, address-space-mb,"
                        + " audit-budget-ms, audit-pages)"
                ])
        }
    }

    @Test("a value set through a configuration's member is what the file's parser and the command line see")
    func membersAreTheParsersValues() throws {
        var base = PolicyFileTests.base
        #expect(base.idleResetSeconds == 120 && base.spreadMode == .single && base.password == nil, "the defaults")
        base.idleResetSeconds = 30
        base.spreadMode = .double
        base.password = "secret"
        let untouched = try PolicyFile.parse("", path: "p.toml", over: base)
        #expect(untouched.idleResetSeconds == 30 && untouched.spreadMode == .double && untouched.password == "secret")

        let fromFile = try PolicyFile.parse("password = \"\"\n[idle]\nreset = 60\n", path: "p.toml", over: base)
        #expect(fromFile.idleResetSeconds == 60, "the file over the member's value")
        #expect(fromFile.password == nil, "an empty password is none")
        #expect(fromFile.spreadMode == .double, "a key the file does not name keeps the member's value")

        base.overrides = ["idle.reset": .integer(45), "layout.spreads": .string("cover")]
        let overridden = try PolicyFile.parse("[idle]\nreset = 60\n", path: "p.toml", over: base)
        #expect(overridden.idleResetSeconds == 45 && overridden.spreadMode == .cover, "the command line over the file")

        base.overrides = ["idle.reset": .integer(-1)]
        do {
            _ = try PolicyFile.parse("", path: "p.toml", over: base)
            Issue.record("--idle-reset -1 passed")
        } catch {
            #expect(error.description == "command line: idle.reset: must be between 0 and 86400, not -1")
        }
    }
}
