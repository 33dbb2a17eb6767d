/* The `cardbot` command's tools end to end: runs $CB_BUILD/cardbot (default build/plain) and
 * checks stdout, stderr and the exit status of classify, moves, minhands, universe and of every
 * kind of bad input (a one-line message naming the problem, exit 2, never a crash). */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "cardbot/game.h"
#include "cardbot/rules.h"

typedef struct {
    int status; /* exit status, or 128 + signal */
    char *out, *err;
} run_result;

static void run_result_clear(run_result *r)
{
    g_free(r->out);
    g_free(r->err);
    memset(r, 0, sizeof *r);
}

/* child_setup runs in the forked child just before exec: point stdin at the input file. */
static void stdin_from(gpointer path)
{
    int fd = open((const char *)path, O_RDONLY);
    if (fd >= 0) {
        dup2(fd, 0);
        close(fd);
    }
}

/* Run cardbot with args (NULL-terminated) and optional stdin text. */
static run_result run_in(const char *input, const char *const *args)
{
    const char *build = g_getenv("CB_BUILD");
    char *bin = g_strdup_printf("%s/cardbot", build && *build ? build : "build/plain");
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, bin);
    for (int i = 0; args[i]; i++)
        g_ptr_array_add(argv, (gpointer)args[i]);
    g_ptr_array_add(argv, NULL);

    char *inpath = NULL;
    if (input) {
        GError *e = NULL;
        int fd = g_file_open_tmp("cardbot-cli-XXXXXX", &inpath, &e);
        assert_true(fd >= 0);
        size_t n = strlen(input);
        assert_int_equal(write(fd, input, n), (ssize_t)n);
        close(fd);
    }

    run_result r = {0};
    int wait_status = 0;
    GError *error = NULL;
    gboolean ok = g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT,
                               input ? stdin_from : NULL, inpath, &r.out, &r.err, &wait_status, &error);
    if (!ok) {
        print_error("cannot run %s: %s (build it first: make)\n", bin, error->message);
        g_error_free(error);
        fail();
    }
    if (WIFEXITED(wait_status))
        r.status = WEXITSTATUS(wait_status);
    else if (WIFSIGNALED(wait_status))
        r.status = 128 + WTERMSIG(wait_status);
    else
        r.status = -1;
    if (inpath) {
        unlink(inpath);
        g_free(inpath);
    }
    g_ptr_array_free(argv, TRUE);
    g_free(bin);
    return r;
}

#define RUN(input, ...) run_in((input), (const char *const[]){__VA_ARGS__, NULL})

/* Expect status and exact stdout; stderr must be empty on success paths. */
static void expect(run_result *r, int status, const char *out)
{
    if (r->status != status || (out && strcmp(r->out, out) != 0)) {
        print_error("status %d (want %d)\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\n", r->status, status,
                    r->out, out ? out : "(any)", r->err);
        run_result_clear(r); /* fail() jumps out: free first so LeakSanitizer stays quiet */
        fail();
    }
}

/* ---- classify ---- */

static void classify_is(const char *rules, const char *cards, const char *want)
{
    run_result r = RUN(NULL, "classify", "--rules", rules, cards);
    expect(&r, 0, want);
    assert_string_equal(r.err, "");
    run_result_clear(&r);
}

static void test_classify(void **state)
{
    (void)state;
    char *want = g_strdup_printf("%s main=3 len=1 kickers=44 cards=33344\n", cb_shape_names[CB_TRIPLE_2]);
    classify_is("ddz", "33344", want);
    classify_is("ddz", "4 4 3 3 3", want);   /* any order, spaces: canonical text back */
    classify_is("ddz", "3s3h3c4s4d", want);  /* suits accepted */
    g_free(want);

    want = g_strdup_printf("%s main=3 len=7 kickers=- cards=3456789\n", cb_shape_names[CB_STRAIGHT]);
    classify_is("ddz", "9876543", want);
    g_free(want);
    want = g_strdup_printf("%s main=3 len=2 kickers=56 cards=33344456\n", cb_shape_names[CB_PLANE_1]);
    classify_is("ddz", "333444 5 6", want);
    g_free(want);
    want = g_strdup_printf("%s main=X len=1 kickers=- cards=XD\n", cb_shape_names[CB_ROCKET]);
    classify_is("ddz", "DX", want);
    g_free(want);
    want = g_strdup_printf("%s main=T len=1 kickers=- cards=TTTT\n", cb_shape_names[CB_BOMB]);
    classify_is("pdk16", "10 10 10 10", want);
    g_free(want);

    /* An illegal play: exit 1, "illegal: reason" on stdout. */
    run_result r = RUN(NULL, "classify", "--rules", "ddz", "34");
    expect(&r, 1, NULL);
    assert_true(g_str_has_prefix(r.out, "illegal: "));
    assert_true(strlen(r.out) > strlen("illegal: \n"));
    run_result_clear(&r);
}

