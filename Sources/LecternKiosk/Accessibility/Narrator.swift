import LecternCore
import LecternDocuments
import LecternLinux
import LecternPDF
import LecternPolicy
import LecternRender
import LecternSpeech
import Logging

/// Reads the document aloud for a visitor who cannot see the screen: F1 or Help (or
/// `lectern ctl speech start`) starts it with a sentence of orientation, then reads the page in
/// reading order (`ReadingOrder`: columns whole; a tagged page's figures by their /Alt where
/// they fall and its /ActualText in place of the glyphs, `PageFigures`), sentence by sentence,
/// highlighting the one
/// being spoken and turning to the next page when the page is read. A page turned by the
/// visitor is read from its top. Space pauses and resumes, F1 again says where you are and
/// goes on, Escape stops. The voice follows the document's /Lang, else the policy's language;
/// the idle reset stops it and puts the voice back to the operator's (`resetToDefaults()`).
///
/// The speech process (LecternSpeech) starts at the first use; a crash there never takes the
/// reader down: it is restarted, and the sentence it was saying is said again.
final class Narrator {
    let policy: PolicyInForce
    let current: CurrentReader
    let frame: FrameRequest
    let accessibility: VisitorAccessibility
    let loop: EventLoop
    let logger: Logger
    /// The `lectern` executable the speech process runs (nil: this process's own).
    private let executable: String?
    /// Test hook: false writes a WAV output as fast as espeak-ng makes it, not at the pace of playback.
    let pacesFile: Bool
    /// The speech process's client, once speech was first started.
    private(set) var client: SpeechClient?

    /// One thing said: a sentence of a page (with the lines it is on), or a sentence of the kiosk's.
    struct Utterance {
        var text: String
        var page: Int?
        var lines: [Rect] = []
        /// The language it is said in when not the voice's (a tagged element's own /Lang).
        var language: String?
    }

    /// Speech is on: the document is being read (or waits for a page's text).
    private(set) var isActive = false
    /// The page being read.
    private(set) var page: Int?
    /// The page whose text is awaited before reading it (read after the page is shown).
    private var awaitedPage: Int?
    /// What to say before the awaited page's text (the orientation, or "Page 3 of 8.").
    private var preamble: [String] = []
    /// What was said or is being said, by the id the speech process reports.
    private var utterances: [Int: Utterance] = [:]
    /// The ids of the page's sentences in order (the last one ends the page).
    var pageSentences: [Int] = []
    private var nextID = 1
    /// The sentence being spoken.
    private(set) var sentence: Int?
    /// What is said is the keypad focus's, not a page being read: no next page after it.
    private(set) var isAnnouncing = false
    /// The document shown or being opened (its failure is said), and the opening whose
    /// failure was said.
    weak var document: (any DocumentOnScreen)?
    /// Whether the shelf covers the document (its failure is not on screen then).
    var isShelfShown: () -> Bool = { false }
    private var failureSaid: Int?
    /// The hold key down now (`speech.hold-keys`), when it went down, and whether holding it
    /// started speech yet.
    var held: (key: Key, since: Double, hasStarted: Bool)?
    /// The headphone jack (nil: none is watched): headphones in start reading into them, and
    /// let a field's value be said.
    var headphones: (any HeadphoneDetector)? {
        didSet { headphones?.onChange = { [unowned self] in headphonesChanged(areIn: $0) } }
    }

    init(
        policy: PolicyInForce, current: CurrentReader, frame: FrameRequest, accessibility: VisitorAccessibility,
        executable: String?, pacesFile: Bool, loop: EventLoop, logger: Logger
    ) {
        self.policy = policy
        self.current = current
        self.frame = frame
        self.accessibility = accessibility
        self.executable = executable
        self.pacesFile = pacesFile
        self.loop = loop
        self.logger = logger
    }

    /// Ends the speech process (teardown).
    func close() {
        client?.close()
        client = nil
    }

    // MARK: What a visitor (or an operator) asks

