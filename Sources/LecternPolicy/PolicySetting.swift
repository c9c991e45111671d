import LecternCore

/// One key of the policy file, declared once as a `let` of `PolicySettings`: its name, its
/// default, and how a value from the file or the command line becomes the setting's value or
/// the problem an operator reads. `KioskConfiguration` holds the values and is read by the
/// declaration's name (`configuration.idleResetSeconds`); `PolicyKeys` finds every declaration.
public struct PolicySetting<Value: Sendable & Equatable>: Sendable {
    /// The key (`idle.reset`): in the file, and in the command line's `KioskConfiguration.overrides`.
    public let name: String
    /// The value while neither the file nor the command line sets the key.
    public let defaultValue: Value
    /// A file path: relative ones are relative to the policy file.
    public let isPath: Bool
    /// The value `PolicyValue` gives, or what is wrong with it.
    let check: @Sendable (PolicyValue) -> Result<Value, PolicyValueProblem>

    /// A setting whose value `check` makes of what the file or the command line says.
    public init(
        _ name: String, default defaultValue: Value, isPath: Bool = false,
        check: @escaping @Sendable (PolicyValue) -> Result<Value, PolicyValueProblem>
    ) {
        self.name = name
        self.defaultValue = defaultValue
        self.isPath = isPath
        self.check = check
    }
}

/// What is wrong with a key's value, as the operator reads it after the key
/// ("needs a whole number, not a string").
public struct PolicyValueProblem: Error, Equatable, Sendable {
    public var message: String

    public init(_ message: String) { self.message = message }
}

/// A setting of any type, as the table of keys (`PolicyKeys`) holds it.
protocol AnyPolicySetting: Sendable {
    var name: String { get }
    var isPath: Bool { get }
    /// Sets the setting in `configuration` from `value`; returns the problem with it, or nil.
    func apply(_ value: PolicyValue, to configuration: inout KioskConfiguration) -> String?
}

extension PolicySetting: AnyPolicySetting {
    func apply(_ value: PolicyValue, to configuration: inout KioskConfiguration) -> String? {
        switch check(value) {
        case .success(let checked):
            configuration[self] = checked
            return nil
        case .failure(let problem):
            return problem.message
        }
    }
}

// MARK: Kinds of settings

extension PolicySetting {
    /// A whole number in `range`, made the value by `convert`.
    public static func integer(
        _ name: String, default defaultValue: Value, in range: ClosedRange<Int>,
        _ convert: @escaping @Sendable (Int) -> Value
    ) -> Self {
        Self(name, default: defaultValue) { value in
            guard case .integer(let number) = value else {
                return .failure(.init("needs a whole number, not \(value.typeName)"))
            }
            guard range.contains(number) else {
                return .failure(.init("must be between \(range.lowerBound) and \(range.upperBound), not \(number)"))
            }
            return .success(convert(number))
        }
    }

    /// A number (whole or not) in `range`, made the value by `convert`.
    public static func number(
        _ name: String, default defaultValue: Value, in range: ClosedRange<Double>,
        _ convert: @escaping @Sendable (Double) -> Value
    ) -> Self {
        Self(name, default: defaultValue) { value in
            let number: Double
            switch value {
            case .integer(let whole): number = Double(whole)
            case .number(let fraction): number = fraction
            default: return .failure(.init("needs a number, not \(value.typeName)"))
            }
            guard range.contains(number) else {
                return .failure(.init("must be between \(range.lowerBound) and \(range.upperBound), not \(number)"))
            }
            return .success(convert(number))
        }
    }

    /// One of the names in `choices`, the value it stands for.
    public static func choice(_ name: String, default defaultValue: Value, _ choices: [String: Value]) -> Self {
        choice(name, default: defaultValue, names: { choices.keys.sorted() }, lookup: { choices[$0] })
    }

    /// One of the names `lookup` knows, the value it gives. `names` lists them for a problem's
    /// message only: every start builds the settings, and a policy sets few of them.
    static func choice(
        _ name: String, default defaultValue: Value, names: @escaping @Sendable () -> [String],
        lookup: @escaping @Sendable (String) -> Value?
    ) -> Self {
        Self(name, default: defaultValue) { value in
            guard case .string(let chosen) = value else {
                return .failure(.init("needs one of \(names().joined(separator: ", ")), not \(value.typeName)"))
            }
            guard let result = lookup(chosen) else {
                return .failure(.init("must be one of \(names().joined(separator: ", ")), not \"\(chosen)\""))
            }
            return .success(result)
        }
    }