/* ---- moves ---- */

static void moves_are(const char *want, const char *const *args)
{
    run_result r = run_in(NULL, args);
    expect(&r, 0, want);
    assert_string_equal(r.err, "");
    run_result_clear(&r);
}

#define MOVES(want, ...) moves_are((want), (const char *const[]){"moves", __VA_ARGS__, NULL})

static void test_moves(void **state)
{
    (void)state;
    /* Leading with a full house: every part of it, sorted by size then rank order. */
    MOVES("3\n4\n33\n44\n333\n3334\n33344\n", "--rules", "ddz", "--hand", "33344");
    /* Following a pair: pass first, the higher pair, the rocket. */
    MOVES("pass\n44\nXD\n", "--rules", "ddz", "--hand", "4 4 5 X D", "--beat", "33");
    MOVES("pass\n", "--rules", "ddz", "--hand", "3", "--beat", "3");
    /* Rank order, not ASCII order: T < J < Q < K < A < 2. */
    MOVES("pass\nJ\nA\n2\n", "--rules", "ddz", "--hand", "2AJ", "--beat", "T");
    /* PDK must_beat: holding a higher pair forbids the pass; the flag lifts it. */
    MOVES("55\n", "--rules", "pdk16", "--hand", "557", "--beat", "44");
    MOVES("pass\n55\n", "--rules", "pdk16", "--flag", "must_beat=false", "--hand", "557", "--beat", "44");
    /* 报单必顶: the next seat holds one card, so a single must be the highest. */
    MOVES("3\n5\n9\n", "--rules", "pdk16", "--hand", "359");
    MOVES("9\n", "--rules", "pdk16", "--hand", "359", "--next-has-one");
    /* a flag of another game at its value in this game's preset changes nothing: accepted */
    MOVES("3\n", "--rules", "ddz", "--flag", "bao=false", "--flag", "short_triple=always", "--hand", "3");
    MOVES("3\n", "--rules", "pdk16", "--flag", "rob=false", "--hand", "3");
}

/* ---- minhands ---- */

static void test_minhands(void **state)
{
    (void)state;
    run_result r = RUN("33344\n\n3456789TJ\n3 5 7 9 J\r\n", "minhands", "--rules", "ddz");
    expect(&r, 0, "1\n\n1\n5\n");
    assert_string_equal(r.err, "");
    run_result_clear(&r);

    /* A bad line: message naming line 2 and the character; later lines still answered. */
    r = RUN("33\n33Z\n4\n", "minhands", "--rules", "ddz");
    expect(&r, 2, "1\n\n1\n");
    assert_non_null(strstr(r.err, "line 2"));
    assert_non_null(strstr(r.err, "'Z'"));
    run_result_clear(&r);
}

/* ---- universe ---- */

static void test_universe(void **state)
{
    (void)state;
    run_result r = RUN(NULL, "universe", "--rules", "ddz", "--count");
    expect(&r, 0, "27471\n");
    run_result_clear(&r);

    /* The listing: as many lines, each a play, strictly increasing in the listing order. */
    r = RUN(NULL, "universe", "--rules", "ddz");
    expect(&r, 0, NULL);
    char **lines = g_strsplit(r.out, "\n", -1);
    int n = 0;
    cb_move prev = {0};
    for (; lines[n] && lines[n][0]; n++) {
        cb_move m = {0};
        assert_int_equal(cb_counts_parse(lines[n], CB_FULL_DECK, &m.counts, NULL, 0), 0);
        if (n > 0) {
            int pn = cb_counts_total(prev.counts), mn = cb_counts_total(m.counts);
            assert_true(pn <= mn);
            if (pn == mn) {
                char a[64], b[64];
                cb_counts_format(prev.counts, a, sizeof a);
                cb_counts_format(m.counts, b, sizeof b);
                int cmp = 0; /* compare by rank index, character by character */
                for (int i = 0; a[i] && !cmp; i++)
                    cmp = (int)(strchr(cb_rank_chars, a[i]) - strchr(cb_rank_chars, b[i]));
                if (cmp >= 0) {
                    print_error("not sorted: %s before %s\n", a, b);
                    fail();
                }
            }
        }
        prev = m;
    }
    assert_int_equal(n, 27471);
    assert_string_equal(lines[0], "3");
    g_strfreev(lines);
    run_result_clear(&r);
}

