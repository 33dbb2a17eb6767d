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

int cb_cmd_play(int argc, char **argv)
{
    char *config = NULL, *hint = NULL;
    gint seat = G_MININT;
    gint64 games = G_MININT64, seed = G_MININT64; /* MININT: not given */
    gboolean unicode = FALSE;
    GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_FILENAME, &config, "INI config (rules, strategies, seats)", "FILE"},
        {"seat", 'S', 0, G_OPTION_ARG_INT, &seat, "your seat, 0..2 (the bots take the others)", "S"},
        {"seed", 's', 0, G_OPTION_ARG_INT64, &seed, "deal seed: the same seed, the same deals (default: random)", "N"},
        {"games", 'g', 0, G_OPTION_ARG_INT64, &games, "play N games without asking (default: ask after each)", "N"},
        {"hint", 'H', 0, G_OPTION_ARG_STRING, &hint, "strategy giving hints (default: your seat's in the config)", "NAME"},
        {"unicode", 'u', 0, G_OPTION_ARG_NONE, &unicode, "show suits as \xe2\x99\xa0 \xe2\x99\xa5 \xe2\x99\xa3 \xe2\x99\xa6 (default: s h c d)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("- play against the bots in the terminal");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "At your turn type a play by ranks (33344, T or 10 for a ten; suits optional: 3s3h), pass,\n"
             "hint, hand, moves, help or quit. Bids: a number from the choices shown (or pass, yes, no).");
    int rc = cb_cli_parse(CMD, ctx, &argc, &argv);
    if (rc)
        return rc;
    cb_play_session s;
    memset(&s, 0, sizeof s);
    int status = CB_CLI_EXIT_USAGE;
    char err[512];
    if (argc > 1) {
        cb_cli_error(CMD, "unexpected argument '%s'", argv[1]);
        goto out;
    }
    if (!config) {
        cb_cli_error(CMD, "missing --config FILE");
        goto out;
    }
    if (seat == G_MININT) {
        cb_cli_error(CMD, "missing --seat S (0..2: where you sit)");
        goto out;
    }
    if (seat < 0 || seat > 2) {
        cb_cli_error(CMD, "--seat %d: must be 0, 1 or 2", seat);
        goto out;
    }
    if (games != G_MININT64 && (games < 1 || games > 1000000)) {
        cb_cli_error(CMD, "--games %lld: must be 1..1000000", (long long)games);
        goto out;
    }
    if (seed != G_MININT64 && seed < 0) {
        cb_cli_error(CMD, "--seed %lld: must be 0 or more", (long long)seed);
        goto out;
    }
    if (!(s.shim = cb_shim_open(config, err, sizeof err))) {
        cb_cli_error(CMD, "%s", err);
        goto out;
    }
    s.rules = cb_shim_rules(s.shim);
    if (s.rules->game != CB_GAME_PDK && s.rules->game != CB_GAME_DDZ) {
        cb_cli_error(CMD, "%s: rules %s: only PDK and DDZ games can be played", config, s.rules->preset);
        goto out;
    }
    long long budget = budget_of(s.shim);
    if (budget < 0) {
        cb_cli_error(CMD, "%s: [shim] budget_ms: not a number of milliseconds", config);
        goto out;
    }
    s.budget_ms = (uint32_t)(budget > 600000 ? 600000 : budget);
    if (!(s.table = cb_table_new(s.shim, NULL, err, sizeof err))) {
        cb_cli_error(CMD, "%s", err);
        goto out;
    }
    s.me = seat;
    for (int i = 0; i < 3; i++) {
        const char *n = cb_table_strategy(s.table, i);
        s.name[i] = n ? n : "?";
    }
    if (hint) {
        char *group = g_strdup_printf("strategy.%s", hint);
        bool known = cb_shim_get(s.shim, group, "plugin") != NULL;
        g_free(group);
        if (!known) {
            cb_cli_error(CMD, "--hint %s: %s has no [strategy.%s]", hint, config, hint);
            goto out;
        }
        /* a table of its own: the hint strategy keeps its own instance, apart from the game */
        const char *names[3] = {hint, hint, hint};
        if (!(s.hint_table = cb_table_new_seated(s.shim, names, 3, err, sizeof err))) {
            cb_cli_error(CMD, "--hint %s: %s", hint, err);
            goto out;
        }
        s.hint_name = hint;
    } else {
        s.hint_table = s.table;
        s.hint_name = cb_table_strategy(s.table, seat) ? s.name[seat] : "the fallback";
    }
    if (seed == G_MININT64) {
        uint64_t k = 0;
        if (getrandom(&k, sizeof k, 0) != (ssize_t)sizeof k) {
            cb_cli_error(CMD, "no --seed and no random key available: give --seed");
            status = 1;
            goto out;
        }
        seed = (gint64)(k >> 1);
    }
    s.seed = (uint64_t)seed;
    /* What the person reads goes to a private copy of stdout, and fd 1 to stderr: whatever an
     * in-process plugin prints cannot pass for the table (main() made sure fds 0-2 are open). */
    int out_fd = dup(1);
    if (out_fd < 0 || !(s.out = fdopen(out_fd, "w")) || dup2(2, 1) < 0) {
        cb_cli_error(CMD, "cannot set up the output stream");
        if (out_fd >= 0 && !s.out)
            close(out_fd);
        status = 1;
        goto out;
    }
    s.in = stdin;
    s.echo = !isatty(0);
    s.unicode = unicode;
    fprintf(s.out, "cardbot play: %s (%s), you are seat %d; type help at a prompt for the commands\n", config,
            s.rules->preset, s.me);
    status = run(&s, games);
out:
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
    g_free(config);
    g_free(hint);
    return status;
}
