/* cardbot heuristic — the plugin's parameters (shared by its files). */
#ifndef CARDBOT_HEURISTIC_H
#define CARDBOT_HEURISTIC_H

#include <stdint.h>

#include "../common/params.h"

typedef struct heur_params {
    int level;       /* 1 beginner .. 6 master */
    uint64_t seed;   /* mixed with each view's seed */
    int personality; /* index into heur_personalities */
} heur_params;

/* The parameter table (params.c): every key once, for the parser and the README's table. */
extern const cb_pdef heur_param_table[];
extern const int heur_param_count;
/* The personality key's names (NULL-terminated), index 0 "none": what cb_hcfg_personality
 * (plugin/common/policy.h) is given. */
extern const char *const heur_personalities[];

#endif
