import LecternCore
import LecternLinux

/// Every setting of the policy file, each declared once: its key, its default, what it takes
/// and what it means. A new key is one `let` here and the code that reads it
/// (`configuration.NAME`, or `policy.NAME` on `PolicyInForce`): `PolicyKeys` finds the `let`s
/// by reflection, and `KioskConfiguration` holds their values.
///
/// The keys that set more than one thing (`document`, `documents`) and the `components.*` are
/// rows of `PolicyKeys`.
public struct PolicySettings: Sendable {
    /// The declarations (read by `KioskConfiguration`'s members).
    public static let standard = PolicySettings()

    public init() {}

    /// The password for an encrypted document, if any.
    public let password = PolicySetting.optionalString("password")
    /// Where to write a PNG of every committed frame (rate-limited) and of the last one on exit.
    public let frameDumpPath = PolicySetting.optionalString("frame-dump", isPath: true)
    /// The tile cache's budget in bytes; nil means about three screens.
    public let cacheBudget = PolicySetting<Int?>.integer("cache-mb", default: nil, in: 1...4096) { $0 << 20 }

    // MARK: render

    /// Whether tiles and page text come from the render worker process: yes unless
    /// `--render-process off` or the policy's `render.process = "off"` (in code as in the binary).
    public let usesRenderProcess = PolicySetting.choice("render.process", default: true, ["on": true, "off": false])
    /// Seconds a request may take in the worker before it is killed and the page shows as
    /// undrawable (`--render-deadline`).
    public let renderDeadline = PolicySetting.number("render.deadline", default: 4.0, in: 0.1...600)
    /// `render.pans = "subsurface"`: the pages on a subsurface that a pan moves with `wp_viewporter`
    /// (where the compositor offers it; read at start). Off by default: wlroots 0.15's pixman
    /// renderer (sway 1.7 with `WLR_RENDERER=pixman`) shows such a surface's buffer from its top
    /// left corner, not the viewport's source, so the pages land in the wrong place.
    public let pansOnSubsurface = PolicySetting.choice(
        "render.pans", default: false, ["whole-frames": false, "subsurface": true])
    /// The worker's address space limit (RLIMIT_AS) in bytes: above MuPDF's own cap (384 MiB),
    /// its threads' stacks and heaps, and the tile buffers.
    public let renderAddressSpace = PolicySetting.integer(
        "render.address-space-mb", default: 2048 << 20, in: 256...1_048_576
    ) { $0 << 20 }
    /// The document audit run in a worker of its own whenever a document opens or is reloaded:
    /// a page drawn slower than this many milliseconds at the screen's size is slow (its pixels
    /// are kept, so a visitor never waits for it).
    public let auditBudgetMilliseconds = PolicySetting.integer("render.audit-budget-ms", default: 250, in: 1...60_000)
    /// The most pages that audit looks at, spread evenly (0: no audit).
    public let auditPages = PolicySetting.integer("render.audit-pages", default: 500, in: 0...1_000_000)

    // MARK: layout and start

    /// How pages are grouped into spreads.
    public let spreadMode = PolicySetting.choice("layout.spreads", default: SpreadMode.single)
    /// Continuous scrolling or one spread at a time.
    public let scrollMode = PolicySetting.choice(
        "layout.scroll", default: ViewConfiguration.ScrollMode.perSpread,
        ["per-spread": .perSpread, "continuous": .continuous])
    /// The scroll direction.
    public let scrollDirection = PolicySetting.choice("layout.direction", default: Axis.horizontal)
    /// The binding edge; nil reads it from the PDF (/ViewerPreferences /Direction).
    public let pageBinding = PolicySetting.choice(
        "layout.binding", default: PageBinding?.none, ["auto": nil, "left": .leftEdge, "right": .rightEdge])
    /// Margin around the pages, in surface pixels.
    public let pageMargin = PolicySetting.integer("layout.margin", default: 12, in: 0...200)
    /// Whether a page pulled past its edge follows the finger and springs back (false: it stops
    /// at the edge).
    public let bounces = PolicySetting.boolean("layout.bounce", default: true)
    /// The name of a layout an integrator registered with `KioskApp.register(_:)` (none: the
    /// built-in layout the other `layout.*` keys describe).
    public let customLayout = PolicySetting.optionalString("layout.custom")
    /// The page shown first (0-based; the file counts from 1).
    public let startPage = PolicySetting.integer("start.page", default: 0, in: 1...Int(Int32.max)) { $0 - 1 }

