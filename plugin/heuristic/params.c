/* cardbot heuristic — the plugin's parameters: one table, parsed by plugin/common/params.c. */
#include <stddef.h>

#include "heuristic.h"

/* The names cb_hcfg_personality knows (plugin/common/personality.c says what each changes). */
const char *const heur_personalities[] = {"none", "bomber", "hoarder", "chain", "careless", NULL};

const cb_pdef heur_param_table[] = {
    {"level", CB_PT_INT, offsetof(heur_params, level), 1, 6, 6, 0, 0, 0, NULL, "a level", "6",
     "1 beginner .. 6 master: lower levels count fewer cards, skip team play and endgames, and sample "
     "among near-best plays"},
    {"seed", CB_PT_U64, offsetof(heur_params, seed), 0, UINT64_MAX, 0, 0, 0, 0, NULL, "an unsigned integer", "0",
     "extra seed mixed with each view's seed"},
    {"personality", CB_PT_CHOICE, offsetof(heur_params, personality), 0, 0, 0, 0, 0, 0, heur_personalities,
     "a personality", "none",
     "a style on top of `level` (default 6; bids stay the level's): bomber spends bombs early, hoarder keeps "
     "control cards and bombs, chain sheds long chains, careless plays without counting or team play and "
     "samples; none: the level itself"},
};
const int heur_param_count = (int)(sizeof heur_param_table / sizeof heur_param_table[0]);
