/* cardbot play — a person at one seat against the configured bots, in the terminal.
 *
 *   cardbot play --config FILE --seat S [--seed N] [--games N] [--hint STRATEGY] [--unicode]
 *
 * The other seats are seated as the config's [seats] says and answer through the shim; the
 * person's own seat's configured strategy gives the hints unless --hint names another. Input
 * is read a line at a time from stdin, a terminal or a pipe alike (a pipe's lines are echoed,
 * so the transcript reads as typed); the end of the input leaves the session cleanly. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"

static const char CMD[] = "play";

/* [shim] budget_ms, as cardbot match reads it. -1 when the value is not a number. */
static long long budget_of(cb_shim *shim)
{
    const char *v = cb_shim_get(shim, "shim", "budget_ms");
    if (!v)
        return 1000;
    char *end;
    long long x = strtoll(v, &end, 10);
    return end == v || *end || x < 0 ? -1 : x;
}

/* Another game? Anything but a yes or a no asks again; the end of the input is a no. */
static bool another(cb_play_session *s)
{
    for (;;) {
        const char *t = cb_play_read(s, "another game? [y/n] ");
        if (!t || cb_play_is(t, "n no quit exit"))
            return false;
        if (cb_play_is(t, "y yes"))
            return true;
    }
}

static int run(cb_play_session *s, gint64 games)
{
    int status = 0;
    for (int g = 0;; g++) {
        int rc = cb_play_game(s, g);
        if (rc < 0) {
            status = 1;
            break;
        }
        if (rc > 0) {
            fprintf(s->out, "%s: game %d left unfinished\n", feof(s->in) ? "end of input" : "you quit", g + 1);
            break;
        }
        if (games != G_MININT64 ? g + 1 >= games : !another(s))
            break;
    }
    if (s->played > 1) {
        fprintf(s->out, "%d games:", s->played);
        for (int seat = 0; seat < 3; seat++)
            fprintf(s->out, " seat %d%s %+lld%s", seat, seat == s->me ? " (you)" : "", s->totals[seat],
                    seat < 2 ? "," : "\n");
    }
    /* Printed at the end only, as cardbot match does: the deals follow from it. */
    fprintf(s->out, "seed %llu: the same deals again with --seed %llu\n", (unsigned long long)s->seed,
            (unsigned long long)s->seed);
    return status;
}

/* The command line as given (GOption fills it). */
typedef struct play_args {
    char *config, *hint;
    gint seat;            /* G_MININT: not given */
    gint64 games, seed;   /* G_MININT64: not given */
    gboolean unicode;
} play_args;

/* GOption's step: 0, or the status cb_cli_parse gives (--help, a bad option). */
static int parse_options(int *argc, char ***argv, play_args *a)
{
    a->seat = G_MININT;
    a->games = a->seed = G_MININT64;
    GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_FILENAME, &a->config, "INI config (rules, strategies, seats)", "FILE"},
        {"seat", 'S', 0, G_OPTION_ARG_INT, &a->seat, "your seat, 0..2 (the bots take the others)", "S"},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &a->seed, "deal seed: the same seed, the same deals (default: random)", "N"},
        {"games", 'g', 0, G_OPTION_ARG_INT64, &a->games, "play N games without asking (default: ask after each)", "N"},
        {"hint", 'H', 0, G_OPTION_ARG_STRING, &a->hint, "strategy giving hints (default: your seat's in the config)", "NAME"},
        {"unicode", 'u', 0, G_OPTION_ARG_NONE, &a->unicode, "show suits as \xe2\x99\xa0 \xe2\x99\xa5 \xe2\x99\xa3 \xe2\x99\xa6 (default: s h c d)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("- play against the bots in the terminal");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "At your turn type a play by ranks (33344, T or 10 for a ten; suits optional: 3s3h), pass,\n"
             "hint, hand, moves, help or quit. Bids: a number from the choices shown (or pass, yes, no).");
    return cb_cli_parse(CMD, ctx, entries, argc, argv);
}

/* What can be checked before the config is read. 0 or the usage status. */
static int check_options(const play_args *a, int argc, char **argv)
{
    if (argc > 1) {
        cb_cli_error(CMD, "unexpected argument '%s'", argv[1]);
        return CB_CLI_EXIT_USAGE;
    }
    if (!a->config) {
        cb_cli_error(CMD, "missing --config FILE");
        return CB_CLI_EXIT_USAGE;
    }
    if (a->seat == G_MININT) {
        cb_cli_error(CMD, "missing --seat S (0..2: where you sit)");
        return CB_CLI_EXIT_USAGE;
    }
    if (a->seat < 0 || a->seat > 2) {
        cb_cli_error(CMD, "--seat %d: must be 0, 1 or 2", a->seat);
        return CB_CLI_EXIT_USAGE;
    }
    if (cb_cli_check_games(CMD, a->games, 1000000) != 0)
        return CB_CLI_EXIT_USAGE;
    return cb_cli_check_seed(CMD, a->seed);
}