    /// A string, made the value (or a problem) by `convert`.
    public static func string(
        _ name: String, default defaultValue: Value, isPath: Bool = false,
        _ convert: @escaping @Sendable (String) -> Result<Value, PolicyValueProblem>
    ) -> Self {
        Self(name, default: defaultValue, isPath: isPath) { value in
            guard case .string(let text) = value else {
                return .failure(.init("needs a string, not \(value.typeName)"))
            }
            return convert(text)
        }
    }
}

extension PolicySetting where Value == Int {
    /// A whole number in `range`.
    public static func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) -> Self {
        integer(name, default: defaultValue, in: range) { $0 }
    }
}

extension PolicySetting where Value == Double {
    /// A number (whole or not) in `range`.
    public static func number(_ name: String, default defaultValue: Double, in range: ClosedRange<Double>) -> Self {
        number(name, default: defaultValue, in: range) { $0 }
    }
}

extension PolicySetting where Value == Bool {
    /// True or false.
    public static func boolean(_ name: String, default defaultValue: Bool) -> Self {
        Self(name, default: defaultValue) { value in
            guard case .boolean(let flag) = value else {
                return .failure(.init("needs true or false, not \(value.typeName)"))
            }
            return .success(flag)
        }
    }
}

extension PolicySetting where Value == String {
    /// A string.
    public static func string(_ name: String, default defaultValue: String) -> Self {
        string(name, default: defaultValue) { .success($0) }
    }
}

extension PolicySetting where Value == String? {
    /// A string, or a path when `isPath`; none by default, and the empty string is none.
    public static func optionalString(_ name: String, isPath: Bool = false) -> Self {
        string(name, default: nil, isPath: isPath) { .success($0.isEmpty ? nil : $0) }
    }
}

extension PolicySetting where Value == [String] {
    /// A list of strings.
    public static func strings(_ name: String, default defaultValue: [String]) -> Self {
        Self(name, default: defaultValue) { value in
            guard case .strings(let strings) = value else {
                return .failure(.init("needs a list of strings, not \(value.typeName)"))
            }
            return .success(strings)
        }
    }

    /// A list of names, each one of `allowed`.
    public static func names(_ name: String, default defaultValue: [String], allowed: [String]) -> Self {
        Self(name, default: defaultValue) { value in
            guard case .strings(let names) = value else {
                return .failure(.init("needs a list of names, not \(value.typeName)"))
            }
            if let unknown = names.first(where: { !allowed.contains($0) }) {
                return .failure(.init("\"\(unknown)\" is not one of \(allowed.joined(separator: ", "))"))
            }
            return .success(names)
        }
    }

    /// A list of annotation kinds (`AnnotationRules`).
    public static func kinds(_ name: String, default defaultValue: [String]) -> Self {
        Self(name, default: defaultValue) { value in
            guard case .strings(let kinds) = value else {
                return .failure(.init("needs a list of annotation kinds, not \(value.typeName)"))
            }
            if let unknown = kinds.first(where: { !AnnotationRules.isKnownKind($0) }) {
                return .failure(
                    .init(
                        "\"\(unknown)\" is not an annotation kind (a subtype such as freetext, form, form.text, or *)"))
            }
            return .success(kinds)
        }
    }
}

extension PolicySetting where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the cases, by its raw value.
    public static func choice(_ name: String, default defaultValue: Value) -> Self {
        choice(
            name, default: defaultValue, names: { Value.allCases.map { $0.rawValue }.sorted() },
            lookup: { chosen in Value.allCases.first { $0.rawValue == chosen } })
    }
}

extension PolicySetting where Value == [Key] {
    /// A list of key names (xkb keysym names: `KeypadKeyMap.key(named:)`), for `[keypad]`.
    public static func keys(_ name: String, default defaultValue: [String]) -> Self {
        Self(name, default: defaultValue.compactMap(KeypadKeyMap.key(named:))) { value in
            guard case .strings(let names) = value else {
                return .failure(.init("needs a list of key names, not \(value.typeName)"))
            }
            if let unknown = names.first(where: { KeypadKeyMap.key(named: $0) == nil }) {
                return .failure(
                    .init(
                        "\"\(unknown)\" is not a key name (KP_0…KP_9, Up, Down, Left, Right, Return, Escape, space, F1…F12, Help, asterisk, XF86AudioRaiseVolume, a…z, 0…9)"
                    ))
            }
            return .success(names.compactMap(KeypadKeyMap.key(named:)))
        }
    }
}