    /// Starts reading the page on screen, after a sentence of orientation; false when the policy
    /// has speech off or nothing is open.
    @discardableResult
    func start() -> Bool {
        guard policy.speechEnabled, let reader = current.reader else { return false }
        turnOn(language: reader.document.summary.language)
        let page = reader.view.dominantPage()
        let title = reader.document.title ?? fileName(reader.document.path)
        // The damaged file's banner is said too: the screen shows it.
        let damaged = reader.document.wasRepaired ? [tr("This file is damaged: what could be recovered is read.")] : []
        read(
            page: page,
            after: ["\(title)."] + damaged + [
                tr("Page %s of %s.", page + 1, reader.view.pages.count), tr("Press F1 for help."),
            ])
        logger.info("speech started on page \(page + 1)")
        return true
    }

    /// Stops speaking and reading.
    func stop() {
        guard isActive else { return }
        client?.stop()
        isActive = false
        isAnnouncing = false
        accessibility.isListening = false
        page = nil
        awaitedPage = nil
        sentence = nil
        frame.request()
        logger.info("speech stopped")
    }

    /// Stops what is being said at once (a keypad key moved the focus: `KeypadFocus`).
    func interrupt() {
        client?.stop()
    }

    /// Says `text` now, instead of reading the page: what the keypad focus moved to, or where
    /// the visitor is (`KeypadFocus`). Speech is on from then (accessibility mode) until Escape
    /// or the idle reset; F1 reads the page from the top again. Nothing when the policy has
    /// speech off.
    func announce(_ text: String) {
        guard policy.speechEnabled else { return }
        // (No reader on the shelf, or when the document cannot be shown: the policy's voice.)
        turnOn(language: current.reader?.document.summary.language)
        // Not reading a page: a page turned by the keypad is the focus's to announce.
        page = current.reader?.view.dominantPage()
        awaitedPage = nil
        preamble = []
        utterances = [:]
        pageSentences = register([chromeSentence(text)])
        isAnnouncing = true
        say(pageSentences)
    }

    /// Says `text` if speech is on (the idle countdown); nothing otherwise.
    func sayIfOn(_ text: String) {
        guard isActive else { return }
        announce(text)
    }

    /// Plays the idle countdown's cue (after the sentence being said, if one is), starting the
    /// speech process if it is not running.
    func cue() {
        startedClient().cue()
    }

    /// Whether a sentence is being spoken now.
    var isSpeaking: Bool { isActive && client?.state.isSpeaking == true }

    /// The idle reset: silence, and the operator's voice, rate and volume.
    func resetToDefaults() {
        stop()
        client?.resetToDefaults()
    }

    /// A sentence of the chrome's (not the document's), in the chrome's language: said in that
    /// language's voice (`Utterance.language`) when it is not the policy's speech language (a
    /// visitor chose another); in the policy's language, in the voice in force, as the page.
    private func chromeSentence(_ text: String) -> Utterance {
        let chrome = Translation.language.code
        let speaksIt = policy.speechLanguage.split(separator: "-").first.map { $0.lowercased() == chrome } ?? false
        return Utterance(text: text, page: nil, language: speaksIt ? nil : chrome)
    }

    /// The voice: the policy's language when it refines the document's ("en-us" for "en"), the
    /// document's when it has one, else the policy's.
    static func voice(document: String?, policy: String) -> String {
        guard let document, !document.isEmpty else { return policy }
        let primary = policy.split(separator: "-").first.map(String.init) ?? policy
        return primary.lowercased() == document.lowercased() ? policy : document
    }

    /// What speech is doing, for `KioskStatus`.
    var status: KioskStatus.Speech {
        let state = client?.state
        return KioskStatus.Speech(
            isOn: isActive, page: page, sentence: sentence.flatMap { utterances[$0]?.text },
            queue: pageSentences.compactMap { utterances[$0]?.text },
            isSpeaking: state?.isSpeaking ?? false, isPaused: state?.isPaused ?? false, voice: state?.voice?.identifier,
            pid: state?.pid,
            restarts: state?.restarts ?? 0, outputFailure: state?.outputFailure,
            volume: client?.settings.volume ?? policy.speechVolume, headphonesIn: areHeadphonesIn,
            output: client.map { Self.describe($0.settings.output) },
            audioAfterLastStop: state.flatMap { state in
                state.lastSamplesAfterStop.flatMap { samples in state.sampleRate.map { Double(samples) / Double($0) } }
            })
    }