/* The shim, its rules and budget, the game's table and the person's seat in it. 0 or the
 * usage status. */
static int open_table(cb_play_session *s, const play_args *a)
{
    char err[512];
    if (!(s->shim = cb_shim_open(a->config, err, sizeof err))) {
        cb_cli_error(CMD, "%s", err);
        return CB_CLI_EXIT_USAGE;
    }
    s->rules = cb_shim_rules(s->shim);
    if (s->rules->game != CB_GAME_PDK && s->rules->game != CB_GAME_DDZ) {
        cb_cli_error(CMD, "%s: rules %s: only PDK and DDZ games can be played", a->config, s->rules->preset);
        return CB_CLI_EXIT_USAGE;
    }
    long long budget = budget_of(s->shim);
    if (budget < 0) {
        cb_cli_error(CMD, "%s: [shim] budget_ms: not a number of milliseconds", a->config);
        return CB_CLI_EXIT_USAGE;
    }
    s->budget_ms = (uint32_t)(budget > 600000 ? 600000 : budget);
    if (!(s->table = cb_table_new(s->shim, NULL, err, sizeof err))) {
        cb_cli_error(CMD, "%s", err);
        return CB_CLI_EXIT_USAGE;
    }
    s->me = a->seat;
    for (int i = 0; i < 3; i++) {
        const char *n = cb_table_strategy(s->table, i);
        s->name[i] = n ? n : "?";
    }
    return 0;
}

/* Who answers "hint": --hint's strategy at a table of its own, else the person's seat's.
 * 0 or the usage status. */
static int setup_hint(cb_play_session *s, const play_args *a)
{
    if (!a->hint) {
        s->hint_table = s->table;
        s->hint_name = cb_table_strategy(s->table, a->seat) ? s->name[a->seat] : "the fallback";
        return 0;
    }
    char *group = g_strdup_printf("strategy.%s", a->hint);
    bool known = cb_shim_get(s->shim, group, "plugin") != NULL;
    g_free(group);
    if (!known) {
        cb_cli_error(CMD, "--hint %s: %s has no [strategy.%s]", a->hint, a->config, a->hint);
        return CB_CLI_EXIT_USAGE;
    }
    /* a table of its own: the hint strategy keeps its own instance, apart from the game */
    const char *names[3] = {a->hint, a->hint, a->hint};
    char err[512];
    if (!(s->hint_table = cb_table_new_seated(s->shim, names, 3, err, sizeof err))) {
        cb_cli_error(CMD, "--hint %s: %s", a->hint, err);
        return CB_CLI_EXIT_USAGE;
    }
    s->hint_name = a->hint;
    return 0;
}

/* --seed, else a random one (printed at the end). 0 or 1. */
static int resolve_seed(cb_play_session *s, const play_args *a)
{
    gint64 seed = a->seed;
    if (seed == G_MININT64) {
        uint64_t k = 0;
        if (getrandom(&k, sizeof k, 0) != (ssize_t)sizeof k) {
            cb_cli_error(CMD, "no --seed and no random key available: give --seed");
            return 1;
        }
        seed = (gint64)(k >> 1);
    }
    s->seed = (uint64_t)seed;
    return 0;
}

/* What the person reads goes to a private copy of stdout, and fd 1 to stderr: whatever an
 * in-process plugin prints cannot pass for the table (main() made sure fds 0-2 are open).
 * 0 or 1. */
static int open_output(cb_play_session *s)
{
    int out_fd = dup(1);
    if (out_fd < 0 || !(s->out = fdopen(out_fd, "w")) || dup2(2, 1) < 0) {
        cb_cli_error(CMD, "cannot set up the output stream");
        if (out_fd >= 0 && !s->out)
            close(out_fd);
        return 1;
    }
    return 0;
}

int cb_cmd_play(int argc, char **argv)
{
    play_args a;
    memset(&a, 0, sizeof a);
    cb_play_session s;
    memset(&s, 0, sizeof s);
    int status = parse_options(&argc, &argv, &a);
    if (!status)
        status = check_options(&a, argc, argv);
    if (!status)
        status = open_table(&s, &a);
    if (!status)
        status = setup_hint(&s, &a);
    if (!status)
        status = resolve_seed(&s, &a);
    if (!status)
        status = open_output(&s);
    if (!status) {
        s.in = stdin;
        s.echo = !isatty(0);
        s.unicode = a.unicode;
        fprintf(s.out, "cardbot play: %s (%s), you are seat %d; type help at a prompt for the commands\n",
                a.config, s.rules->preset, s.me);
        status = run(&s, a.games);
    }
    if (s.out && (fflush(s.out) != 0 || ferror(s.out)) && status == 0)
        status = 1;
    if (s.out)
        fclose(s.out);
    if (s.hint_table && s.hint_table != s.table)
        cb_table_free(s.hint_table);
    if (s.table)
        cb_table_free(s.table);
    if (s.shim)
        cb_shim_free(s.shim);
    free(s.line);
    g_free(a.config);
    g_free(a.hint);
    return status;
}
