import CGettext
import Glibc
import LecternCore

/// The chrome's translations from glibc's gettext: po/CODE.po compiled by msgfmt into
/// DIRECTORY/CODE/LC_MESSAGES/lectern.mo (`Sources/CGettext/shim.c`: how the language is chosen
/// per lookup in a process with threads). The language in force is the calling thread's: the
/// kiosk's loop sets it and reads it; tests running in parallel each have their own.
public final class GettextTranslator: Translator {
    /// The gettext domain: the catalogs' file name.
    public static let domain = "lectern"

    /// The one translator; `install(catalogs:)` puts it in force.
    public static let shared = GettextTranslator()

    /// Each thread's language, as an index into `Language.shipped` plus one (0: never set, English).
    private let key: pthread_key_t

    private init() {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for the chrome's language")
        self.key = key
    }

    /// Puts gettext's catalogs in force (`Translation.translator`), from `directory`, or where
    /// glibc looks by default (/usr/share/locale, where the Debian package installs them) when
    /// nil. False when glibc refuses the directory (English is shown then).
    @discardableResult
    public static func install(catalogs directory: String?) -> Bool {
        if let directory, CGettext_bind(domain, directory) != 0 { return false }
        if !(Translation.translator is GettextTranslator) { Translation.translator = shared }
        return true
    }

    /// The catalogs `kiosk/run` compiles beside the binary (DIR/locale), if they are there.
    public static func besideExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        // The folder is everything before the last slash (a byte search: every start asks).
        let path = buffer[..<length].map { UInt8(bitPattern: $0) }
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let directory = String(decoding: path[..<slash], as: UTF8.self) + "/locale"
        var status = stat()
        return stat(directory, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR ? directory : nil
    }

    public var language: Language {
        get {
            let index = Int(bitPattern: pthread_getspecific(key)) - 1
            return Language.shipped.indices.contains(index) ? Language.shipped[index] : .english
        }
        set {
            let index = (Language.shipped.firstIndex(of: newValue) ?? 0) + 1
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: index))
        }
    }

    public func text(_ msgid: String, in language: Language) -> String {
        msgid.withCString { String(cString: CGettext_text(Self.domain, language.code, $0)) }
    }

    public func text(_ singular: String, _ plural: String, count: Int, in language: Language) -> String {
        singular.withCString { one in
            plural.withCString { many in
                String(
                    cString: CGettext_plural(Self.domain, language.code, one, many, UInt(clamping: count.magnitude)))
            }
        }
    }
}
