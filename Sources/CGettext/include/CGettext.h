#pragma once
// glibc's own gettext, with the language chosen per call rather than by the process's locale:
// a kiosk changes its language while it runs, with render and background threads alive.
#include <stddef.h>

/// Tells gettext where `domain`'s catalogs are: `directory`/LANG/LC_MESSAGES/`domain`.mo.
/// Without a call, glibc looks in /usr/share/locale. Returns 0, or -1 with errno set.
/// Corresponding C function: `bindtextdomain` (and `bind_textdomain_codeset`: UTF-8 always).
int CGettext_bind(const char *domain, const char *directory);

/// `msgid`'s translation into `language` ("de", "ar"), or `msgid` itself when the catalog has
/// none (and for "en" without a catalog). The result lives as long as the process (a loaded
/// catalog is never unloaded) or as long as `msgid`.
/// Corresponding C function: `dgettext`.
const char *CGettext_text(const char *domain, const char *language, const char *msgid);

/// The translation of the plural pair for `count`, chosen by the catalog's Plural-Forms; without
/// a translation, `singular` for 1 and `plural` otherwise. Corresponding C function: `dngettext`.
const char *CGettext_plural(
    const char *domain, const char *language, const char *singular, const char *plural, unsigned long count);
