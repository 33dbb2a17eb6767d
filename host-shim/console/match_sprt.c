/* cardbot match — a sequential probability ratio test on the per-deal scores of a cb_pair: the
 * generalized (maximum likelihood) LLR on the histogram of deal scores, as match_verdict.h
 * derives it. fastchess and OpenBench test engine pairs on pentanomial results, the unit a
 * game pair with colours reversed; here the unit is a deal, whose rotations (and other
 * seatings on the same seed) are what colour reversal is to chess. */
#include <errno.h>
#include <stdarg.h>
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "match_num.h"
#include "match_verdict.h"

/* The lambda of the most likely distribution with mean mu on scores x (weights w, which include
 * mass at 0 and 1, so the root lies inside (-1 / (1 - mu), 1 / mu)): f(lambda) = sum w (x - mu)
 * / (1 + lambda (x - mu)) decreases from +inf to -inf there. Newton's steps, bisection when a
 * step leaves the bracket. */
static double lambda_for(const double *x, const double *w, size_t m, double mu)
{
    double lo = -1 / (1 - mu), hi = 1 / mu, l = 0;
    for (int it = 0; it < 200; it++) {
        double f = 0, df = 0;
        for (size_t j = 0; j < m; j++) {
            double d = x[j] - mu, den = 1 + l * d;
            f += w[j] * d / den;
            df -= w[j] * d * d / (den * den);
        }
        if (f > 0)
            lo = l;
        else
            hi = l;
        if (fabs(f) < 1e-15 || hi - lo < 1e-15 * (1 + fabs(l)))
            break;
        double next = df < 0 ? l - f / df : NAN;
        l = next > lo && next < hi ? next : (lo + hi) / 2;
    }
    return l;
}

void cb_sprt_llr(const cb_sprt_opts *o, const cb_score_count *h, size_t m, cb_sprt_state *out)
{
    memset(out, 0, sizeof *out);
    out->lower = log(o->beta / (1 - o->alpha));
    out->upper = log((1 - o->beta) / o->alpha);
    long n = 0;
    for (size_t j = 0; j < m; j++)
        n += h[j].deals;
    out->deals = n;
    if (n < 2)
        return;
    /* the scores with the prior's pseudo-deals at 0 and 1 */
    double *x = g_new(double, m + 2), *w = g_new(double, m + 2);
    size_t k = 0;
    x[k] = 0;
    w[k++] = CB_SPRT_PRIOR;
    for (size_t j = 0; j < m; j++) {
        if (h[j].score <= 0) {
            w[0] += (double)h[j].deals;
        } else if (h[j].score >= 1) {
            continue; /* added with the top pseudo-deal below */
        } else {
            x[k] = h[j].score;
            w[k++] = (double)h[j].deals;
        }
    }
    x[k] = 1;
    w[k] = CB_SPRT_PRIOR;
    for (size_t j = 0; j < m; j++)
        if (h[j].score >= 1)
            w[k] += (double)h[j].deals;
    k++;
    double mu0 = cb_score_of_elo(o->elo0), mu1 = cb_score_of_elo(o->elo1);
    double l0 = lambda_for(x, w, k, mu0), l1 = lambda_for(x, w, k, mu1), llr = 0;
    for (size_t j = 0; j < k; j++)
        llr += w[j] * (log1p(l0 * (x[j] - mu0)) - log1p(l1 * (x[j] - mu1)));
    g_free(x);
    g_free(w);
    out->llr = llr;
    if (n >= CB_SPRT_MIN_DEALS)
        out->verdict = llr >= out->upper ? 1 : llr <= out->lower ? -1 : 0;
}

void cb_sprt_eval(const cb_sprt_opts *o, const cb_pair *p, cb_sprt_state *out)
{
    size_t m;
    const cb_score_count *h = cb_pair_scores(p, &m);
    cb_sprt_llr(o, h, m, out);
}