    // MARK: the operator's panel

    /// The keys that open the operator's panel (the document's facts, and its binding changed
    /// and saved): none by default.
    public let operatorPanelKeys = PolicySetting<[Key]>.keys("operator.panel-keys", default: [])
    /// How many taps in a row (each within 0.6 s of the last) in the top left corner open the
    /// operator's panel (0: none, the default).
    public let operatorPanelTaps = PolicySetting.integer("operator.panel-taps", default: 0, in: 0...20)

    // MARK: what a visitor sees and may do

    /// When the title bar and page scrubber show.
    public let chrome = PolicySetting.choice("chrome.show", default: ChromeMode.onTap)
    /// Whether the accessibility button shows (bottom left: read aloud, contrast, large print, more
    /// time).
    public let accessibilityButton = PolicySetting.boolean("accessibility.button", default: true)
    /// The contrast a visitor starts in, and gets back at the idle reset (`--contrast`).
    public let contrast = PolicySetting.choice("accessibility.contrast", default: Contrast.Mode.normal)
    /// Whether a contrast other than normal recolours the pages' images too (else they keep
    /// their own colours).
    public let recolorsImages = PolicySetting.boolean("accessibility.recolor-images", default: false)
    /// Whether a visitor starts in large print (the page's text reflowed in one column, at a size
    /// read from the viewing distance), and gets it back at the idle reset (`--large-print`).
    public let largePrint = PolicySetting.boolean("accessibility.large-print", default: false)
    /// What the accessibility panel offers, in its order (Close is always last): read-aloud,
    /// contrast, large-print (with text-size: its Text size + and −), lower, more-time.
    public let accessibilityPanelItems = PolicySetting<[String]>.names(
        "accessibility.panel", default: ["read-aloud", "contrast", "large-print", "text-size", "lower", "more-time"],
        allowed: ["read-aloud", "contrast", "large-print", "text-size", "lower", "more-time"])
    /// The chrome's language at start and after the idle reset: a code of `Language.shipped`
    /// (`--language`).
    public let language = PolicySetting.choice(
        "language", default: Language.english.code,
        Dictionary(uniqueKeysWithValues: Language.shipped.map { ($0.code, $0.code) }))
    /// The languages a visitor may switch to with the title bar's language button, in its order
    /// (fewer than two: no button).
    public let languages = PolicySetting<[String]>.names(
        "languages", default: [], allowed: Language.shipped.map(\.code))
    /// The presenter mirror on a second output.
    public let mirror = PolicySetting.choice("mirror", default: MirrorMode.auto)
    /// The largest zoom scale pinch and double tap reach (1: no zoom).
    public let maximumZoom = PolicySetting.number("zoom.max", default: 8.0, in: 1...64)
    /// A double tap zooms (`smartZoom`).
    public let doubleTapZoom = PolicySetting.boolean("zoom.double-tap", default: true)
    /// The type size a reflowable book (EPUB, FB2, XHTML) is laid out at, in percent of the book's
    /// own (MuPDF's 12-point em): its pages are the screen's size, its text breaks into as many as
    /// it takes (`--font-size`). PDFs, comics and images keep their pages.
    public let fontSizePercent = PolicySetting.integer("text.font-size", default: 100, in: 50...400)
    /// The width of each page-turn tap zone at the screen's sides, as a fraction of its width.
    public let edgeWidth = PolicySetting.number("page-turn.edge-width", default: 0.2, in: 0...0.5)
    /// How a page turn looks in horizontal per-spread paging.
    public let transition = PolicySetting.choice("page-turn.transition", default: PageTurnTransition.slide)
    /// What a tap on a link does.
    public let links = PolicySetting.choice("links.follow", default: LinkMode.qr)
    /// Glob patterns (fnmatch) of the web links `allow-list` shows.
    public let allowedLinks = PolicySetting.strings("links.allow", default: [])

    // MARK: the screen, for sizes in millimetres (`PhysicalScreen`)

