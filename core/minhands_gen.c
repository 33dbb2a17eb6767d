/* cardbot — build-time generator of the min-hands "remainder" tables (core/minhands.c).
 *
 * Built and run by the Makefile (block "min-hands tables") with -DCB_MINHANDS_GEN; it prints
 * build/<variant>/gen/minhands_tab.h. In the library build (no CB_MINHANDS_GEN) this file
 * compiles to nothing.
 *
 * The remainder is what is left once the chain plays (straights, pair chains, planes) are
 * chosen: it is split into non-chain plays only (single, pair, triple +-kickers, four +-kickers,
 * bomb, rocket). For those plays a rank's identity never matters — only how many cards it holds
 * — except for the jokers (no joker pair; the rocket; both jokers as four + 2's kickers) and the
 * PDK AAA bomb (handled in minhands.c). So the fewest plays of a remainder is a function of its
 * profile: a_k = number of non-joker ranks holding exactly k cards (k = 1..4), plus one bit "both
 * jokers are here" (a lone joker plays exactly like a rank holding one card, so it is counted in
 * a_1). For PDK a second coordinate says how many short plays (bare triple, 三带一) are still
 * allowed: none, one (short_triple = last) or any number (always).
 *
 * The kicker rules below are those of core/classify.c (read_triples, read_fours), restated as
 * "takes": a play takes t_1, t_2, ... cards from distinct ranks, e.g. DDZ four + 2 singles is
 * {4,1,1}, {4,2} (the two may be a pair), {4,1} + one joker, or {4} + both jokers (only with
 * rocket_kickers).
 */
#ifdef CB_MINHANDS_GEN

#include <stdio.h>
#include <string.h>

#include "minhands_prof.h"

typedef struct tmpl {
    int n;          /* takes */
    int t[4];       /* cards taken from distinct non-joker ranks */
    int jokers;     /* 0; 1 = one joker while both are present; 2 = both jokers */
    int is_short;   /* PDK short play */
} tmpl;

#define MAXT 24
typedef struct game_tmpls {
    int n;
    tmpl t[MAXT];
} game_tmpls;

static void add(game_tmpls *g, int jokers, int is_short, int n, int t0, int t1, int t2, int t3)
{
    tmpl *p = &g->t[g->n++];
    p->n = n;
    p->t[0] = t0;
    p->t[1] = t1;
    p->t[2] = t2;
    p->t[3] = t3;
    p->jokers = jokers;
    p->is_short = is_short;
}

/* DDZ: classify.c read_plain / read_triples / read_fours. */
static void ddz_tmpls(game_tmpls *g, int rocket_kickers)
{
    g->n = 0;
    add(g, 0, 0, 1, 1, 0, 0, 0); /* single */
    add(g, 1, 0, 0, 0, 0, 0, 0); /* one joker of both as a single */
    add(g, 0, 0, 1, 2, 0, 0, 0); /* pair */
    add(g, 0, 0, 1, 3, 0, 0, 0); /* triple */
    add(g, 0, 0, 2, 3, 1, 0, 0); /* triple + 1 */
    add(g, 1, 0, 1, 3, 0, 0, 0); /* triple + joker */
    add(g, 0, 0, 2, 3, 2, 0, 0); /* triple + pair */
    add(g, 0, 0, 1, 4, 0, 0, 0); /* bomb */
    add(g, 0, 0, 3, 4, 1, 1, 0); /* four + 2 singles */
    add(g, 0, 0, 2, 4, 2, 0, 0); /* four + 2 of one rank */
    add(g, 1, 0, 2, 4, 1, 0, 0); /* four + single + joker */
    if (rocket_kickers)
        add(g, 2, 0, 1, 4, 0, 0, 0); /* four + X + D */
    add(g, 0, 0, 3, 4, 2, 2, 0); /* four + two pairs of different ranks */
    add(g, 2, 0, 0, 0, 0, 0, 0); /* rocket */
}

/* NOIP 2015: four + 2 singles may be X + D; two of one rank only with four_two_same; the two
 * pairs of four + 2 pairs may share a rank (33334444). */
static void noip_tmpls(game_tmpls *g, int four_two_same)
{
    g->n = 0;
    add(g, 0, 0, 1, 1, 0, 0, 0);
    add(g, 1, 0, 0, 0, 0, 0, 0);
    add(g, 0, 0, 1, 2, 0, 0, 0);
    add(g, 0, 0, 1, 3, 0, 0, 0);
    add(g, 0, 0, 2, 3, 1, 0, 0);
    add(g, 1, 0, 1, 3, 0, 0, 0);
    add(g, 0, 0, 2, 3, 2, 0, 0);
    add(g, 0, 0, 1, 4, 0, 0, 0);
    add(g, 0, 0, 3, 4, 1, 1, 0);
    add(g, 1, 0, 2, 4, 1, 0, 0);
    add(g, 2, 0, 1, 4, 0, 0, 0);
    if (four_two_same)
        add(g, 0, 0, 2, 4, 2, 0, 0);
    add(g, 0, 0, 3, 4, 2, 2, 0);
    add(g, 0, 0, 2, 4, 4, 0, 0);
    add(g, 2, 0, 0, 0, 0, 0, 0);
}

