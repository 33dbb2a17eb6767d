/* Fuzz target "config": the shim's INI loader (cb_shim_open, cb_shim_reload) on fuzzed text.
 *
 * Input: the config text, then optionally a NUL and a second text for a reload. Before it is
 * written to a temp file, every line that could make the shim load code from outside this
 * test's control is dropped — any '/', any plugin_dir (a fixed one naming a directory of
 * harmless test plugins is put first in the [shim] group: lowest, viewecho, passer, failing,
 * illegal) — and so
 * are the process-isolation keys (isolation, sandbox, worker_*): forking a worker per input
 * fuzzes fork, not the parser. The plugin search path's environment variable is unset.
 * Checked: open and reload never crash or leak; a refusal says why; a shim that opened has
 * rules, tables whose seats describe themselves, and answers a real decision (the engine's
 * view of the seat to act) with a legal bid or play; a failed reload keeps the rules (same
 * pointer, same values) and the tables running; everything frees.
 */
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cardbot/game.h"
#include "cardbot/shim.h"
#include "fuzzkit.h"

static char conf_path[4096], plugdir[4096];

static void setup(void)
{
    if (plugdir[0])
        return;
    const char *tmp = getenv("CB_FUZZ_TMP");
    const char *b = getenv("CB_BUILD");
    char base[4096];
    if (tmp && *tmp) {
        snprintf(base, sizeof base, "%s", tmp);
    } else {
        snprintf(base, sizeof base, "/tmp/cbfuzz-config-%d", (int)getpid());
        if (mkdir(base, 0700) != 0 && errno != EEXIST)
            fz_fail("mkdir %s: %s", base, strerror(errno));
    }
    char cwd[2048];
    if (!getcwd(cwd, sizeof cwd))
        fz_fail("getcwd");
    snprintf(plugdir, sizeof plugdir, "%s/plugins", base);
    if (mkdir(plugdir, 0700) != 0 && errno != EEXIST)
        fz_fail("mkdir %s: %s", plugdir, strerror(errno));
    static const char *const safe[] = {"lowest", "viewecho", "passer", "failing", "illegal"};
    for (size_t i = 0; i < sizeof safe / sizeof safe[0]; i++) {
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s/tests/plugins/%s.so", b && b[0] == '/' ? "" : cwd,
                 b ? b : "build/fuzz", safe[i]);
        snprintf(to, sizeof to, "%s/%s.so", plugdir, safe[i]);
        if (access(from, R_OK) != 0)
            fz_fail("test plugin %s missing (CB_BUILD=%s)", from, b ? b : "");
        (void)unlink(to);
        if (symlink(from, to) != 0)
            fz_fail("symlink %s: %s", to, strerror(errno));
    }
    snprintf(conf_path, sizeof conf_path, "%s/fuzz.ini", base);
    unsetenv("CARDBOT_PLUGIN_PATH");
}

static bool line_allowed(const char *l, size_t n)
{
    static const char *const banned[] = {"plugin_dir", "isolation", "sandbox", "worker_"};
    if (memchr(l, '/', n))
        return false;
    for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++) {
        size_t bl = strlen(banned[i]);
        for (size_t j = 0; j + bl <= n; j++)
            if (memcmp(l + j, banned[i], bl) == 0)
                return false;
    }
    return true;
}

/* Is the line the header of a [shim] group, as GKeyFile reads one (blanks around it)? */
static bool shim_header(const char *l, size_t n)
{
    while (n && (*l == ' ' || *l == '\t')) {
        l++;
        n--;
    }
    while (n && (l[n - 1] == ' ' || l[n - 1] == '\t' || l[n - 1] == '\r'))
        n--;
    return n == 6 && memcmp(l, "[shim]", 6) == 0;
}

/* Write the filtered text with a plugin_dir line of our own: first in the text's first [shim]
 * group, or in a [shim] group before the text when it has none (the shim refuses a group
 * written twice, so a second [shim] would only ever test that refusal). */
static void write_conf(const char *text, size_t n)
{
    FILE *f = fopen(conf_path, "w");
    if (!f)
        fz_fail("%s: %s", conf_path, strerror(errno));
    bool has_shim = false;
    for (size_t i = 0; i < n && !has_shim;) {
        const char *nl = memchr(text + i, '\n', n - i);
        size_t len = nl ? (size_t)(nl - (text + i)) : n - i;
        has_shim = shim_header(text + i, len);
        i += len + 1;
    }
    if (!has_shim)
        fprintf(f, "[shim]\nplugin_dir = %s\n", plugdir);
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(text + i, '\n', n - i);
        size_t len = nl ? (size_t)(nl - (text + i)) : n - i;
        if (line_allowed(text + i, len)) {
            fwrite(text + i, 1, len, f);
            fputc('\n', f);
            if (has_shim && shim_header(text + i, len)) {
                fprintf(f, "plugin_dir = %s\n", plugdir);
                has_shim = false; /* once: a second [shim] is refused anyway */
            }
        }
        i += len + 1;
    }
    fclose(f);
}

