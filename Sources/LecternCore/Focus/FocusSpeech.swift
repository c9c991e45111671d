/// What keypad focus asks of speech: the hook the speech process is connected to.
public enum SpeechRequest: Equatable, Sendable {
    /// Stop speaking at once (every navigation key sends it first).
    case interrupt
    /// Say this: the item that got the focus, or where the visitor is and what they can do.
    case say(String)
}

/// Where keypad focus is: the page (its items, then the chrome's buttons), or what is open
/// over it, which is a level of its own (Back leaves it).
public enum FocusLevel: String, Equatable, Sendable {
    case page
    case search
    case outline
    case grid
    /// A form field or note being filled in.
    case editing
    case shelf

    /// The level's name as spoken.
    public var spokenName: String {
        switch self {
        case .page: "The page"
        case .search: "Search"
        case .outline: "The contents"
        case .grid: "All pages"
        case .editing: "Filling in a field"
        case .shelf: "The shelf"
        }
    }
}

/// The sentences keypad focus speaks.
public enum FocusPhrases {
    /// What is said when `item` gets the focus.
    public static func spoken(_ item: FocusItem) -> String {
        switch item.kind {
        case .text, .link, .field, .figure, .annotation: item.label
        case .button: "\(item.label), button"
        }
    }

    /// What is said of a form field: its name, kind and state (a box checked or not), and its
    /// value (what was typed or chosen) only when `saysValue`: through a speaker a passer-by
    /// may hear it. "Email, text field, filled in: ada@example.org."
    public static func field(_ field: AnnotationInfo, saysValue: Bool) -> String {
        let kind = field.fieldType.map { "\($0.rawValue) field" } ?? "field"
        var said = (field.fieldName.isEmpty ? "" : "\(field.fieldName), ") + kind
        switch field.fieldType {
        case .checkbox, .radio:
            said += field.value.isEmpty || field.value == "Off" ? ", not checked" : ", checked"
        case .pushButton, .signature, .unknown, nil:
            break
        case .text, .multilineText, .comboChoice, .listChoice:
            if field.value.isEmpty {
                said += ", empty"
            } else {
                said += saysValue ? ", filled in: \(field.value)" : ", filled in (headphones say what)"
            }
        }
        if field.isReadOnly { said += ", read only" }
        return said
    }

    /// Where the visitor is and what the keys do there.
    /// - Parameters:
    ///   - position: the page, as the title bar says it ("Page 4 of 320"); empty on the shelf.
    ///   - index, count: the focused item's place among the level's items.
    public static func help(level: FocusLevel, position: String, item: FocusItem?, index: Int?, count: Int) -> String {
        var where_ =
            switch (level, position.isEmpty) {
            case (.page, _): position
            case (_, true): level.spokenName
            case (_, false): "\(level.spokenName) is open, over \(position.lowercased())"
            }
        if let item, let index { where_ += "; item \(index + 1) of \(count): \(spoken(item))" }
        let keys =
            switch level {
            case .page:
                "Up and down, 8 and 2, go through the page and then the buttons. 4 and 6 turn the page. "
                    + "5 or Enter activates. 0 or Escape goes back. Star says this again."
            case .editing:
                "Type on the keyboard. Enter or 5 keeps what you typed; Escape or 0 leaves the field."
            default:
                "Up and down, 8 and 2, go through its items. 5 or Enter activates. 0 or Escape closes it."
            }
        return where_ + ". " + keys
    }
}