/* PDK (no jokers): 三带二 = triple + any 2 of other ranks; short: bare triple, 三带一;
 * four_with bit 1: four + any 2, bit 2: four + any 3. */
static void pdk_tmpls(game_tmpls *g, int four_with)
{
    g->n = 0;
    add(g, 0, 0, 1, 1, 0, 0, 0);
    add(g, 0, 0, 1, 2, 0, 0, 0);
    add(g, 0, 0, 1, 4, 0, 0, 0);
    add(g, 0, 0, 3, 3, 1, 1, 0);
    add(g, 0, 0, 2, 3, 2, 0, 0);
    add(g, 0, 1, 1, 3, 0, 0, 0);
    add(g, 0, 1, 2, 3, 1, 0, 0);
    if (four_with & 1) {
        add(g, 0, 0, 3, 4, 1, 1, 0);
        add(g, 0, 0, 2, 4, 2, 0, 0);
    }
    if (four_with & 2) {
        add(g, 0, 0, 4, 4, 1, 1, 1);
        add(g, 0, 0, 3, 4, 2, 1, 0);
        add(g, 0, 0, 2, 4, 3, 0, 0);
    }
}

/* profile index <-> counts */
static int idx_of[CB_MH_AMAX + 1][CB_MH_AMAX + 1][CB_MH_AMAX + 1]; /* [a4][a3][a2] -> base */
static int prof_a[CB_MH_NPROF][5];

static void build_index(void)
{
    int n = 0;
    for (int a4 = 0; a4 <= CB_MH_AMAX; a4++)
        for (int a3 = 0; a3 + a4 <= CB_MH_AMAX; a3++)
            for (int a2 = 0; a2 + a3 + a4 <= CB_MH_AMAX; a2++) {
                idx_of[a4][a3][a2] = n;
                for (int a1 = 0; a1 + a2 + a3 + a4 <= CB_MH_AMAX; a1++) {
                    prof_a[n][1] = a1;
                    prof_a[n][2] = a2;
                    prof_a[n][3] = a3;
                    prof_a[n][4] = a4;
                    n++;
                }
            }
    if (n != CB_MH_NPROF) {
        fprintf(stderr, "minhands_gen: %d profiles, expected %d\n", n, CB_MH_NPROF);
        n = -1;
    }
}

static int index_of(const int *a)
{
    return idx_of[a[4]][a[3]][a[2]] + a[1];
}

/* memo over (profile, jokers bit, shorts 0/1/2) */
static int memo[CB_MH_NPROF][2][3];
static const game_tmpls *cur;

static int solve(const int *a, int j, int s);

/* Try template p with takes i.. assigned to source classes: avail holds the state with the
 * ranks chosen so far removed from their classes, land counts the classes they land in (so a
 * rank is never chosen twice for one play). */
static int try_takes(const tmpl *p, int i, int *avail, int *land, int j, int s)
{
    if (i == p->n) {
        int na[5];
        for (int c = 1; c <= 4; c++)
            na[c] = avail[c] + land[c];
        int nj = j;
        if (p->jokers == 1) {
            nj = 0;
            na[1]++; /* the other joker is now a lone one */
        } else if (p->jokers == 2) {
            nj = 0;
        }
        int ns = p->is_short ? (s == 2 ? 2 : 0) : s;
        return solve(na, nj, ns);
    }
    int best = CB_MH_INF;
    for (int c = p->t[i]; c <= 4; c++) {
        if (avail[c] == 0)
            continue;
        avail[c]--;
        land[c - p->t[i]]++;
        int v = try_takes(p, i + 1, avail, land, j, s);
        if (v < best)
            best = v;
        land[c - p->t[i]]--;
        avail[c]++;
    }
    return best;
}

