// The choices of the keys that name one of a few behaviours (`PolicySettings`).

/// When the title bar and page scrubber show (`chrome.show`).
public enum ChromeMode: String, Sendable, CaseIterable {
    /// Never: a single tap does nothing.
    case never
    /// A single tap shows or hides them (the default).
    case onTap = "on-tap"
    /// Always shown; a single tap does not hide them.
    case always
}

/// What a tap on a link does (`links.follow`).
public enum LinkMode: String, Sendable, CaseIterable {
    /// Links do nothing.
    case none
    /// Links to pages of the document work; web links do nothing.
    case `internal`
    /// Links to pages work; a web link shows its address and a QR code (the default).
    case qr
    /// Like `qr`, but only web links matching one of `allowedLinks` (glob patterns).
    case allowList = "allow-list"
}

/// Whether a second output gets the presenter mirror (`mirror`).
public enum MirrorMode: String, Sendable, CaseIterable {
    /// A second output shows the page aspect-fit (the default).
    case auto
    /// No mirror.
    case off
}

/// How one spread gives way to the next in per-spread paging (`page-turn.transition`).
public enum PageTurnTransition: String, Sendable, CaseIterable {
    /// The spreads slide side by side, following the finger (the default).
    case slide
    /// The page curls like paper, following the finger (horizontal paging only).
    case curl
    /// The page changes at once; nothing moves.
    case none
}

/// Where the control socket listens (`control.socket`).
public enum ControlSocketLocation: Equatable, Sendable {
    /// `$XDG_RUNTIME_DIR/lectern.sock` (none without `XDG_RUNTIME_DIR`).
    case standard
    /// No control socket.
    case off
    case path(String)
}

/// What headphones plugged into the kiosk's jack do (`speech.headphones`).
public enum HeadphoneUse: String, Sendable, CaseIterable {
    /// Plugging them in starts reading aloud into them; pulling them out stops it (the default).
    case start
    /// Speech goes to them while they are in, and they let a field's value be said, but
    /// plugging them in starts nothing.
    case route
    /// The jack is not watched.
    case off
}

/// When a form field's value is said (`speech.field-values`): a passer-by may hear a speaker.
public enum SpokenFieldValues: String, Sendable, CaseIterable {
    /// Only while headphones are in (the default).
    case headphones
    case never
    case always
}
