/* cardbot — shared constants of the min-hands remainder tables (core/minhands.c and its
 * build-time generator core/minhands_gen.c; see the generator for what a profile is). */
#ifndef CARDBOT_CORE_MINHANDS_PROF_H
#define CARDBOT_CORE_MINHANDS_PROF_H

/* A profile (a1, a2, a3, a4) counts the ranks holding 1..4 cards: at most 13 non-joker ranks
 * plus a lone joker folded into a1, so a1 + a2 + a3 + a4 <= 14. */
#define CB_MH_AMAX 14
/* Number of profiles: tuples of 4 naturals with sum <= 14 = C(18, 4). */
#define CB_MH_NPROF 3060
/* "No partition" (never happens: singles always work), above any real answer. */
#define CB_MH_INF 120

#endif
