/* cardbot tournament — setup: the config opened, the strategies and pairings chosen, games,
 * seed and budget resolved and the report path tried, all before the first game, so a mistake
 * is one line on stderr (exit 2) and costs no games. */
#include <errno.h>
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cli.h"
#include "match.h"
#include "match_verdict.h"
#include "tour.h"

#define CMD "tournament"

/* [shim] budget_ms as a number (the shim checked it when it opened the file), default 1000. */
static int read_budget(cb_tour_cmd *c)
{
    c->budget = 1000;
    const char *s = cb_shim_get(c->shim, "shim", "budget_ms");
    if (!s)
        return 0;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end || errno) {
        cb_cli_error(CMD, "%s: [shim] budget_ms: not a number: '%s'", c->a.config, s);
        return CB_CLI_EXIT_USAGE;
    }
    c->budget = x;
    return 0;
}

/* --games, else [match] games, else 100 (both checked already). */
static void resolve_games(cb_tour_cmd *c)
{
    if (c->a.games == G_MININT64)
        c->a.games = c->conf.games != G_MININT64 ? c->conf.games : 100;
}

/* --seed, else [match] seed (both checked already), else (as cardbot match) a secret key,
 * printed once every game is over. 0 or the exit status. */
static int resolve_seed(cb_tour_cmd *c)
{
    if (c->a.seed == G_MININT64)
        c->a.seed = c->conf.seed;
    if (c->a.seed != G_MININT64)
        return 0;
    uint64_t key = 0;
    if (getrandom(&key, sizeof key, 0) != (ssize_t)sizeof key) {
        cb_cli_error(CMD, "no --seed and no random key available: give --seed");
        return 1;
    }
    c->a.seed = (gint64)(key >> 1);
    c->random_seed = true;
    return 0;
}

/* The shim, the --landlord seat its rules allow, the strategies taking part. 0 or the usage
 * status. */
static int open_field(cb_tour_cmd *c)
{
    char err[1024];
    c->shim = cb_shim_open(c->a.config, err, sizeof err);
    if (!c->shim) {
        cb_cli_error(CMD, "%s", err);
        return CB_CLI_EXIT_USAGE;
    }
    c->rules = cb_shim_rules(c->shim);
    if (cb_cli_match_conf_read(CMD, c->a.config, &c->conf) != 0 ||
        cb_cli_check_landlord(CMD, c->a.landlord, c->a.config, c->rules) != 0)
        return CB_CLI_EXIT_USAGE;
    c->names = cb_tour_strategies(c->shim, c->a.config, c->a.list, c->a.gauntlet, err, sizeof err);
    if (!c->names) {
        cb_cli_error(CMD, "%s", err);
        return CB_CLI_EXIT_USAGE;
    }
    c->n = (int)g_strv_length(c->names);
    c->g = -1;
    for (int i = 0; c->a.gauntlet && i < c->n; i++)
        if (!strcmp(c->names[i], c->a.gauntlet))
            c->g = i;
    if (c->a.report && c->n > CB_REPORT_MAX) {
        cb_cli_error(CMD, "--report: %d strategies, a report shows at most %d (choose with --strategies)", c->n,
                     CB_REPORT_MAX);
        return CB_CLI_EXIT_USAGE;
    }
    return 0;
}

int cb_tour_setup(cb_tour_cmd *c)
{
    int status = open_field(c);
    if (!status)
        status = resolve_seed(c);
    if (!status)
        status = read_budget(c);
    if (status)
        return status;
    resolve_games(c);
    if (c->a.games % 6)
        c->a.games += 6 - c->a.games % 6; /* whole deals: 3 rotations in each of the 2 seatings */
    c->half = (long)c->a.games / 2;
    if (c->a.report) { /* a report that cannot be written is a mistake to hear before the games */
        FILE *rf = fopen(c->a.report, "a");
        if (!rf) {
            cb_cli_error(CMD, "cannot write report '%s': %s", c->a.report, g_strerror(errno));
            return CB_CLI_EXIT_USAGE;
        }
        fclose(rf);
    }
    c->pairs = cb_tour_pairings(c->n, c->g, &c->npair);
    return 0;
}
