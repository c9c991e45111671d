import Glibc

/// A failed system call, with the call's name and errno, for messages an operator can act on
/// ("eventfd failed: Too many open files").
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed (`eventfd`, `timerfd_settime`…).
    public var call: String
    /// Its errno.
    public var code: Int32

    public init(_ call: String, errno code: Int32 = Glibc.errno) {
        self.call = call
        self.code = code
    }

    public var description: String { "\(call) failed: \(errnoText(code))" }
}

/// The text of an errno value ("No such file or directory").
public func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