/* A real decision: the engine's view of the seat to act, answered legally. */
static void decide_once(cb_table *t, const cb_rules *r, uint64_t key, int actions)
{
    cb_engine_opts o = {.struct_size = sizeof o, .key = key, .first_bidder = -1, .landlord = -1};
    char err[200];
    cb_engine *e = cb_engine_new(r, &o, err, sizeof err);
    FZ_CHECK(e != NULL, "cb_engine_new on the shim's rules (%s): %s", r->preset, err);
    /* a few actions in, so not every view is the first */
    for (int i = 0; i < actions && cb_engine_phase(e) != CB_PHASE_OVER; i++) {
        if (cb_engine_phase(e) == CB_PHASE_BID) {
            int32_t b[4];
            FZ_CHECK(cb_engine_legal_bids(e, b, 4) > 0, "no legal bid");
            FZ_CHECK(cb_engine_bid(e, b[0], err, sizeof err) == 0, "bid: %s", err);
        } else {
            static cb_cards p[CB_MOVES_CAP];
            int n = cb_engine_legal_plays(e, p, CB_MOVES_CAP);
            FZ_CHECK(n > 0 && n <= CB_MOVES_CAP, "legal plays: %d", n);
            FZ_CHECK(cb_engine_play(e, p[n - 1], err, sizeof err) == 0, "play: %s", err);
        }
    }
    if (cb_engine_phase(e) != CB_PHASE_OVER) {
        cb_view v;
        FZ_CHECK(cb_engine_view(e, cb_engine_turn(e), 0, &v) == 0, "cb_engine_view");
        cb_decision d;
        memset(&d, 0, sizeof d);
        d.struct_size = sizeof d;
        if (v.phase == CB_PHASE_BID) {
            int rc = cb_decide_bid(t, &v, &d);
            FZ_CHECK(rc >= 0, "cb_decide_bid on a real view: %d (%s)", rc, cb_table_last_error(t));
            FZ_CHECK(cb_engine_bid(e, d.bid, err, sizeof err) == 0, "the shim's bid %d is refused: %s", d.bid, err);
        } else {
            int rc = cb_decide_play(t, &v, &d);
            FZ_CHECK(rc >= 0, "cb_decide_play on a real view: %d (%s)", rc, cb_table_last_error(t));
            FZ_CHECK(cb_engine_play(e, d.cards, err, sizeof err) == 0, "the shim's play is refused: %s", err);
        }
    }
    cb_engine_free(e);
}

static void look_at(cb_table *t)
{
    for (int seat = 0; seat < 3; seat++) {
        const char *name = cb_table_strategy(t, seat);
        cb_seat_info si;
        memset(&si, 0, sizeof si);
        si.struct_size = sizeof si;
        FZ_CHECK(cb_table_seat_info(t, seat, &si) == 0, "cb_table_seat_info(%d): %s", seat, cb_table_last_error(t));
        FZ_CHECK((name == NULL) == (si.strategy == NULL), "seat %d: strategy %s, seat_info says %s", seat,
                 name ? name : "(none)", si.strategy ? si.strategy : "(none)");
        if (name)
            FZ_CHECK(strcmp(name, si.strategy) == 0 && si.plugin_path && si.plugin_name && si.plugin_version,
                     "seat %d: seat_info incomplete", seat);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size > 8192)
        return 0;
    const char *text = (const char *)data;
    const uint8_t *nul = memchr(data, 0, size);
    size_t n1 = nul ? (size_t)(nul - data) : size;
    write_conf(text, n1);
    char err[1024];
    err[0] = '\0';
    cb_shim *s = cb_shim_open(conf_path, err, sizeof err);
    if (!s) {
        FZ_CHECK(err[0] != '\0', "cb_shim_open refused without a message");
        return 0;
    }
    const cb_rules *r = cb_shim_rules(s);
    FZ_CHECK(r != NULL, "an open shim without rules");
    cb_rules before = *r;
    (void)cb_shim_get(s, "game", "rules");
    (void)cb_shim_get(s, "match", "seed");
    (void)cb_shim_get(s, "nope", "nope");
    cb_table *t = cb_table_new(s, NULL, err, sizeof err);
    cb_table *t1 = cb_table_new(s, "t1", err, sizeof err);
    uint64_t key = size;
    if (t) {
        look_at(t);
        decide_once(t, r, key, (int)(size % 7));
    }
    if (nul) {
        write_conf((const char *)nul + 1, size - n1 - 1);
        err[0] = '\0';
        int rc = cb_shim_reload(s, err, sizeof err);
        FZ_CHECK(rc == 0 || err[0] != '\0', "cb_shim_reload failed without a message");
        FZ_CHECK(cb_shim_rules(s) == r && cb_rules_equal(r, &before), "a reload (rc %d) changed the rules", rc);
        if (t) {
            look_at(t);
            decide_once(t, r, key + 1, (int)(size % 5));
        }
        if (t1)
            decide_once(t1, r, key + 2, 0);
    }
    cb_strategy_stats st[16];
    int ns = cb_shim_stats(s, st, 16);
    FZ_CHECK(ns >= 0, "cb_shim_stats: %d", ns);
    if (t1)
        cb_table_free(t1);
    if (t)
        cb_table_free(t);
    cb_shim_free(s);
    return 0;
}
