/* cardbot rulebot — the plugin's parameters (rulebot.c is the plugin, rule.c the policy). */
#ifndef CARDBOT_RULEBOT_H
#define CARDBOT_RULEBOT_H

#include <stdint.h>

#include "../common/params.h"

enum { RB_RULE = 0, RB_RANDOM = 1 };

typedef struct rb_params {
    int style;     /* RB_RULE / RB_RANDOM */
    uint64_t seed;
} rb_params;

/* The keys, once (params.c): parsed by plugin/common/params.c, printed into README. */
extern const cb_pdef rb_param_table[];
extern const int rb_param_count;

#endif
