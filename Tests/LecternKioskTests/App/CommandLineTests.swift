import LecternKiosk
import LecternTestSupport
import Testing

@Suite("lectern command line")
struct CommandLineTests {
    func run(_ arguments: [String]) throws -> (status: Int32?, output: String, error: String) {
        // No compositor: these must answer without one. A state directory of its own: a start
        // never reads the view saved by a run outside the tests.
        let state = try TemporaryRuntimeDirectory(prefix: "lectern-state")
        defer { state.remove() }
        let process = try LecternProcess(
            arguments: arguments,
            environment: ["WAYLAND_DISPLAY": "lectern-no-such-socket", "STATE_DIRECTORY": state.path])
        let status = process.waitForExit(timeout: .seconds(10))
        return (status, process.output, process.errorOutput)
    }

    @Test("--version prints Lectern's version and nothing else")
    func version() throws {
        let result = try run(["--version"])
        #expect(result.status == 0)
        #expect(result.output == "\(KioskApp.version)\n")
        #expect(result.error.isEmpty)
    }

    @Test("--help explains FILE and --frame-dump")
    func help() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("--frame-dump"))
        #expect(result.output.contains("<file>"))
    }

    @Test("an unknown option is a usage error, not a crash")
    func unknownOption() throws {
        let result = try run(["--no-such-option"])
        #expect(result.status == 64)
        #expect(result.error.contains("no-such-option"))
    }

    @Test("no compositor: a clear message and a non-zero status")
    func noCompositor() throws {
        let result = try run([])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot connect to the Wayland compositor"))
    }
}
