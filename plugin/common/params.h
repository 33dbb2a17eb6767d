/* cardbot plugins — one table of a plugin's parameters, one parser, one printer.
 *
 * A plugin declares each config key once, as a row of a cb_pdef table: its name, type, range,
 * default, and a one-line meaning. cb_params_parse sets every field to its default and then
 * reads the config's key/value pairs against the table, refusing an unknown key or a bad value
 * with a message that names the key (bot.h's create contract); cb_params_markdown prints the
 * same rows as the README's tables (tests/test_params_table.c keeps README in step). Checks
 * that span keys (both of two exclusive budgets, thresholds out of order) stay in the plugin,
 * after the parse: the mask of given keys tells it what the config said.
 */
#ifndef CARDBOT_PLUGIN_PARAMS_H
#define CARDBOT_PLUGIN_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cardbot/bot.h"

typedef enum cb_ptype {
    CB_PT_U64,    /* uint64_t field; an integer in [ulo, uhi] */
    CB_PT_U32,    /* uint32_t field; the same */
    CB_PT_INT,    /* int field; the same (uhi <= INT_MAX) */
    CB_PT_REAL,   /* double field; a finite number in [dlo, dhi] */
    CB_PT_CHOICE, /* int field; one of choices, stored as its index */
} cb_ptype;

typedef struct cb_pdef {
    const char *name;
    cb_ptype type;
    size_t off;                 /* offsetof the field in the plugin's parameter struct */
    uint64_t ulo, uhi, udef;    /* integers and choices: range (uhi UINT64_MAX: no upper bound
                                   printed) and the default (choices: its index) */
    double dlo, dhi, ddef;      /* CB_PT_REAL: range and default */
    const char *const *choices; /* CB_PT_CHOICE: the names, NULL-terminated */
    const char *what;           /* what a value is, for the message: "a count", "a probability" */
    const char *def_text;       /* the default as printed ("6"; "PDK 14, DDZ 12" when a plugin
                                   resolves a sentinel udef by game) */
    const char *meaning;        /* one line: what the key does */
} cb_pdef;

/* Parse params[0..nparams) into out (the plugin's parameter struct) against t[0..n), n <= 64:
 * every field of the table first gets its default, then each given key its value (a key given
 * twice: the last wins). Bit i of *given (may be NULL) is set when t[i] was given. Returns 0,
 * or -1 with "plugin: key: 'value' is not <what> <range>" or "plugin: unknown parameter 'key'
 * (known: ...)" in err. Integers are read by strtoull with base 0 (so 0x10 is 16); no sign, no
 * leading space. */
int cb_params_parse(const char *plugin, const cb_pdef *t, int n, const cb_param *params, int nparams, void *out,
                    uint64_t *given, char *err, size_t errlen);

/* t[0..n) as a Markdown table: key, type, range, default, meaning (one row per key). */
void cb_params_markdown(FILE *f, const cb_pdef *t, int n);

/* A message for a check that spans keys, in the parser's form: "plugin: key: text". -1. */
int cb_params_fail(char *err, size_t errlen, const char *plugin, const char *key, const char *text);

#endif