    /// The screen's width in millimetres (0: as the compositor reports it).
    public let screenWidthMillimetres = PolicySetting.integer("screen.width-mm", default: 0, in: 0...10_000)
    /// The screen's height in millimetres (0: as the compositor reports it).
    public let screenHeightMillimetres = PolicySetting.integer("screen.height-mm", default: 0, in: 0...10_000)
    /// How far a visitor's eyes are from the screen, in millimetres: chrome text is sized to be
    /// read from there (EN 301 549 5.1.4).
    public let viewingDistanceMillimetres = PolicySetting.integer(
        "screen.viewing-distance-mm", default: 600, in: 100...10_000)
    /// How high above the floor the screen's bottom edge is, in millimetres (0: not known): the
    /// essential controls are placed within reach, 380 to 1220 mm above the floor (`Reach`).
    public let mountBottomMillimetres = PolicySetting.integer("mount.bottom-mm", default: 0, in: 0...5_000)

    // MARK: speech

    /// Whether a visitor can have the document read aloud (started with F1 or Help, or
    /// `lectern ctl speech start`).
    public let speechEnabled = PolicySetting.boolean("speech.enabled", default: true)
    /// Where speech goes: an ALSA device ("default", "hw:1,0"), or a path ending in `.wav`, which
    /// every sentence spoken is appended to (for tests, and for an operator to hear what a visitor
    /// hears; `--speech-output`).
    public let speechOutput = PolicySetting.string("speech.output", default: "default")
    /// The voice's language when the document names none (its /Lang): an espeak-ng language such
    /// as "en", "en-us", "de", "he". When the document's language is this one's first part
    /// ("en" for "en-us"), this one is used: the operator's regional voice.
    public let speechLanguage = PolicySetting.string("speech.language", default: "en")
    /// Words per minute (espeak-ng: 80 to 450).
    public let speechRate = PolicySetting.integer("speech.rate", default: 175, in: 80...450)
    /// Volume in percent of espeak-ng's normal (0 to 200).
    public let speechVolume = PolicySetting.integer("speech.volume", default: 100, in: 0...200)
    /// The keys that start reading aloud at once (and, while it reads, say where the visitor is).
    public let speechStartKeys = PolicySetting<[Key]>.keys("speech.start-keys", default: ["F1", "Help"])
    /// The keys that start reading aloud when held down for `speechHoldSeconds` (the keypad's 5,
    /// which pressed briefly selects: a visitor who cannot see finds it by its raised dot).
    public let speechHoldKeys = PolicySetting<[Key]>.keys("speech.hold-keys", default: ["KP_5"])
    /// The keys that say the last sentence again (the keypad's decimal key, with Num Lock on or off).
    public let speechRepeatKeys = PolicySetting<[Key]>.keys("speech.repeat-keys", default: ["KP_Decimal", "KP_Delete"])
    /// How long a hold key is held to start speech, in seconds.
    public let speechHoldSeconds = PolicySetting.number("speech.hold-seconds", default: 1, in: 0.3...5)
    /// What headphones plugged into the jack do (`HeadphoneUse`).
    public let speechHeadphones = PolicySetting.choice("speech.headphones", default: HeadphoneUse.start)
    /// The ALSA device speech goes to while headphones are in ("": `speech.output`, for a sound card
    /// that mutes its speaker itself when a jack is in, as most do).
    public let speechHeadphoneOutput = PolicySetting.string("speech.headphone-output", default: "")
    /// When a form field's value is said (`SpokenFieldValues`).
    public let speechFieldValues = PolicySetting.choice("speech.field-values", default: SpokenFieldValues.headphones)

    // MARK: idle, QR codes, attract loop, reload

