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
        case .page: tr("The page")
        case .search: tr("Search")
        case .outline: tr("The contents")
        case .grid: tr("All pages")
        case .editing: tr("Filling in a field")
        case .shelf: tr("The shelf")
        }
    }
}

/// The sentences keypad focus speaks.
public enum FocusPhrases {
    /// What is said when `item` gets the focus.
    public static func spoken(_ item: FocusItem) -> String {
        switch item.kind {
        case .text, .link, .field, .figure, .annotation: item.label
        case .button: tr("%s, button", item.label)
        }
    }

    /// What is said of a form field: its name, kind and state (a box checked or not), and its
    /// value (what was typed or chosen) only when `saysValue`: through a speaker a passer-by
    /// may hear it. "Email, text field, filled in: ada@example.org."
    public static func field(_ field: AnnotationInfo, saysValue: Bool) -> String {
        let kind =
            switch field.fieldType {
            case .text: tr("text field")
            case .multilineText: tr("multiline field")
            case .checkbox: tr("checkbox field")
            case .radio: tr("radio field")
            case .comboChoice: tr("combo field")
            case .listChoice: tr("list field")
            case .pushButton: tr("button field")
            case .signature: tr("signature field")
            case .unknown: tr("unknown field")
            case nil: tr("field")
            }
        var said = field.fieldName.isEmpty ? kind : tr("%s, %s", field.fieldName, kind)
        switch field.fieldType {
        case .checkbox, .radio:
            said = field.value.isEmpty || field.value == "Off" ? tr("%s, not checked", said) : tr("%s, checked", said)
        case .pushButton, .signature, .unknown, nil:
            break
        case .text, .multilineText, .comboChoice, .listChoice:
            if field.value.isEmpty {
                said = tr("%s, empty", said)
            } else {
                said =
                    saysValue
                    ? tr("%s, filled in: %s", said, field.value) : tr("%s, filled in (headphones say what)", said)
            }
        }
        if field.isReadOnly { said = tr("%s, read only", said) }
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
            case (_, false): tr("%s is open, over %s", level.spokenName, position.lowercased())
            }
        if let item, let index { where_ = tr("%s; item %s of %s: %s", where_, index + 1, count, spoken(item)) }
        let keys =
            switch level {
            case .page:
                tr(
                    "Up and down, 8 and 2, go through the page and then the buttons. 4 and 6 turn the page. 5 or Enter activates. 0 or Escape goes back. Star says this again."
                )
            case .editing:
                tr("Type on the keyboard. Enter or 5 keeps what you typed; Escape or 0 leaves the field.")
            default:
                tr("Up and down, 8 and 2, go through its items. 5 or Enter activates. 0 or Escape closes it.")
            }
        return tr("%s. %s", where_, keys)
    }
}
