import LecternCore

/// What the operator chose: the policy file (`PolicyFile`), then the command line on top.
///
/// The policy's settings are read and written by their names in `PolicySettings`
/// (`configuration.idleResetSeconds`, `configuration.spreadMode = .double`); the value is the
/// default until the file, the command line or code sets it.
@dynamicMemberLookup
public struct KioskConfiguration: Sendable {
    /// The document to show (with a shelf: the one open, or to open first).
    public var documentPath: String
    /// The documents on the shelf (policy `documents`, or several paths on the command line):
    /// with two or more, the home screen shows their covers and a tap opens one.
    public var shelfPaths: [String] = []
    /// The shelf's entries as `[[shelf]]` names them, with their versions per language (empty:
    /// `documents`, or one document). `shelfPaths` then holds each one's version in the policy's
    /// language.
    public var shelfEntries: [ShelfEntry] = []
    /// The shows of the opening hours' ranges by name (`[hours.show.NAME]`).
    public var hoursShows: [String: HoursShow] = [:]
    /// The policy file, followed while the app runs (nil: none; the options here stand).
    public var policyPath: String?
    /// The command line's settings by policy key: they override the file's (`PolicyFile`).
    public var overrides: [String: PolicyValue] = [:]
    /// The Wayland display to connect to (a socket name or an absolute path); nil: `$WAYLAND_DISPLAY`.
    public var displayName: String?
    /// The render worker's executable and the tests' hooks into it.
    public var renderProcess = RenderProcessPolicy()
    /// Tests: false writes speech to a WAV output as fast as espeak-ng makes it, not at the pace
    /// of playback.
    public var pacesSpeechFile = true
    /// The settings' values by key name, for those set (the others have their default).
    @usableFromInline var values: [String: any Sendable & Equatable] = [:]

    public init(documentPath: String, password: String? = nil, frameDumpPath: String? = nil) {
        self.documentPath = documentPath
        self.password = password
        self.frameDumpPath = frameDumpPath
    }

    /// The setting declared as `setting` in `PolicySettings`. Inlinable, so that a read is
    /// specialized where it is made: read on every touch and frame, a generic one asks the
    /// runtime for `PolicySetting<Value>`'s metadata each time.
    @inlinable
    public subscript<Value>(dynamicMember setting: KeyPath<PolicySettings, PolicySetting<Value>>) -> Value {
        get { self[PolicySettings.standard[keyPath: setting]] }
        set { self[PolicySettings.standard[keyPath: setting]] = newValue }
    }

    /// The value of `setting`: the one set, or its default.
    @inlinable
    subscript<Value>(setting: PolicySetting<Value>) -> Value {
        get {
            guard let value = values[setting.name] else { return setting.defaultValue }
            return value as? Value ?? setting.defaultValue
        }
        set { values[setting.name] = newValue }
    }

    /// Whether the policy lets the interaction component named `name` act (`components.NAME`).
    public func enables(_ name: String) -> Bool {
        values["components." + name] as? Bool ?? true
    }

    /// The keys of five-key navigation (`keypad.*`).
    public var keypadKeys: KeypadKeyMap {
        KeypadKeyMap(keys: [
            .previous: self.keypadPrevious, .next: self.keypadNext, .pageLeft: self.keypadPageLeft,
            .pageRight: self.keypadPageRight, .select: self.keypadSelect, .back: self.keypadBack,
            .help: self.keypadHelp,
        ])
    }

    /// What the policy lets a visitor do with annotations (`annotations.*`).
    public var annotations: AnnotationRules { AnnotationRules(configuration: self) }

    /// How the attract loop brings on a page that has no /Trans (a push comes from the right,
    /// /Di 180, as a page turned forward does).
    public var attractTransition: PageTransition {
        PageTransition(style: self.attractTransitionStyle, duration: self.attractTransitionSeconds, direction: 180)
    }

    /// Whether page turns curl: asked for, and the layout pages horizontally (in any other
    /// layout the option does nothing).
    public var curls: Bool {
        self.transition == .curl && self.scrollMode == .perSpread && self.scrollDirection == .horizontal
    }

    /// The operator's default contrast: `contrast` and `recolorsImages` together.
    public var defaultContrast: Contrast { Contrast(self.contrast, recolorsImages: self.recolorsImages) }

    /// Every setting set and the documents, one `key=value` a line in a fixed order: what a
    /// frame drawn under this configuration can depend on (the first frame's cache is kept for
    /// one fingerprint; a setting changed, even one that draws nothing, makes another).
    public var fingerprint: String {
        var lines = values.map { "\($0.key)=\(String(describing: $0.value))" }.sorted()
        lines.append("document=\(documentPath)")
        lines.append("documents=\(shelfPaths.joined(separator: "\u{0}"))")
        return lines.joined(separator: "\n")
    }

    /// Whether the home screen is the shelf.
    public var hasShelf: Bool { shelfPaths.count > 1 }

    /// The document view's configuration for a document whose PDF says `rightToLeft`.
    public func viewConfiguration(rightToLeft: Bool) -> ViewConfiguration {
        ViewConfiguration(
            spreadMode: self.spreadMode, pageBinding: self.pageBinding ?? (rightToLeft ? .rightEdge : .leftEdge),
            scrollMode: self.scrollMode, scrollDirection: self.scrollDirection,
            pageTransition: curls ? .curl : .scroll, spacing: Double(self.pageMargin),
            contentInsets: EdgeInsets(all: Double(self.pageMargin)), maximumZoomScale: self.maximumZoom,
            bounces: self.bounces)
    }
}
