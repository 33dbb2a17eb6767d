/* cardbot command — rules tools for people and scripts: classify, moves, minhands, universe. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *shape_name(int shape)
{
    return shape >= 0 && shape < CB_NSHAPES && cb_shape_names[shape] ? cb_shape_names[shape] : "?";
}

static char main_char(int main)
{
    /* The PDK AAA bomb has a main above every rank; it is made of As. */
    return main == CB_MAIN_AAA ? 'A' : main < CB_NRANKS ? cb_rank_chars[main] : '?';
}

/* Print sorted plays, one per line. */
static void print_moves(cb_move *moves, int n)
{
    qsort(moves, (size_t)n, sizeof *moves, cb_cli_move_cmp);
    char buf[128];
    for (int i = 0; i < n; i++) {
        cb_cli_move_text(moves[i].counts, buf, sizeof buf);
        puts(buf);
    }
}

/* The preamble of every rules tool: parse its options (entries, may be NULL) with --rules and
 * --flag, resolve the rules into *r. extra: NULL when words after the options are the tool's
 * input; else they are an error, the message ending in extra (a hint, or ""). Returns 0 or the
 * exit status, the problem printed. */
static int tool_args(const char *cmd, const char *summary, const GOptionEntry *entries,
                     const char *extra, int *argc, char ***argv, cb_rules *r)
{
    cb_cli_rules_opt ro = {0};
    GOptionContext *ctx = g_option_context_new(summary);
    if (entries)
        g_option_context_add_main_entries(ctx, entries, NULL);
    cb_cli_add_rules_options(ctx, &ro);
    /* every entry the context has, for cb_cli_parse's attached short values (-rddz) */
    GArray *all = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));
    for (const GOptionEntry *e = entries; e && e->long_name; e++)
        g_array_append_val(all, *e);
    GOptionEntry rules[3];
    cb_cli_rules_entries(&ro, rules);
    g_array_append_vals(all, rules, 2);
    int rc = cb_cli_parse(cmd, ctx, (const GOptionEntry *)(void *)all->data, argc, argv);
    g_array_free(all, TRUE);
    if (rc == 0)
        rc = cb_cli_rules_resolve(cmd, &ro, r);
    cb_cli_rules_opt_free(&ro);
    if (rc == 0 && extra && *argc > 1) {
        cb_cli_error(cmd, "unexpected argument '%s'%s", (*argv)[1], extra);
        rc = CB_CLI_EXIT_USAGE;
    }
    return rc;
}

int cb_cmd_classify(int argc, char **argv)
{
    const char *cmd = "classify";
    cb_rules r;
    int rc = tool_args(cmd, "CARDS - classify one play", NULL, NULL, &argc, &argv, &r);
    if (rc)
        return rc;
    if (argc < 2) {
        cb_cli_error(cmd, "missing CARDS (e.g. cardbot classify --rules ddz 33344)");
        return CB_CLI_EXIT_USAGE;
    }
    /* Words are joined: spaces separate cards anyway, so "3 3 3 4 4" is one play. */
    char *text = g_strjoinv(" ", argv + 1);
    cb_counts k = 0;
    rc = cb_cli_cards(cmd, "CARDS", text, &r, &k);
    g_free(text);
    if (rc == 0 && k == 0) {
        cb_cli_error(cmd, "CARDS is empty (a pass is not a play)");
        rc = CB_CLI_EXIT_USAGE;
    }
    if (rc)
        return rc;

    cb_move m;
    char why[256] = "";
    if (!cb_classify(&r, k, &m, why, sizeof why)) {
        printf("illegal: %s\n", why[0] ? why : "not a play");
        return 1;
    }
    char cards[128], kick[128];
    cb_counts kc = cb_cli_kickers(&m);
    cb_cli_move_text(m.counts, cards, sizeof cards);
    if (kc)
        cb_counts_format(kc, kick, sizeof kick);
    else
        snprintf(kick, sizeof kick, "-");
    printf("%s main=%c len=%d kickers=%s cards=%s\n", shape_name(m.shape), main_char(m.main),
           m.len, kick, cards);
    return 0;
}