    /// Seconds without input after which the reader goes back to `startPage`, zoomed out
    /// (0: never).
    public let idleResetSeconds = PolicySetting.integer("idle.reset", default: 120, in: 0...86_400)
    /// Seconds of notice before the idle reset, counted down on screen with a "More time" button
    /// (0: none). WCAG 2.2.1 asks for at least 20 s to extend a time limit.
    public let idleCountdownSeconds = PolicySetting.integer("idle.countdown", default: 20, in: 0...600)
    /// A sound when the countdown starts (two short tones, through the speech output), for a
    /// visitor who is not looking at the screen.
    public let idleCue = PolicySetting.boolean("idle.cue", default: true)
    /// How many times longer the idle reset waits in accessibility mode (a visitor asked for more
    /// time, or chose another accessibility setting), until the reset.
    public let accessibilityIdleFactor = PolicySetting.integer("accessibility.idle-factor", default: 10, in: 1...100)
    /// The countdown's text; `{seconds}` becomes the seconds left.
    public let idleNotice = PolicySetting.string(
        "idle.notice", default: "Returning to the start in {seconds} s — touch to stay")
    /// Seconds a web link's QR code stays on screen (a touch hides it sooner).
    public let qrSeconds = PolicySetting.integer("qr.seconds", default: 30, in: 1...3600)
    /// Seconds after the idle reset before pages advance by themselves (0: no attract loop).
    public let attractAfterSeconds = PolicySetting.integer("attract.after", default: 0, in: 0...86_400)
    /// Seconds per page in the attract loop when the page has no /Dur.
    public let attractPageSeconds = PolicySetting.number("attract.interval", default: 8.0, in: 1...3600)
    /// How the attract loop brings on a page that has no /Trans (`attractTransition`).
    public let attractTransitionStyle = PolicySetting.choice(
        "attract.transition", default: PageTransition.Style.fade, ["fade": .fade, "push": .push, "none": .replace])
    /// How long that transition takes, in seconds.
    public let attractTransitionSeconds = PolicySetting.number("attract.transition-seconds", default: 1, in: 0.1...10)
    /// Follow the documents' files and show a new version when one is replaced.
    public let reloadsDocuments = PolicySetting.boolean("reload.documents", default: true)

    // MARK: opening hours (`OpeningHours`; the shows, `[hours.show.NAME]`, are rows of `PolicyKeys`)

    /// Monday's opening ranges ("08:00-18:00", or "08:00-11:30 NAME" to open with the show
    /// `[hours.show.NAME]`); a range at or past midnight ("22:00-02:00") ends the next day.
    /// No range on any day and no closed date: always open.
    public let hoursMonday = PolicySetting.ranges("hours.mon")
    /// Tuesday's.
    public let hoursTuesday = PolicySetting.ranges("hours.tue")
    /// Wednesday's.
    public let hoursWednesday = PolicySetting.ranges("hours.wed")
    /// Thursday's.
    public let hoursThursday = PolicySetting.ranges("hours.thu")
    /// Friday's.
    public let hoursFriday = PolicySetting.ranges("hours.fri")
    /// Saturday's.
    public let hoursSaturday = PolicySetting.ranges("hours.sat")
    /// Sunday's.
    public let hoursSunday = PolicySetting.ranges("hours.sun")
    /// Dates the ranges starting on them do not open ("2026-12-25").
    public let hoursClosed = PolicySetting.dates("hours.closed")
    /// What a touch does while closed (`HoursWake`).
    public let hoursWake = PolicySetting.choice("hours.wake", default: HoursWake.off)
    /// The backlight turned off while closed: a directory of /sys/class/backlight, or "auto" for
    /// the first there (nil: the screen stays lit, black).
    public let hoursBacklight = PolicySetting.optionalString("hours.backlight")

    // MARK: keypad: five-key navigation (`KeypadKeyMap`)

    /// The keys that move the focus to the previous item.
    public let keypadPrevious = PolicySetting<[Key]>.keys("keypad.previous", default: ["KP_8", "Up"])
    /// To the next item.
    public let keypadNext = PolicySetting<[Key]>.keys("keypad.next", default: ["KP_2", "Down"])
    /// Turn to the spread on the left.
    public let keypadPageLeft = PolicySetting<[Key]>.keys("keypad.page-left", default: ["KP_4", "Left"])
    /// Turn to the spread on the right.
    public let keypadPageRight = PolicySetting<[Key]>.keys("keypad.page-right", default: ["KP_6", "Right"])
    /// Activate the focused item.
    public let keypadSelect = PolicySetting<[Key]>.keys("keypad.select", default: ["KP_5", "Return"])
    /// Go up a level.
    public let keypadBack = PolicySetting<[Key]>.keys("keypad.back", default: ["KP_0", "Escape"])
    /// Say where the focus is and what the keys do.
    public let keypadHelp = PolicySetting<[Key]>.keys(
        "keypad.help", default: ["asterisk", "KP_Multiply"])
    /// Speech louder, by a tenth of its range.
    public let keypadLouder = PolicySetting<[Key]>.keys("keypad.louder", default: ["XF86AudioRaiseVolume"])
    /// Speech softer, by a tenth of its range.
    public let keypadSofter = PolicySetting<[Key]>.keys("keypad.softer", default: ["XF86AudioLowerVolume"])

    // MARK: operations: state, control socket, metrics

