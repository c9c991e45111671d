// How the language is chosen per call, in a process whose threads never call setlocale.
//
// glibc's dgettext reads the calling thread's LC_MESSAGES locale: while it is "C" (the process's,
// since nothing calls setlocale) every lookup returns the msgid and LANGUAGE is ignored. So a
// lookup here runs with a thread locale of C.UTF-8 (built into glibc 2.35 and later, so nothing
// needs generating on the kiosk) for LC_MESSAGES and LC_CTYPE, put in place by `uselocale` for the
// call only and taken away after it: no other code of the process (strerror in the logs) starts
// translating. With a non-C LC_MESSAGES, glibc takes the language list from LANGUAGE, which
// names the catalog directory: `directory`/de/LC_MESSAGES/lectern.mo, the standard layout.
//
// LANGUAGE is process-wide, so lookups hold one mutex and it is set only when the language asked
// for differs from the last one; then `_nl_msg_cat_cntr` is bumped, which is how glibc's own
// documentation says to make it forget the translations it has cached for the old value. After
// the first `setenv`, glibc replaces the variable's string pointer in place (the environment's
// array is not reallocated, the old string not freed), so another thread's getenv still reads
// a valid string. Child processes inherit LANGUAGE; they run in the C locale and ignore it.
#include "CGettext.h"

#include <errno.h>
#include <libintl.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

extern int _nl_msg_cat_cntr;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static locale_t messages_locale = (locale_t)0;
static char current_language[32];

int CGettext_bind(const char *domain, const char *directory) {
    pthread_mutex_lock(&lock);
    int status = 0;
    if (bindtextdomain(domain, directory) == NULL || bind_textdomain_codeset(domain, "UTF-8") == NULL) status = -1;
    // A catalog bound anew is read anew.
    ++_nl_msg_cat_cntr;
    pthread_mutex_unlock(&lock);
    return status;
}

/// Called with the lock held: the thread locale to look up in, with LANGUAGE set to `language`.
/// Returns (locale_t)0 when C.UTF-8 cannot be made (then lookups give the msgid).
static locale_t enter(const char *domain, const char *language) {
    if (messages_locale == (locale_t)0) {
        messages_locale = newlocale(LC_MESSAGES_MASK | LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
        if (messages_locale == (locale_t)0) return (locale_t)0;
        bind_textdomain_codeset(domain, "UTF-8");
    }
    if (strncmp(current_language, language, sizeof current_language) != 0) {
        strncpy(current_language, language, sizeof current_language - 1);
        setenv("LANGUAGE", current_language, 1);
        ++_nl_msg_cat_cntr;
    }
    return uselocale(messages_locale);
}

const char *CGettext_text(const char *domain, const char *language, const char *msgid) {
    pthread_mutex_lock(&lock);
    const char *text = msgid;
    locale_t previous = enter(domain, language);
    if (previous != (locale_t)0) {
        text = dgettext(domain, msgid);
        uselocale(previous);
    }
    pthread_mutex_unlock(&lock);
    return text;
}

const char *CGettext_plural(
    const char *domain, const char *language, const char *singular, const char *plural, unsigned long count) {
    pthread_mutex_lock(&lock);
    const char *text = count == 1 ? singular : plural;
    locale_t previous = enter(domain, language);
    if (previous != (locale_t)0) {
        text = dngettext(domain, singular, plural, count);
        uselocale(previous);
    }
    pthread_mutex_unlock(&lock);
    return text;
}
