import CSeccomp
import Glibc
import LecternLinux
import Logging

/// The speech process: espeak-ng reads text that came from untrusted PDFs, so it runs apart
/// from the reader (a crash there takes only it down, and `SpeechClient` starts it again). Like
/// the render worker, the first is forked at the top of `lectern`'s start, before any thread
/// exists (`forkAtStart()`); one started later (after a crash, or in tests) is
/// `lectern --speech-worker`, its channel descriptor 3. espeak-ng and ALSA are loaded (dlopen)
/// only here: the reader never maps them.
public enum SpeechProcessMain {
    /// The hidden option that makes `lectern` the speech process.
    public static let option = "--speech-worker"
    /// The name the process forked at start is kept under (`ChildProcess.take(role:channels:)`).
    static let role = "speech"
    /// Its address space: espeak-ng, a voice's data and the Swift runtime fit in a tenth of it.
    static let addressSpace = 1 << 30

    /// Runs the exec'd speech process (logging set up); returns the exit status.
    public static func run() -> Int32 { serve(MessageChannel(descriptor: 3)) }

    /// Forks the speech process, unless one was forked already. Call it only while this process
    /// has a single thread. In the child this never returns; in the reader it waits for a
    /// `SpeechClient` to take it, or for `discardForkedProcess()`.
    public static func forkAtStart() {
        ChildProcess.fork(role: role, channels: 1) { serve($0[0]) }
    }

    /// Lets the process `forkAtStart()` forked go (speech is off): it ends and is reaped.
    public static func discardForkedProcess() { ChildProcess.discard(role: role) }

    private static func serve(_ channel: MessageChannel) -> Int32 {
        let logger = Logger(label: "lectern-speech")
        guard ChildProcess.limitSelf(addressSpace: addressSpace) else {
            logger.critical("cannot limit the speech process: \(errnoText(errno))")
            return 1
        }
        let status = CSeccomp_install_speech_filter()
        guard status == 0 else {
            logger.critical("cannot install the speech process's seccomp filter: \(errnoText(-status))")
            return 1
        }
        return SpeechServer(channel: channel, logger: logger).run()
    }
}