    // MARK: Following the reader

    /// Called before each frame: reads a page the visitor turned to, and the awaited page once
    /// its text has come.
    func update() {
        guard isActive else { return }
        // A document that cannot be shown: its card's sentence is said, once per document.
        if let document, case .failed(let failure) = document.phase, failureSaid != document.documentsOpened,
            !isShelfShown()
        {
            failureSaid = document.documentsOpened
            return announce(failure.onScreen)
        }
        guard let reader = current.reader else { return }
        let shown = reader.view.dominantPage()
        let spreads = reader.view.spreads
        let isOnScreen = page.map { spreads.spreadIndex(forPage: $0) == spreads.spreadIndex(forPage: shown) } ?? false
        if isAnnouncing {
            page = shown  // the keypad focus says where a turn went
            return
        }
        if !isOnScreen, !reader.view.isAnimating {
            read(page: shown, after: [tr("Page %s of %s.", shown + 1, reader.view.pages.count)])
            return
        }
        if let awaitedPage, let text = reader.pageText[awaitedPage] {
            speak(page: awaitedPage, text: text, reader: reader)
        }
    }

    /// The sentence being spoken, highlighted on the pages of `plan`.
    /// The page's sentence being said, and its page (nil: none, or words of the kiosk's own).
    var spokenSentence: (page: Int, text: String)? {
        guard isActive, let sentence, let spoken = utterances[sentence], let page = spoken.page else { return nil }
        return (page, spoken.text)
    }

    func highlights(in plan: TilePlanner.Plan, reader: Reader) -> [Scene.Highlight] {
        guard isActive, let sentence, let spoken = utterances[sentence], let page = spoken.page else { return [] }
        return plan.pages.filter { $0.page == page }.flatMap { item in
            let toView = reader.pageToPixels(item)
            let clip = item.frame.intersection(item.clip)
            return spoken.lines.map { line in
                Scene.Highlight(
                    box: PixelBox(enclosing: toView.apply(to: line)).insetBy(dx: -3, dy: -2), clip: clip,
                    isCurrent: true)
            }
        }
    }

    // MARK: Reading

    /// Reads `page` after saying `preamble`, once its text is there.
    private func read(page: Int, after preamble: [String]) {
        isAnnouncing = false
        self.page = page
        self.preamble = preamble
        awaitedPage = page
        sentence = nil
        guard let reader = current.reader else { return }
        if let text = reader.pageText[page] {
            speak(page: page, text: text, reader: reader)
        } else {
            client?.stop()  // nothing from the page before
            frame.request()
        }
    }

    private func speak(page: Int, text: PageText, reader: Reader) {
        awaitedPage = nil
        // A document whose catalog names no language: its structure tree's outermost /Lang on
        // the page, if it has one; a sentence in an element of another /Lang is said in that
        // language's voice (`Self.language(of:in:voice:)`).
        var voice = reader.document.summary.language ?? policy.speechLanguage
        if reader.document.summary.language == nil,
            let language = text.tagged.filter({ $0.language != nil }).min(by: { $0.depth < $1.depth })?.language
        {
            voice = language
            client?.setLanguage(Self.voice(document: language, policy: policy.speechLanguage))
        }
        let order = reader.readingOrder(of: page)
        let blocks = ReadingOrder.blocks(
            of: text.spokenCharacters, toDisplay: order.toDisplay, rightToLeft: order.rightToLeft)
        var said = preamble.map(chromeSentence)
        // The paragraphs, and a tagged page's figures where they fall among them.
        var paragraphs = blocks.makeIterator()
        let items = PageFigures.items(
            onPage: page, text: text, blocks: blocks, extras: [], toDisplay: order.toDisplay)
        for item in items {
            guard item.kind == .text, let block = paragraphs.next() else {
                said.append(Utterance(text: item.label, page: page, lines: item.rect == .zero ? [] : [item.rect]))
                continue
            }
            said += block.sentencesWithLines.map {
                Utterance(
                    text: $0.text, page: page, lines: $0.lines,
                    language: Self.language(of: $0.lines, in: text.tagged, voice: voice))
            }
        }
        if items.isEmpty { said.append(chromeSentence(tr("This page has no text to read."))) }
        if page == reader.view.pages.count - 1 { said.append(chromeSentence(tr("End of the document."))) }
        preamble = []
        utterances = [:]
        pageSentences = register(said)
        say(pageSentences)
    }