static int solve(const int *a, int j, int s)
{
    int id = index_of(a);
    if (memo[id][j][s] >= 0)
        return memo[id][j][s];
    int best;
    if (a[1] + a[2] + a[3] + a[4] == 0 && j == 0) {
        best = 0;
    } else {
        best = CB_MH_INF;
        for (int k = 0; k < cur->n; k++) {
            const tmpl *p = &cur->t[k];
            if (p->jokers && !j)
                continue;
            if (p->is_short && s == 0)
                continue;
            int avail[5], land[5] = { 0, 0, 0, 0, 0 };
            memcpy(avail, a, sizeof avail);
            int v = try_takes(p, 0, avail, land, j, s);
            if (v + 1 < best)
                best = v + 1;
        }
    }
    memo[id][j][s] = best;
    return best;
}

static void fill(const game_tmpls *g, int nj, int ns, unsigned char *out /* [nj][ns][NPROF] */)
{
    cur = g;
    memset(memo, -1, sizeof memo);
    for (int j = 0; j < nj; j++)
        for (int s = 0; s < ns; s++)
            for (int id = 0; id < CB_MH_NPROF; id++) {
                int a[5] = { 0, prof_a[id][1], prof_a[id][2], prof_a[id][3], prof_a[id][4] };
                int v;
                if (j == 1 && a[1] + a[2] + a[3] + a[4] > CB_MH_AMAX - 1)
                    v = CB_MH_INF; /* both jokers and 14 other ranks: no such hand */
                else
                    v = solve(a, j, s); /* s: 0 no short play left, 1 one, 2 unlimited */
                out[((size_t)j * (size_t)ns + (size_t)s) * CB_MH_NPROF + (size_t)id] =
                    (unsigned char)v;
            }
}

static void print_table(const char *name, const unsigned char *t, int d1, int d2)
{
    printf("static const uint8_t %s[%d][%d][CB_MH_NPROF] = {\n", name, d1, d2);
    for (int i = 0; i < d1; i++) {
        printf("  {\n");
        for (int k = 0; k < d2; k++) {
            printf("    {");
            const unsigned char *row = t + ((size_t)i * (size_t)d2 + (size_t)k) * CB_MH_NPROF;
            for (int id = 0; id < CB_MH_NPROF; id++)
                printf("%s%s%d", id ? "," : "", id % 40 ? "" : "\n     ", row[id]);
            printf("\n    },\n");
        }
        printf("  },\n");
    }
    printf("};\n\n");
}

static unsigned char ddz_t[2][2][CB_MH_NPROF];
static unsigned char noip_t[2][2][CB_MH_NPROF];
static unsigned char pdk_t[4][3][CB_MH_NPROF];

int main(void)
{
    build_index();
    game_tmpls g;
    for (int rk = 0; rk < 2; rk++) {
        ddz_tmpls(&g, rk);
        fill(&g, 2, 1, &ddz_t[rk][0][0]);
        noip_tmpls(&g, rk);
        fill(&g, 2, 1, &noip_t[rk][0][0]);
    }
    for (int fw = 0; fw < 4; fw++) {
        pdk_tmpls(&g, fw);
        fill(&g, 1, 3, &pdk_t[fw][0][0]);
    }

    printf("/* Generated by core/minhands_gen.c (make): do not edit. */\n");
    printf("#ifndef CARDBOT_CORE_MINHANDS_TAB_H\n#define CARDBOT_CORE_MINHANDS_TAB_H\n\n");
    printf("/* profile (a1, a2, a3, a4) -> index = cb_mh_base[a4][a3][a2] + a1 */\n");
    printf("static const uint16_t cb_mh_base[%d][%d][%d] = {\n", CB_MH_AMAX + 1, CB_MH_AMAX + 1,
           CB_MH_AMAX + 1);
    for (int a4 = 0; a4 <= CB_MH_AMAX; a4++) {
        printf("  {");
        for (int a3 = 0; a3 <= CB_MH_AMAX; a3++) {
            printf("\n    {");
            for (int a2 = 0; a2 <= CB_MH_AMAX; a2++) {
                int ok = a2 + a3 + a4 <= CB_MH_AMAX;
                printf("%s%d", a2 ? "," : "", ok ? idx_of[a4][a3][a2] : 0);
            }
            printf("},");
        }
        printf("\n  },\n");
    }
    printf("};\n\n");
    printf("/* [rocket_kickers][both jokers][profile] */\n");
    print_table("cb_mh_ddz_tab", &ddz_t[0][0][0], 2, 2);
    printf("/* [four_two_same][both jokers][profile] */\n");
    print_table("cb_mh_noip_tab", &noip_t[0][0][0], 2, 2);
    printf("/* [four_with][short plays left: 0, 1, unlimited][profile] */\n");
    print_table("cb_mh_pdk_tab", &pdk_t[0][0][0], 4, 3);
    printf("#endif\n");
    return 0;
}

#else
/* Library build: the generator is not part of libcbcore. */
typedef int cb_minhands_gen_not_built;
#endif