/* ---- help ---- */

static void test_help(void **state)
{
    (void)state;
    run_result r = RUN(NULL, "--help");
    expect(&r, 0, NULL);
    const char *subs[] = {"classify", "moves", "minhands", "universe"};
    for (size_t i = 0; i < G_N_ELEMENTS(subs); i++)
        assert_non_null(strstr(r.out, subs[i]));
    run_result_clear(&r);

    /* --version names this build's version and the library actually loaded */
    r = RUN(NULL, "--version");
    expect(&r, 0, NULL);
    char want[64];
    snprintf(want, sizeof want, "cardbot %s (libcardbot %s, plugin ABI %d.%d)", CB_VERSION, CB_VERSION, CB_ABI_MAJOR,
             CB_ABI_MINOR);
    assert_non_null(strstr(r.out, want));
    run_result_clear(&r);

    r = RUN(NULL, "moves", "--help");
    expect(&r, 0, NULL);
    assert_non_null(strstr(r.out, "--hand"));
    assert_non_null(strstr(r.out, "must_beat")); /* the flag names are listed */
    run_result_clear(&r);
}

/* minhands on input no hand list has: a NUL byte (refused, exit 2), a directory on stdin (a
 * read error, exit 1, not silence). Through sh for the byte and the redirection. */
static void test_stdin_faults(void **state)
{
    (void)state;
    const char *build = g_getenv("CB_BUILD");
    char *nul = g_strdup_printf("printf '3344\\n33\\00044\\n55\\n' | %s/cardbot minhands --rules pdk16",
                                build && *build ? build : "build/plain");
    char *dir = g_strdup_printf("%s/cardbot minhands --rules pdk16 < /", build && *build ? build : "build/plain");
    const struct {
        const char *cmd;
        int status;
        const char *out, *err;
    } cases[] = {{nul, 2, "2\n\n1\n", "line 2: a NUL byte"}, {dir, 1, "", "cannot read stdin"}};
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *argv[] = {"/bin/sh", "-c", (char *)cases[i].cmd, NULL};
        char *out = NULL, *err = NULL;
        int ws = 0;
        assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &ws, NULL));
        print_message("%s -> %d, %s", cases[i].cmd, WEXITSTATUS(ws), err);
        assert_true(WIFEXITED(ws));
        assert_int_equal(WEXITSTATUS(ws), cases[i].status);
        assert_string_equal(out, cases[i].out);
        assert_non_null(strstr(err, cases[i].err));
        g_free(out);
        g_free(err);
    }
    g_free(nul);
    g_free(dir);
}

/* ---- bad input: one line on stderr naming the problem, exit 2 ---- */

typedef struct {
    const char *input;   /* stdin, or NULL */
    const char *needle;  /* must appear in the message */
    const char *args[12];
} bad_case;

