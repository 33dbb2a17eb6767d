/* cardbot rulebot — the plugin's parameters: one table, parsed by plugin/common/params.c. */
#include <stddef.h>
#include <stdint.h>

#include "rulebot.h"

static const char *const rb_styles[] = {"rule", "random", NULL}; /* RB_* order */

const cb_pdef rb_param_table[] = {
    {"style", CB_PT_CHOICE, offsetof(rb_params, style), 0, 0, RB_RULE, 0, 0, 0, rb_styles, "a style", "rule",
     "rule: the rule agent; random: a uniformly random legal play and bid (a floor)"},
    {"seed", CB_PT_U64, offsetof(rb_params, seed), 0, UINT64_MAX, 0, 0, 0, 0, NULL, "an unsigned integer", "0",
     "extra seed mixed with each view's seed (random style only)"},
};
const int rb_param_count = (int)(sizeof rb_param_table / sizeof rb_param_table[0]);