int cb_cmd_moves(int argc, char **argv)
{
    const char *cmd = "moves";
    char *hand_text = NULL, *beat_text = NULL;
    gboolean next_has_one = FALSE, first_play = FALSE;
    const GOptionEntry entries[] = {
        {"hand", 'H', 0, G_OPTION_ARG_STRING, &hand_text, "The deciding seat's hand (required)", "CARDS"},
        {"beat", 'b', 0, G_OPTION_ARG_STRING, &beat_text, "The play to beat (omit when leading)", "CARDS"},
        {"next-has-one", 0, 0, G_OPTION_ARG_NONE, &next_has_one, "The next seat holds one card (warn_single)", NULL},
        {"first-play", 0, 0, G_OPTION_ARG_NONE, &first_play, "The game's first play (spade3_first)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    cb_rules r;
    int rc = tool_args(cmd, "- list every legal play, sorted", entries, " (the hand goes in --hand)",
                       &argc, &argv, &r);

    cb_counts hand = 0, beat = 0;
    cb_cards hand_cards = 0;
    if (rc == 0 && !hand_text) {
        cb_cli_error(cmd, "missing --hand CARDS");
        rc = CB_CLI_EXIT_USAGE;
    }
    if (rc == 0)
        rc = cb_cli_cards_from(cmd, "--hand", hand_text, &r, r.deck, &hand_cards, &hand);
    if (rc == 0 && hand == 0) {
        cb_cli_error(cmd, "--hand is empty");
        rc = CB_CLI_EXIT_USAGE;
    }
    if (rc == 0)
        rc = cb_cli_hand_size_ok(cmd, "--hand", hand, &r);
    if (rc == 0 && beat_text) {
        rc = cb_cli_cards(cmd, "--beat", beat_text, &r, &beat);
        if (rc == 0 && beat == 0) {
            cb_cli_error(cmd, "--beat is empty (omit it when leading)");
            rc = CB_CLI_EXIT_USAGE;
        }
    }
    /* Hand and table come out of one deck: together they may not hold more of a rank than it. */
    cb_counts deck = cb_counts_of(r.deck);
    for (int rk = 0; rc == 0 && beat && rk < CB_NRANKS; rk++) {
        int n = cb_count(hand, rk) + cb_count(beat, rk);
        if (n > cb_count(deck, rk)) {
            cb_cli_error(cmd, "--hand and --beat together hold %d of rank %c; the deck has %d", n,
                         cb_rank_chars[rk], cb_count(deck, rk));
            rc = CB_CLI_EXIT_USAGE;
        }
    }
    /* and the table's cards come from what the hand does not hold: "--hand 3s --beat 3s" names
     * one physical card twice */
    if (rc == 0 && beat)
        rc = cb_cli_cards_from(cmd, "--beat", beat_text, &r, r.deck & ~hand_cards, NULL, &beat);
    cb_move table;
    if (rc == 0 && beat) {
        char why[256] = "", shown[48];
        if (!cb_classify(&r, beat, &table, why, sizeof why)) {
            cb_cli_error(cmd, "--beat '%s' is not a play: %s", cb_cli_shorten(beat_text, shown, sizeof shown),
                         why[0] ? why : "illegal");
            rc = CB_CLI_EXIT_USAGE;
        }
    }
    g_free(hand_text);
    g_free(beat_text);
    if (rc)
        return rc;

    cb_ctx c = {.hand = hand, .table = beat ? &table : NULL, .next_has_one = next_has_one,
                .first_play = first_play};
    cb_move *moves = g_new(cb_move, CB_MOVES_CAP);
    int n = cb_legal_moves(&r, &c, moves, CB_MOVES_CAP);
    if (n < 0 || n > CB_MOVES_CAP) {
        cb_cli_error(cmd, "the rules engine returned %d plays (cap %d)", n, CB_MOVES_CAP);
        g_free(moves);
        return 1;
    }
    print_moves(moves, n);
    g_free(moves);
    return 0;
}

/* Strip trailing "\r\n" / spaces and leading spaces in place; returns the start. */
static char *trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

int cb_cmd_minhands(int argc, char **argv)
{
    const char *cmd = "minhands";
    cb_rules r;
    int rc = tool_args(cmd, "- fewest plays to empty each hand read from stdin (one hand per line)",
                       NULL, " (hands are read from stdin)", &argc, &argv, &r);
    if (rc)
        return rc;

    /* Output line N answers input line N: a blank or bad line gives a blank output line, a bad
     * one also a message on stderr and exit status 2 once all lines are done. */
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int status = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, stdin)) >= 0) {
        lineno++;
        if ((size_t)got != strlen(line)) { /* text with a NUL byte is not a hand */
            fprintf(stderr, "cardbot %s: line %ld: a NUL byte in the input\n", cmd, lineno);
            putchar('\n');
            status = CB_CLI_EXIT_USAGE;
            continue;
        }
        char *s = trim(line);
        if (!*s) {
            putchar('\n');
            continue;
        }
        char err[256] = "", shown[48];
        cb_cards c;
        int n = 0, max = r.hand_size + r.bottom;
        if (cb_cards_parse(s, r.deck, &c, err, sizeof err) != 0 || (n = cb_cards_size(c)) > max) {
            if (n > max)
                snprintf(err, sizeof err, "%d cards; a %s hand holds at most %d", n, r.preset, max);
            fprintf(stderr, "cardbot %s: line %ld '%s': %s\n", cmd, lineno,
                    cb_cli_shorten(s, shown, sizeof shown), err[0] ? err : "bad cards");
            putchar('\n');
            status = CB_CLI_EXIT_USAGE;
            continue;
        }
        printf("%d\n", cb_min_hands(&r, cb_counts_of(c)));
    }
    if (ferror(stdin)) { /* a directory on stdin, an I/O error: not the same as no input */
        fprintf(stderr, "cardbot %s: cannot read stdin: %s\n", cmd, g_strerror(errno));
        status = 1;
    }
    free(line);
    return status;
}

int cb_cmd_universe(int argc, char **argv)
{
    const char *cmd = "universe";
    gboolean count_only = FALSE;
    const GOptionEntry entries[] = {
        {"count", 'c', 0, G_OPTION_ARG_NONE, &count_only, "Print only the number of plays", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    cb_rules r;
    int rc = tool_args(cmd, "- every distinct play the rules allow, by ranks, sorted", entries, "",
                       &argc, &argv, &r);
    if (rc)
        return rc;

    int n = cb_universe(&r, NULL, 0);
    if (n < 0) {
        cb_cli_error(cmd, "the rules engine returned %d plays", n);
        return 1;
    }
    if (count_only) {
        printf("%d\n", n);
        return 0;
    }
    cb_move *moves = g_new(cb_move, (size_t)n + 1);
    int got = cb_universe(&r, moves, n);
    print_moves(moves, got < n ? got : n);
    g_free(moves);
    return 0;
}