    /// F1 while reading: where you are, then the rest of the page from the sentence it cut.
    func sayWhereYouAre() {
        guard let reader = current.reader, let page else { return }
        let rest = pageSentences.drop { $0 != sentence }
        let help = [
            tr("Page %s of %s.", page + 1, reader.view.pages.count), tr("Left and right arrows turn pages."),
            tr("Space pauses."), tr("Escape stops."), tr("The key with the dot says a sentence again."),
            tr("The volume keys make me louder or softer."),
        ]
        pageSentences =
            register(help.map(chromeSentence)) + (rest.isEmpty ? pageSentences : Array(rest))
        say(pageSentences)
    }

    /// Speech on for `reader`'s document: the process started at the first use, the voice of its
    /// language, accessibility mode.
    private func turnOn(language: String?) {
        let client = startedClient()
        client.setLanguage(Self.voice(document: language, policy: policy.speechLanguage))
        isActive = true
        accessibility.isListening = true
    }

    /// Gives each of `said` the next id; returns the ids, in order.
    private func register(_ said: [Utterance]) -> [Int] {
        said.map { utterance in
            defer { nextID += 1 }
            utterances[nextID] = utterance
            return nextID
        }
    }

    /// Asks the speech process to say the utterances `ids`, in order, instead of what it says.
    func say(_ ids: some Sequence<Int>) {
        client?.speak(
            ids.compactMap { id in
                utterances[id].map { SpeechSentence(id: id, text: $0.text, language: $0.language) }
            })
    }

    /// The /Lang of the deepest tagged element that draws the sentence on `lines` (the middle of
    /// a glyph of it on one of them), when its language is not the voice's (`voice`: "fr-FR"
    /// differs from "en", "en-GB" does not); nil otherwise.
    static func language(of lines: [Rect], in elements: [TaggedElement], voice: String) -> String? {
        func primary(_ code: String) -> String { code.split(separator: "-").first.map { $0.lowercased() } ?? "" }
        let drawing = elements.filter { element in
            element.kind == .other && element.language != nil
                && element.glyphs.contains { glyph in lines.contains { $0.contains(glyph.center) } }
        }
        guard let language = drawing.max(by: { $0.depth < $1.depth })?.language,
            primary(language) != primary(voice)
        else { return nil }
        return language
    }

    /// The speech process's client, started at the first use.
    func startedClient() -> SpeechClient {
        client ?? makeClient()
    }

    private func makeClient() -> SpeechClient {
        var settings = SpeechClient.Settings()
        if let executable { settings.executable = executable }
        settings.output = output
        settings.language = policy.speechLanguage
        settings.rate = policy.speechRate
        settings.volume = policy.speechVolume
        let client = SpeechClient(settings: settings, loop: loop, logger: logger)
        client.onEvent = { [unowned self] event in heard(event) }
        self.client = client
        return client
    }

    private func heard(_ event: SpeechClient.Event) {
        switch event {
        case .started(let id):
            sentence = id
            frame.request()
        case .finished(let id):
            if id == pageSentences.last, isActive, !isAnnouncing { pageRead() }
        case .restarted(_, let interrupted?) where isActive:
            // The speech process died mid-sentence: say it again, and the rest of the page.
            say(pageSentences.drop { $0 != interrupted })
        case .outputFailed(let reason):
            logger.error("speech cannot be heard: \(reason)")
        case .noVoice(let language):
            logger.warning("no voice for \(language): speech keeps the one it had")
        default:
            break
        }
    }

    /// The page is read: on to the next one (turned to, then read when its text is there).
    private func pageRead() {
        sentence = nil
        guard let reader = current.reader, let page, page + 1 < reader.view.pages.count else {
            frame.request()
            return
        }
        let next = page + 1
        self.page = next
        preamble = [tr("Page %s.", next + 1)]
        awaitedPage = next
        try? reader.view.goToPage(next)
        frame.request()
    }
}