static const bad_case bad_cases[] = {
    {NULL, "3s already used", {"moves", "--rules", "pdk16", "--hand", "3s4s", "--beat", "3s"}},
    {NULL, "'\xe9\xa1\xba'", {"moves", "--rules", "pdk16", "--hand", "3\xe9\xa1\xba" "4"}},
{NULL, "subcommand", {NULL}},
    {NULL, "'nosuch'", {"nosuch"}},
    {NULL, "--rules", {"classify", "333"}},
    {NULL, "--rules", {"classify", "--rules"}},
    {NULL, "'nosuch'", {"classify", "--rules", "nosuch", "333"}},
    {NULL, "pdk16", {"classify", "--rules", "nosuch", "333"}}, /* lists the known presets */
    {NULL, "--bogus", {"classify", "--rules", "ddz", "--bogus", "333"}},
    {NULL, "nosuch", {"classify", "--rules", "ddz", "--flag", "nosuch=1", "333"}},
    {NULL, "must_beat", {"classify", "--rules", "ddz", "--flag", "must_beat=maybe", "333"}},
    {NULL, "KEY=VALUE", {"classify", "--rules", "ddz", "--flag", "must_beat", "333"}},
    {NULL, "KEY=VALUE", {"classify", "--rules", "ddz", "--flag", "=1", "333"}},
    {NULL, "min_pair_chain", {"classify", "--rules", "pdk16", "--flag", "min_pair_chain=9", "3"}},
    /* a flag the game does not play: refused naming it, as a config's [rules] key is */
    {NULL, "'bao': a PDK rule, not used by ddz", {"moves", "--rules", "ddz", "--flag", "bao=true", "--hand", "3"}},
    {NULL, "'short_triple'", {"classify", "--rules", "ddz", "--flag", "short_triple=never", "333"}},
    {NULL, "'card_points'", {"classify", "--rules", "ddz", "--flag", "card_points=2", "3"}},
    {NULL, "'rob': a DDZ rule, not used by pdk16", {"moves", "--rules", "pdk16", "--flag", "rob=true", "--hand", "3"}},
    {NULL, "'rocket_kickers'", {"classify", "--rules", "guanpai", "--flag", "rocket_kickers=on", "3"}},
    {NULL, "'four_two_same'", {"classify", "--rules", "ddz", "--flag", "four_two_same=true", "3"}},
    {NULL, "CARDS", {"classify", "--rules", "ddz"}},
    {NULL, "CARDS", {"classify", "--rules", "ddz", ""}},
    {NULL, "at most 20", {"moves", "--rules", "ddz", "--hand", "33334444555566667777X"}},
    {NULL, "too many cards", {"classify", "--rules", "ddz", "3333333333333333333333333333333333333333333333333333333333333333333333333"}},
    {NULL, "'Z'", {"classify", "--rules", "ddz", "33Z4"}},
    {NULL, "'33333'", {"classify", "--rules", "ddz", "33333"}},
    {NULL, "duplicate", {"classify", "--rules", "ddz", "3s3s"}},
    {NULL, "not in the deck", {"classify", "--rules", "pdk16", "X"}},
    {NULL, "--hand", {"moves", "--rules", "ddz"}},
    {NULL, "--hand", {"moves", "--rules", "ddz", "--hand", ""}},
    {NULL, "'w'", {"moves", "--rules", "ddz", "--hand", "33w"}},
    {NULL, "--beat", {"moves", "--rules", "ddz", "--hand", "33", "--beat", "34"}},
    {NULL, "'!'", {"moves", "--rules", "ddz", "--hand", "33", "--beat", "4!"}},
    {NULL, "rank 3", {"moves", "--rules", "ddz", "--hand", "3333", "--beat", "3"}},
    {NULL, "'extra'", {"moves", "--rules", "ddz", "--hand", "33", "extra"}},
    {NULL, "--rules", {"moves", "--hand", "33"}},
    {NULL, "'extra'", {"universe", "--rules", "ddz", "extra"}},
    {NULL, "'nosuch'", {"universe", "--rules", "nosuch", "--count"}},
    {NULL, "'extra'", {"minhands", "--rules", "ddz", "extra"}},
    {"XD\n", "line 1", {"minhands", "--rules", "pdk16"}},
    {"3\n3456789TJQKA3456789TJQKA\n", "line 2", {"minhands", "--rules", "ddz"}},
    /* a strategy the config lacks: said in the option's terms, with the ones it has */
    {NULL, "cardbot serve: --strategy nosuch: config/pdk16.ini has no [strategy.nosuch] (it has: ismcts, heuristic, "
           "safe)\n",
     {"serve", "--config", "config/pdk16.ini", "--strategy", "nosuch"}},
};

static void test_bad_input(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
        const bad_case *c = &bad_cases[i];
        run_result r = run_in(c->input, c->args);
        char *cmdline = g_strjoinv(" ", (char **)c->args);
        const char *nl = strchr(r.err, '\n');
        bool one_line = nl && nl[1] == 0;
        if (r.status != 2 || !one_line || !strstr(r.err, c->needle)) {
            print_error("cardbot %s: status %d (want 2), stderr %s(want one line naming %s):\n%s\n",
                        cmdline, r.status, one_line ? "" : "NOT one line ", c->needle, r.err);
            bad++;
        }
        g_free(cmdline);
        run_result_clear(&r);
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_minhands),
        cmocka_unit_test(test_universe),
        cmocka_unit_test(test_help), cmocka_unit_test(test_stdin_faults),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
