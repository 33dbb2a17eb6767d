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

int cb_play_parse_cards(const cb_rules *r, cb_cards hand, const char *text, cb_cards *out, char *err,
                        size_t errlen)
{
    char why[200] = "";
    cb_cards any = 0;
    /* First as cards of the game: a typo is named as the core names it (character and place;
     * the core also reads the suit symbols --unicode shows). */
    if (cb_cards_parse(text, r->deck, &any, why, sizeof why) != 0) {
        snprintf(err, errlen, "not cards of this game: %s", why[0] ? why : "unreadable");
        return -1;
    }
    /* Then from the hand: bare ranks take the lowest suits held, which is the spade 3 when a
     * play with a 3 must hold it (the spade is suit 0). */
    if (cb_cards_parse(text, hand, out, why, sizeof why) == 0)
        return 0;
    /* Say what is missing in the person's terms. Every token of the text is one card of
     * `any`, so its rank counts are the text's. */
    cb_counts want = cb_counts_of(any), have = cb_counts_of(hand);
    GString *g = g_string_new(NULL);
    for (int rk = 0; rk < CB_NRANKS; rk++) {
        int w = cb_count(want, rk), h = cb_count(have, rk);
        if (w <= h)
            continue;
        if (g->len)
            g_string_append(g, ", ");
        /* h < w <= 4: the text parsed against the deck, which holds at most four of a rank */
        static const char *const count[] = {"no", "one", "two", "three"};
        g_string_append_printf(g, "you hold %s%s %c%s", h ? "only " : "", count[h], cb_rank_chars[rk],
                               h > 1 ? "s" : "");
    }
    if (g->len == 0) {
        /* the ranks are there, so a card named with its suit is not: the core's message speaks
         * of "the deck", which here is the hand */
        const char *deck = strstr(why, "is not in the deck");
        if (deck)
            g_string_append_printf(g, "%.*sis not in your hand%s", (int)(deck - why), why,
                                   deck + strlen("is not in the deck"));
        else
            g_string_append_printf(g, "not in your hand: %s", why);
    }
    snprintf(err, errlen, "%s", g->str);
    g_string_free(g, TRUE);
    return -1;
}