static int fail(char *err, size_t errlen, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        g_vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

int cb_sprt_parse(const char *spec, cb_sprt_opts *o, char *err, size_t errlen)
{
    static const char *const keys[] = {"elo0", "elo1", "alpha", "beta"};
    double val[4] = {NAN, NAN, 0.05, 0.05};
    bool seen[4] = {false, false, false, false};
    if (!spec || !*spec)
        return fail(err, errlen, "sprt: empty; give elo0=E0,elo1=E1[,alpha=A,beta=B]");
    gchar **items = g_strsplit(spec, ",", -1);
    int rc = 0;
    for (gchar **it = items; *it && !rc; it++) {
        char *item = g_strstrip(*it);
        char *eq = strchr(item, '=');
        if (!*item) {
            rc = fail(err, errlen, "sprt: empty item in '%s'", spec);
            break;
        }
        if (!eq) {
            rc = fail(err, errlen, "sprt: '%s' is not key=value", item);
            break;
        }
        *eq = 0;
        char *key = g_strstrip(item), *text = g_strstrip(eq + 1);
        int k;
        for (k = 0; k < 4 && strcmp(key, keys[k]); k++)
            ;
        if (k == 4) {
            rc = fail(err, errlen, "sprt: unknown key '%s' (elo0, elo1, alpha, beta)", key);
            break;
        }
        if (seen[k]) {
            rc = fail(err, errlen, "sprt: %s given twice", key);
            break;
        }
        seen[k] = true;
        char *end;
        errno = 0;
        double v = g_ascii_strtod(text, &end);
        if (!*text || *end || errno || !isfinite(v)) {
            rc = fail(err, errlen, "sprt: %s: '%s' is not a number", key, text);
            break;
        }
        if (k < 2 && fabs(v) > 1000)
            rc = fail(err, errlen, "sprt: %s: %s is outside -1000..1000", key, text);
        else if (k >= 2 && !(v > 0 && v <= 0.5))
            rc = fail(err, errlen, "sprt: %s: %s must be in (0, 0.5]", key, text);
        val[k] = v;
    }
    g_strfreev(items);
    if (rc)
        return rc;
    for (int k = 0; k < 2; k++)
        if (!seen[k])
            return fail(err, errlen, "sprt: %s missing (e.g. elo0=0,elo1=20)", keys[k]);
    if (!(val[0] < val[1])) {
        char e0[32], e1[32];
        return fail(err, errlen, "sprt: elo1 (%s) must be greater than elo0 (%s)",
                    cb_num(e1, sizeof e1, "%.6g", val[1], false), cb_num(e0, sizeof e0, "%.6g", val[0], false));
    }
    o->elo0 = val[0];
    o->elo1 = val[1];
    o->alpha = val[2];
    o->beta = val[3];
    return 0;
}

void cb_sprt_print(const cb_sprt_opts *o, const cb_sprt_state *s, FILE *f)
{
    char b[7][32];
    const char *what = s->verdict > 0 ? "H1 accepted" : s->verdict < 0 ? "H0 accepted" : "continue";
    fprintf(f, "SPRT elo0=%s elo1=%s alpha=%s beta=%s: %ld deals, LLR %s [%s, %s]: %s%s\n",
            cb_num(b[0], 32, "%.6g", o->elo0, false), cb_num(b[1], 32, "%.6g", o->elo1, false),
            cb_num(b[2], 32, "%.6g", o->alpha, false), cb_num(b[3], 32, "%.6g", o->beta, false), s->deals,
            cb_num(b[4], 32, "%.2f", s->llr, true), cb_num(b[5], 32, "%.2f", s->lower, true),
            cb_num(b[6], 32, "%.2f", s->upper, true), what,
            !s->verdict && s->deals < CB_SPRT_MIN_DEALS
                ? " (no verdict before " G_STRINGIFY(CB_SPRT_MIN_DEALS) " deals)"
                : "");
}
