/// What is wrong with a policy: each problem with its line and key, as an operator reads it
/// ("/etc/lectern/lectern.toml:12: layout.spreads: must be one of single, double, cover, not \"triple\"").
public struct PolicyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One problem.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        public var path: String
        /// The line (1-based), when the problem has one.
        public var line: Int?
        /// The key (`layout.spreads`), when the problem is one key's.
        public var key: String?
        public var message: String

        public var description: String {
            var text = path
            if let line { text += ":\(line)" }
            text += ": "
            if let key { text += "\(key): " }
            return text + message
        }
    }

    public var problems: [Problem]

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