    /// Write the view state (`ViewStateStore`) and restore it at start.
    public let persistsState = PolicySetting.boolean("state.persist", default: true)
    /// Where the control socket listens ("" turns it off).
    public let controlSocket = PolicySetting.string(
        "control.socket", default: ControlSocketLocation.standard, isPath: true
    ) {
        .success($0.isEmpty ? .off : .path($0))
    }
    /// A group whose members may use the control socket besides the kiosk's own user and root
    /// (the socket is then mode 0660 and owned by that group).
    public let controlGroup = PolicySetting.string("control.group", default: String?.none) { name in
        guard name.isEmpty || groupID(named: name) != nil else { return .failure(.init("no such group: \(name)")) }
        return .success(name.isEmpty ? nil : name)
    }
    /// A directory whose PDFs `open` may show (besides the policy's document).
    public let openDirectory = PolicySetting.optionalString("control.documents", isPath: true)
    /// The directory `screenshot` writes into (nil: the control socket's directory).
    public let screenshotDirectory = PolicySetting.optionalString("control.screenshots", isPath: true)
    /// The Prometheus text file the metrics are written to every 15 s (`KioskMetrics`; nil: none).
    public let metricsTextfile = PolicySetting.optionalString("metrics.textfile", isPath: true)

    // MARK: pulled over HTTP (`kiosk/lectern-pull` reads these; Lectern only checks them)

    /// The manifest `lectern-pull` fetches (JSON: the files, each with its URL, sha256 and size,
    /// and optionally this policy); nil: nothing is pulled. Plain http only with `pull.signature-key`.
    public let pullManifest = PolicySetting.string("pull.manifest", default: String?.none) { url in
        guard url.isEmpty || url.hasPrefix("https://") || url.hasPrefix("http://") else {
            return .failure(.init("needs an https:// (or http://) URL, not \"\(url)\""))
        }
        return .success(url.isEmpty ? nil : url)
    }
    /// The directory the manifest's files go in (their paths are relative to it).
    public let pullDirectory = PolicySetting.optionalString("pull.directory", isPath: true)
    /// A PEM file of the certificates trusted for the manifest's server instead of the system's
    /// (a self-signed server's own certificate, or a private CA's).
    public let pullCAFile = PolicySetting.optionalString("pull.ca-file", isPath: true)
    /// The server's public key pinned (curl `--pinnedpubkey`): `sha256//` and the base64 of the
    /// key's SHA-256, several separated by `;`.
    public let pullPinnedKey = PolicySetting.string("pull.pinned-key", default: String?.none) { pins in
        let parts = pins.split(separator: ";", omittingEmptySubsequences: false)
        guard pins.isEmpty || parts.allSatisfy({ $0.hasPrefix("sha256//") && $0.count == 52 }) else {
            return .failure(.init("needs sha256// and 44 characters of base64 (several separated by ;)"))
        }
        return .success(pins.isEmpty ? nil : pins)
    }
    /// A minisign public key: the manifest must come with a valid signature by it
    /// (`MANIFEST.minisig`), or nothing is installed.
    public let pullSignatureKey = PolicySetting.optionalString("pull.signature-key", isPath: true)

    // MARK: annotations (`AnnotationRules`)

    /// The kinds a tap selects (to read them). Default: every kind.
    public let selectableAnnotations = PolicySetting.kinds("annotations.select", default: ["*"])
    /// The kinds a drag moves and resizes. Default: none.
    public let movableAnnotations = PolicySetting.kinds("annotations.move", default: [])
    /// The kinds a tap edits (form fields; a double tap for free text and notes). Default: form fields.
    public let editableAnnotations = PolicySetting.kinds("annotations.edit", default: ["form"])
    /// Authors (/T) whose annotations take no touch at all.
    public let excludedAnnotationAuthors = PolicySetting.strings("annotations.exclude-authors", default: [])
    /// Locked annotations take no touch at all (they are never moved in any case).
    public let ignoresLockedAnnotations = PolicySetting.boolean("annotations.ignore-locked", default: false)
    /// What the edits of a visit become.
    public let annotationSave = PolicySetting.choice("annotations.save", default: AnnotationRules.SaveMode.discard)
    /// Where `copy` writes (nil: `copy` cannot save, and says so).
    public let annotationSaveDirectory = PolicySetting.optionalString("annotations.save-directory", isPath: true)
}
