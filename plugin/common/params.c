/* cardbot plugins — the parameter table's parser and printer (see params.h). */
#include "params.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An unsigned integer, the whole string: no sign, no space, no overflow. */
static int read_u64(const char *s, uint64_t *out)
{
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || !end || *end)
        return -1;
    *out = v;
    return 0;
}

/* A finite number, the whole string. */
static int read_real(const char *s, double *out)
{
    if (!*s || *s == ' ')
        return -1;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || !end || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int read_choice(const char *s, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* The range as printed in messages and tables: "1..64", "0..1", "fast, heuristic, random";
 * empty for an integer without an upper bound. */
static void range_text(const cb_pdef *d, char *buf, size_t len)
{
    buf[0] = '\0';
    if (d->type == CB_PT_REAL) {
        snprintf(buf, len, "%g..%g", d->dlo, d->dhi);
    } else if (d->type == CB_PT_CHOICE) {
        size_t at = 0;
        for (int i = 0; d->choices[i] && at < len; i++)
            at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", d->choices[i]);
    } else if (d->uhi != UINT64_MAX) {
        snprintf(buf, len, "%llu..%llu", (unsigned long long)d->ulo, (unsigned long long)d->uhi);
    }
}

static void set_default(const cb_pdef *d, char *base)
{
    switch (d->type) {
    case CB_PT_U64: *(uint64_t *)(base + d->off) = d->udef; break;
    case CB_PT_U32: *(uint32_t *)(base + d->off) = (uint32_t)d->udef; break;
    case CB_PT_INT:
    case CB_PT_CHOICE: *(int *)(base + d->off) = (int)(int64_t)d->udef; break;
    case CB_PT_REAL: *(double *)(base + d->off) = d->ddef; break;
    }
}

/* Store v into d's field; 0, or -1 when v is not a value of d. */
static int set_value(const cb_pdef *d, const char *v, char *base)
{
    uint64_t x;
    double f;
    int c;
    switch (d->type) {
    case CB_PT_U64:
    case CB_PT_U32:
    case CB_PT_INT:
        if (read_u64(v, &x) != 0 || x < d->ulo || x > d->uhi)
            return -1;
        if (d->type == CB_PT_U64)
            *(uint64_t *)(base + d->off) = x;
        else if (d->type == CB_PT_U32)
            *(uint32_t *)(base + d->off) = (uint32_t)x;
        else
            *(int *)(base + d->off) = (int)x;
        return 0;
    case CB_PT_REAL:
        if (read_real(v, &f) != 0 || f < d->dlo || f > d->dhi)
            return -1;
        *(double *)(base + d->off) = f;
        return 0;
    case CB_PT_CHOICE:
        if ((c = read_choice(v, d->choices)) < 0)
            return -1;
        *(int *)(base + d->off) = c;
        return 0;
    }
    return -1;
}

int cb_params_fail(char *err, size_t errlen, const char *plugin, const char *key, const char *text)
{
    if (err && errlen)
        snprintf(err, errlen, "%s: %s: %s", plugin, key, text);
    return -1;
}

int cb_params_parse(const char *plugin, const cb_pdef *t, int n, const cb_param *params, int nparams, void *out,
                    uint64_t *given, char *err, size_t errlen)
{
    char *base = out;
    uint64_t got = 0;
    for (int i = 0; i < n; i++)
        set_default(&t[i], base);
    for (int p = 0; p < nparams; p++) {
        const char *k = params[p].key ? params[p].key : "";
        const char *v = params[p].value ? params[p].value : "";
        int i = 0;
        while (i < n && strcmp(k, t[i].name) != 0)
            i++;
        if (i == n) {
            if (err && errlen) {
                size_t at = (size_t)snprintf(err, errlen, "%s: unknown parameter '%s' (known:", plugin, k);
                for (int j = 0; j < n && at < errlen; j++)
                    at += (size_t)snprintf(err + at, errlen - at, "%s %s", j ? "," : "", t[j].name);
                if (at < errlen)
                    snprintf(err + at, errlen - at, ")");
            }
            return -1;
        }
        if (set_value(&t[i], v, base) != 0) {
            if (err && errlen) {
                char range[160];
                range_text(&t[i], range, sizeof range);
                snprintf(err, errlen, "%s: %s: '%s' is not %s%s%s%s", plugin, k, v, t[i].what,
                         *range ? " " : "", t[i].type == CB_PT_CHOICE ? "(" : "", range);
                if (t[i].type == CB_PT_CHOICE) {
                    size_t at = strlen(err);
                    if (at + 1 < errlen)
                        snprintf(err + at, errlen - at, ")");
                }
            }
            return -1;
        }
        got |= 1ull << i;
    }
    if (given)
        *given = got;
    return 0;
}

static const char *type_text(cb_ptype t)
{
    switch (t) {
    case CB_PT_U64:
    case CB_PT_U32:
    case CB_PT_INT: return "integer";
    case CB_PT_REAL: return "number";
    case CB_PT_CHOICE: return "choice";
    }
    return "?";
}

void cb_params_markdown(FILE *f, const cb_pdef *t, int n)
{
    fprintf(f, "| key | type | range | default | meaning |\n| --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < n; i++) {
        char range[160];
        range_text(&t[i], range, sizeof range);
        fprintf(f, "| `%s` | %s | %s | %s | %s |\n", t[i].name, type_text(t[i].type), *range ? range : "any",
                t[i].def_text, t[i].meaning);
    }
}
