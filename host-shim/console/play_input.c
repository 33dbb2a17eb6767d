/* cardbot play — what the person types: lines from a terminal or a pipe, command words, card
 * text. Any bytes at all may arrive here (a pipe, a paste, a stray key): nothing in this file
 * trusts them beyond what the core's parser accepts. */
#include <string.h>

#include <glib.h>

#include "play.h"

const char *cb_play_read(cb_play_session *s, const char *prompt)
{
    fputs(prompt, s->out);
    fflush(s->out);
    ssize_t n = getline(&s->line, &s->line_cap, s->in);
    if (n < 0) {
        /* the cursor still stands after the prompt: end that line before the goodbye */
        fputc('\n', s->out);
        return NULL;
    }
    /* A NUL inside the line ends the text there: a C string is all the parsers take. */
    char *t = g_strstrip(s->line);
    if (s->echo)
        fprintf(s->out, "%s\n", t);
    return t;
}

bool cb_play_is(const char *word, const char *names)
{
    size_t wl = strlen(word);
    for (const char *p = names; *p;) {
        const char *e = strchr(p, ' ');
        size_t nl = e ? (size_t)(e - p) : strlen(p);
        if (nl == wl && g_ascii_strncasecmp(word, p, nl) == 0)
            return true;
        if (!e)
            break;
        p = e + 1;
    }
    return false;
}

