/* cardbot serve — one configured strategy behind a line protocol on stdin / stdout, so a host
 * that does not link C (another language, another match tool) can seat our bots.
 *
 *   cardbot serve --config FILE --strategy NAME [--protocol cardbot|botzone]
 *                 [--budget-ms N] [--seed S] [--no-keep-running]
 *
 * --protocol cardbot (the default) speaks cardbot-1, the exec strategy's protocol
 * (include/cardbot/json.h, README "Bots in any language"): a hello line is answered with
 * {"protocol":"cardbot-1","name":NAME,"version":...}; each bid or play request is answered with
 * one line, decided through the shim exactly as a C host's cb_decide_bid / cb_decide_play would
 * (same config, same checks, same fallback: an answer the fallback gave carries
 * "fallback":"illegal" etc.); a line that cannot be served is answered {"error":"..."} naming
 * the member (with the line's "id" when it is a JSON object that has a usable one, as every
 * answer has), and the next line is read. End of input ends the command (exit 0). So
 * `plugin = exec` with `command = cardbot serve ...` seats a strategy of one config at the
 * table of another.
 *
 * --protocol botzone speaks the Botzone platform's Dou Dizhu protocol (serve_botzone.c).
 *
 * One table serves every request: [strategy.NAME] sits at each seat, one instance per seat,
 * and a request for seat s goes to seat s's instance (instances may keep state per game).
 * stdout carries the protocol only: fd 1 is pointed at stderr once the protocol's own copy
 * is taken, so a plugin that prints cannot break a line of it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cardbot/game.h"
#include "cardbot/json.h"
#include "cli.h"
#include "serve.h"

char *cb_serve_read_line(FILE *in, size_t *len)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, in);
    if (n < 0) {
        free(line);
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = '\0';
    char *copy = g_strndup(line, (gsize)n); /* callers free with g_free */
    free(line);
    *len = (size_t)n;
    return copy;
}

int cb_serve_write_line(cb_serve *s, const char *text)
{
    if (fputs(text, s->out) == EOF || fputc('\n', s->out) == EOF || fflush(s->out) == EOF)
        return -1;
    return 0;
}

static const char *fallback_name(int code)
{
    switch (code) {
    case CB_FB_ILLEGAL: return "illegal";
    case CB_FB_FAILED: return "failed";
    case CB_FB_LATE: return "late";
    case CB_FB_NO_PLUGIN: return "no-plugin";
    case CB_FB_CRASHED: return "crashed";
    default: return NULL;
    }
}

/* The answer line to one cardbot-1 line (hello, request, or garbage). */
static char *answer_cardbot(cb_serve *s, const char *line, size_t len)
{
    char err[400];
    cb_json_request *q = cb_json_request_parse(line, len, err, sizeof err);
    if (!q)
        return cb_json_error_format(err, cb_json_line_id(line, len)); /* errors carry the id too */
    int64_t id = cb_json_request_id(q);
    char *ans;
    if (cb_json_request_kind(q) == CB_JSON_HELLO) {
        const char *proto = cb_json_request_protocol(q);
        if (strcmp(proto, CB_JSON_PROTOCOL) != 0) {
            snprintf(err, sizeof err, "protocol: the host speaks '%.40s', this bot '%s'", proto, CB_JSON_PROTOCOL);
            ans = cb_json_error_format(err, id);
        } else {
            ans = cb_json_hello_answer_format(s->strategy, CB_VERSION);
        }
    } else {
        const cb_view *v = cb_json_request_view(q);
        cb_decision d = {.struct_size = sizeof d};
        int code = v->phase == CB_PHASE_BID ? cb_decide_bid(s->table, v, &d) : cb_decide_play(s->table, v, &d);
        if (code < 0) {
            snprintf(err, sizeof err, "view: %s", cb_table_last_error(s->table));
            ans = cb_json_error_format(err, id);
        } else {
            ans = cb_json_answer_format(v->phase, &d, fallback_name(code), id);
        }
    }
    cb_json_request_free(q);
    return ans;
}

static int serve_cardbot(cb_serve *s, FILE *in)
{
    size_t len;
    char *line;
    while ((line = cb_serve_read_line(in, &len))) {
        if (len == 0) { /* blank lines between messages are allowed and unanswered */
            g_free(line);
            continue;
        }
        char *ans = answer_cardbot(s, line, len);
        g_free(line);
        int rc = ans ? cb_serve_write_line(s, ans) : -1;
        cb_json_free(ans);
        if (rc != 0) {
            cb_cli_error("serve", "cannot write an answer: %s", strerror(errno));
            return 1;
        }
    }
    return 0;
}

/* --strategy names a [strategy.NAME] of the config: said in the option's terms, with the names
 * the config has, rather than in the table constructor's. 0 or the usage status. */
