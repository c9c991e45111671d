import LecternCore
import LecternRender
import Logging

/// The language the chrome speaks: the policy's `language` at start and after the idle reset,
/// or the one a visitor chose with the title bar's language button among the policy's
/// `languages`. It is `Translation.language` (what `tr` looks up in), set here only; a change
/// redraws the chrome and the keyboard, and tells those that follow it (`onChange`: the
/// narrator's voice, the shelf's version of the document in that language).
final class ChromeLanguage {
    private let policy: PolicyInForce
    private let frame: FrameRequest
    private let logger: Logger
    /// The language in force.
    private(set) var current: Language
    /// Told each change, with the language before it.
    private var observers: [(_ old: Language) -> Void] = []
    /// `Translation.language` before this one set it: the language is the loop's thread's, and
    /// a kiosk run on a thread that goes on (a test's) gives it back at `close()`.
    private let languageBefore: Language

    init(policy: PolicyInForce, frame: FrameRequest, logger: Logger) {
        self.policy = policy
        self.frame = frame
        self.logger = logger
        current = Self.language(policy.language)
        languageBefore = Translation.language
        Translation.language = current
        policy.observe { [unowned self] old, new in
            // A new default applies at once while the visitor has not chosen another.
            if new.language != old.language, current == Self.language(old.language) {
                choose(Self.language(new.language))
            }
        }
    }

    /// The policy's default language.
    var defaultLanguage: Language { Self.language(policy.language) }

    /// The languages the button offers, in the policy's order (fewer than two: no button).
    var choices: [Language] { policy.languages.compactMap(Language.named) }

    /// What the language button says: the language a tap switches to, in its own name.
    var buttonLabel: String? {
        let choices = choices
        guard choices.count > 1 else { return nil }
        return next(in: choices).name
    }

    /// Tells `observer` of each change, with the language before it.
    func observe(_ observer: @escaping (_ old: Language) -> Void) { observers.append(observer) }

    /// The language button: the next of the policy's languages.
    func switchToNext() {
        let choices = choices
        guard choices.count > 1 else { return }
        choose(next(in: choices))
    }

    /// The chrome in `language` from the next frame on.
    func choose(_ language: Language) {
        guard language != current else { return }
        let old = current
        current = language
        Translation.language = language
        logger.info("chrome language \(language.code) (was \(old.code))")
        observers.forEach { $0(old) }
        frame.request()
    }

    /// The idle reset: back to the policy's language.
    func reset() { choose(defaultLanguage) }

    /// The kiosk ends: its thread speaks the language it spoke before.
    func close() { Translation.language = languageBefore }

    private func next(in choices: [Language]) -> Language {
        let index = choices.firstIndex(of: current).map { ($0 + 1) % choices.count } ?? 0
        return choices[index]
    }

    private static func language(_ code: String) -> Language { Language.named(code) ?? .english }
}
