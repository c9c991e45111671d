/// A value a policy key takes, from the file or from the command line.
public enum PolicyValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case strings([String])
    /// A TOML value of a type no key takes (a date, a table where a value belongs…).
    case other(typeName: String)

    var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "true or false"
        case .strings: "a list of strings"
        case .other(let name): name
        }
    }
}
