/* cardbot replay — a replay file (cardbot match --replay, cardbot merge --replay) for people.
 *
 *   cardbot replay FILE [--game N] [--ascii]       one game as text on stdout
 *   cardbot replay --html FILE [--game N] [-o OUT]  one self-contained HTML page of the games
 *
 * Games are numbered as match's "Finished game N" lines number them (from 1). The whole file
 * is read and checked first (replay_read.c): a bad line is one error naming FILE:LINE, exit 2,
 * before anything is written. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

#define CMD "replay"

/* FILE.jsonl -> FILE.html (any other name: FILE.html). */
static char *default_out(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    return g_strdup_printf("%.*s.html", (int)stem, path);
}

static int write_html(const cb_replay *rp, guint first, guint n, const char *out)
{
    bool to_stdout = !strcmp(out, "-");
    FILE *f = to_stdout ? stdout : fopen(out, "w");
    if (!f) {
        cb_cli_error(CMD, "cannot write '%s': %s", out, g_strerror(errno));
        return CB_CLI_EXIT_USAGE;
    }
    int rc = cb_replay_html(f, rp, first, n);
    if ((!to_stdout && fclose(f) != 0) || (to_stdout && fflush(f) != 0))
        rc = -1;
    if (rc) {
        cb_cli_error(CMD, "error writing '%s': %s", out, g_strerror(errno));
        return 1;
    }
    if (!to_stdout)
        printf("cardbot replay: wrote %s (%u game%s)\n", out, n, n == 1 ? "" : "s");
    return 0;
}

int cb_cmd_replay(int argc, char **argv)
{
    gint game = G_MININT; /* not given: the file's first game */
    gboolean html = FALSE, ascii = FALSE;
    char *out = NULL;
    GOptionEntry entries[] = {
        {"game", 'g', 0, G_OPTION_ARG_INT, &game, "the game to show, numbered from 1 as match numbers them "
                                                  "(default: the file's first; with --html: only that game)", "N"},
        {"html", 0, 0, G_OPTION_ARG_NONE, &html, "write an HTML page to step through the games", NULL},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "the page's file (default: FILE with .html; - for stdout)",
         "OUT"},
        {"ascii", 'a', 0, G_OPTION_ARG_NONE, &ascii, "suits as s h c d (default: \xe2\x99\xa0 \xe2\x99\xa5 "
                                                     "\xe2\x99\xa3 \xe2\x99\xa6)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("FILE - show the games of a replay file (cardbot match --replay)");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(
        ctx, "Text: the header, the hands as dealt, the bids, every trick with each decision's value and\n"
             "explanation, the result. --html: one page (no network) with cards to step through: buttons,\n"
             "or the arrow keys (left/right a play, up/down a trick, page up/down a game).\n"
             "Format: schema/cardbot-replay-1.schema.json.");
    int status = cb_cli_parse(CMD, ctx, entries, &argc, &argv);
    if (status)
        return status;
    cb_replay rp;
    memset(&rp, 0, sizeof rp);
    cb_match_game *gm = g_new(cb_match_game, 1);
    char err[600];
    status = CB_CLI_EXIT_USAGE;
    if (argc < 2) {
        cb_cli_error(CMD, "missing FILE (a replay file from cardbot match --replay)");
        goto done;
    }
    if (argc > 2) {
        cb_cli_error(CMD, "one FILE at a time (unexpected '%s')", argv[2]);
        goto done;
    }
    if (game != G_MININT && game < 1) {
        cb_cli_error(CMD, "--game %d: games are numbered from 1", game);
        goto done;
    }
    if (game == G_MININT)
        game = 0; /* below, 0: no game chosen */
    if (out && !html) {
        cb_cli_error(CMD, "-o OUT writes a page: give --html too");
        goto done;
    }
    if (cb_replay_read(argv[1], &rp, err, sizeof err) != 0) {
        cb_cli_error(CMD, "%s", err);
        goto done;
    }
    int at = game ? cb_replay_find(&rp, game - 1) : 0;
    if (at < 0) {
        cb_cli_error(CMD, "--game %d: not in %s (it holds %u games)", game, argv[1], rp.lines->len);
        goto done;
    }
    if (html) {
        char *path = out ? g_strdup(out) : default_out(argv[1]);
        /* FILE.html would otherwise be replaced by its own page */
        const cb_cli_file in = {"replay", argv[1]}, page = {out ? "--output" : "--html", path};
        status = strcmp(path, "-") ? cb_cli_check_files(CMD, &in, 1, &page, 1) : 0;
        if (!status)
            status = write_html(&rp, game ? (guint)at : 0, game ? 1 : rp.lines->len, path);
        g_free(path);
        goto done;
    }
    if (cb_replay_game(&rp, (guint)at, gm, err, sizeof err) != 0) {
        cb_cli_error(CMD, "%s:%d: %s", argv[1], g_array_index(rp.lineno, int, at), err);
        goto done;
    }
    cb_replay_text_header(stdout, &rp, !ascii);
    cb_replay_text_game(stdout, &rp, gm, !ascii);
    status = fflush(stdout) == 0 ? 0 : 1;
    if (status)
        cb_cli_error(CMD, "error writing the text: %s", g_strerror(errno));
done:
    cb_replay_clear(&rp);
    g_free(gm);
    g_free(out);
    return status;
}
