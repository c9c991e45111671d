import LecternCore
import LecternLinux
import LecternPolicy
import LecternSpeech

/// The keys speech takes (start, hold, repeat, volume, pause, stop) and the headphone jack.
extension Narrator {
    /// The keys speech takes: a start key (F1, Help) starts it (or, on, says where you are and
    /// goes on); the volume keys make it louder or softer; while on, space pauses and resumes,
    /// the repeat key says the last sentence again, Escape stops. Returns whether `key` was taken.
    func handle(_ key: Key) -> Bool {
        switch key {
        case _ where policy.speechStartKeys.contains(key):
            startKeyPressed()
            return true
        case _ where isActive && policy.speechRepeatKeys.contains(key):
            // The sentence being said (or the last one said) from its start, then the rest.
            if let sentence, pageSentences.contains(sentence) {
                pageSentences = Array(pageSentences.drop { $0 != sentence })
                say(pageSentences)
            }
            return true
        case _ where policy.keypadLouder.contains(key) || policy.keypadSofter.contains(key):
            changeVolume(louder: policy.keypadLouder.contains(key))
            return true
        case .space where isActive:
            guard let client else { return true }
            if client.state.isPaused { client.resume() } else { client.pause() }
            return true
        case .escape where isActive:
            stop()
            return true
        default:
            return false
        }
    }

    /// The keys speech takes before the keypad focus: a hold key's repeats (`handleHold`), and
    /// Escape while a page is being read, which stops reading (the focus takes the next Escape
    /// as Back). Returns whether `event` was taken.
    func handleBeforeFocus(_ event: InputEvent) -> Bool {
        if case .key(.escape, _) = event.kind, isActive, !isAnnouncing {
            stop()
            return true
        }
        return handleHold(event)
    }

    /// A hold key (`speech.hold-keys`, the keypad's 5): its press goes on to the rest of the
    /// app (5 selects), its repeats while held are taken, and once it has been held
    /// `speech.hold-seconds` speech starts as with a start key. (Wayland reports no key held:
    /// the repeats the keyboard makes from the compositor's repeat delay and rate show it.)
    /// Returns whether `event` was taken.
    private func handleHold(_ event: InputEvent) -> Bool {
        guard case .key(let key, let isRepeat) = event.kind else { return false }
        guard policy.speechHoldKeys.contains(key) else {
            held = nil
            return false
        }
        guard isRepeat else {
            held = (key, event.time, false)
            return false
        }
        guard let hold = held, hold.key == key, !hold.hasStarted else { return true }
        if event.time - hold.since >= policy.speechHoldSeconds - 1e-6 {
            held?.hasStarted = true
            startKeyPressed()
        }
        return true
    }

    /// A start key: reading starts, or, while it reads, where the visitor is is said.
    private func startKeyPressed() {
        if isActive, !isAnnouncing { sayWhereYouAre() } else { start() }
    }

    /// The speech volume's step: a tenth of espeak-ng's range (0 to 200).
    static let volumeStep = 20

    /// Louder or softer by a step; said ("Volume 6 of 10.") unless a page is being read, where
    /// the reading itself is heard louder or softer. The idle reset puts the operator's back.
    private func changeVolume(louder: Bool) {
        guard policy.speechEnabled, current.reader != nil else { return }
        let client = startedClient()
        client.setVolume(client.settings.volume + (louder ? Self.volumeStep : -Self.volumeStep))
        logger.info("speech volume \(client.settings.volume)")
        if !isActive || isAnnouncing {
            announce(tr("Volume %s of %s.", client.settings.volume / Self.volumeStep, 200 / Self.volumeStep))
        }
    }

    /// Whether headphones are in (a jack is watched and says so).
    var areHeadphonesIn: Bool { headphones?.areIn == true }

    /// Whether a form field's value may be said now (`speech.field-values`).
    var saysFieldValues: Bool {
        switch policy.speechFieldValues {
        case .always: true
        case .never: false
        case .headphones: areHeadphonesIn
        }
    }

    /// Headphones went in or came out: speech goes to them (or back to the speaker); with
    /// `speech.headphones = "start"`, plugging them in starts reading and pulling them out stops it.
    func headphonesChanged(areIn: Bool) {
        logger.info("headphones \(areIn ? "plugged in" : "pulled out")")
        client?.setOutput(output)
        guard policy.speechHeadphones == .start else { return }
        if areIn {
            if !isActive { start() }
        } else {
            stop()
        }
    }

    static func describe(_ output: SpeechOutput) -> String {
        switch output {
        case .alsa(let device): "ALSA \(device)"
        case .wav(let path, _): path
        }
    }

    /// Where speech goes now: the headphones' device while they are in (when the policy names
    /// one), else the policy's output.
    var output: SpeechOutput {
        let headphoneDevice = policy.speechHeadphoneOutput
        let device = areHeadphonesIn && !headphoneDevice.isEmpty ? headphoneDevice : policy.speechOutput
        return device.hasSuffix(".wav") ? .wav(path: device, paced: pacesFile) : .alsa(device: device)
    }
}