static int check_strategy(cb_shim *shim, const char *config, const char *strategy)
{
    char **have = cb_cli_strategies(shim);
    int rc = 0;
    if (!g_strv_contains((const char *const *)have, strategy)) {
        char *list = g_strjoinv(", ", have);
        cb_cli_error("serve", "--strategy %s: %s has no [strategy.%s] (it has: %s)", strategy, config, strategy,
                     have[0] ? list : "none");
        g_free(list);
        rc = CB_CLI_EXIT_USAGE;
    }
    g_strfreev(have);
    return rc;
}

int cb_cmd_serve(int argc, char **argv)
{
    const char *cmd = "serve";
    char *config = NULL, *strategy = NULL, *protocol = NULL;
    gint budget = 900;
    gint64 seed = 1;
    gboolean once = FALSE;
    const GOptionEntry entries[] = {
        {"config", 'c', 0, G_OPTION_ARG_FILENAME, &config, "Config file (strategies, rules)", "FILE"},
        {"strategy", 's', 0, G_OPTION_ARG_STRING, &strategy, "The [strategy.NAME] that answers", "NAME"},
        {"protocol", 'p', 0, G_OPTION_ARG_STRING, &protocol, "cardbot (cardbot-1 JSON lines, default) or botzone", "P"},
        {"budget-ms", 0, 0, G_OPTION_ARG_INT, &budget, "botzone: time per decision (default 900; [shim] budget_ms caps it)", "N"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "botzone: key of the per-decision seeds (default 1)", "S"},
        {"no-keep-running", 0, 0, G_OPTION_ARG_NONE, &once, "botzone: answer one input and exit (no keep-running mode)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("- answer bot requests on stdin with a configured strategy");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(ctx,
        "Protocols: cardbot (one JSON line per request and answer; README \"Bots in any language\")\n"
        "and botzone (the Botzone FightTheLandlord2 protocol; README \"cardbot serve\").");
    int rc = cb_cli_parse(cmd, ctx, entries, &argc, &argv);
    cb_serve s = {0};
    int out_fd = -1;
    if (rc)
        goto done;
    rc = CB_CLI_EXIT_USAGE;
    if (argc > 1) {
        cb_cli_error(cmd, "unexpected argument '%s'", argv[1]);
        goto done;
    }
    if (!config || !strategy) {
        cb_cli_error(cmd, "missing --%s", config ? "strategy NAME" : "config FILE");
        goto done;
    }
    bool botzone = protocol && strcmp(protocol, "botzone") == 0;
    if (protocol && !botzone && strcmp(protocol, "cardbot") != 0) {
        cb_cli_error(cmd, "--protocol: '%s' is not cardbot or botzone", protocol);
        goto done;
    }
    if (budget < 1) {
        cb_cli_error(cmd, "--budget-ms: %d is not a positive number of milliseconds", budget);
        goto done;
    }
    char err[512];
    s.shim = cb_shim_open(config, err, sizeof err);
    if (!s.shim) {
        cb_cli_error(cmd, "%s", err);
        goto done;
    }
    const cb_rules *r = cb_shim_rules(s.shim);
    if (botzone && r->game != CB_GAME_DDZ) {
        cb_cli_error(cmd, "--protocol botzone: the config's rules are %s; Botzone's FightTheLandlord2 is ddz", r->preset);
        goto done;
    }
    if (check_strategy(s.shim, config, strategy) != 0)
        goto done;
    const char *names[CB_MAX_SEATS] = {strategy, strategy, strategy};
    s.table = cb_table_new_seated(s.shim, names, r->players, err, sizeof err);
    if (!s.table) {
        cb_cli_error(cmd, "--strategy %s: %s", strategy, err);
        goto done;
    }
    /* the protocol gets its own copy of stdout; fd 1 itself goes to stderr, so nothing a
     * plugin prints can land inside an answer */
    fflush(stdout);
    out_fd = dup(1);
    if (out_fd < 0 || dup2(2, 1) < 0 || !(s.out = fdopen(out_fd, "w"))) {
        cb_cli_error(cmd, "cannot set up stdout: %s", strerror(errno));
        rc = 1;
        goto done;
    }
    out_fd = -1; /* s.out owns it */
    s.strategy = strategy;
    s.budget_ms = (uint32_t)budget;
    s.seed = (uint64_t)seed;
    s.keep_running = !once;
    rc = botzone ? cb_serve_botzone(&s, stdin) : serve_cardbot(&s, stdin);
done:
    if (s.out)
        fclose(s.out);
    if (out_fd >= 0)
        close(out_fd);
    cb_table_free(s.table);
    cb_shim_free(s.shim);
    g_free(config);
    g_free(strategy);
    g_free(protocol);
    return rc;
}
