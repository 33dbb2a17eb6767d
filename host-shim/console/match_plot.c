/* cardbot match — inline SVG line plots (see match_plot.h). Coordinates are written with
 * cb_num, so a comma-decimal locale cannot break the path data. */
#include <math.h>
#include <string.h>

#include "match_num.h"
#include "match_plot.h"

enum { W = 760, H = 320, ML = 70, MR = 170, MT = 34, MB = 48 };
#define PW (W - ML - MR)
#define PH (H - MT - MB)

const char *cb_plot_color(int i)
{
    static const char *const pal[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                      "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};
    return pal[(i % 8 + 8) % 8];
}

/* A round step (1, 2 or 5 times a power of ten) giving about `want` intervals over span. */
static double nice_step(double span, int want)
{
    double raw = span / want, p = pow(10.0, floor(log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

typedef struct frame {
    double x0, x1, y0, y1, xstep, ystep;
} frame;

static void grow(double v, double *lo, double *hi)
{
    if (!isfinite(v))
        return;
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

static frame frame_of(const cb_plot *pl)
{
    frame f = {0, 0, INFINITY, -INFINITY, 1, 1};
    for (int i = 0; i < pl->nlines; i++)
        for (size_t k = 0; k < pl->lines[i].s->n; k++) {
            const cb_report_point *p = &pl->lines[i].s->p[k];
            if ((double)p->x > f.x1)
                f.x1 = (double)p->x;
            grow(p->y, &f.y0, &f.y1);
            grow(p->lo, &f.y0, &f.y1);
            grow(p->hi, &f.y0, &f.y1);
        }
    for (int i = 0; i < pl->nhlines; i++)
        grow(pl->hlines[i].y, &f.y0, &f.y1);
    if (f.x1 <= 0)
        f.x1 = 1;
    if (!(f.y0 <= f.y1)) { /* nothing to show: an empty unit frame */
        f.y0 = 0;
        f.y1 = 1;
    }
    if (f.y1 - f.y0 < 1e-9) {
        double pad = fabs(f.y0) > 1e-9 ? fabs(f.y0) * 0.1 : 0.5;
        f.y0 -= pad;
        f.y1 += pad;
    }
    f.xstep = nice_step(f.x1, 6);
    if (f.xstep < 1)
        f.xstep = 1;
    f.x1 = ceil(f.x1 / f.xstep) * f.xstep;
    f.ystep = nice_step(f.y1 - f.y0, 5);
    f.y0 = floor(f.y0 / f.ystep + 1e-9) * f.ystep;
    f.y1 = ceil(f.y1 / f.ystep - 1e-9) * f.ystep;
    return f;
}

static double px(const frame *f, double x) { return ML + (x - f->x0) / (f->x1 - f->x0) * PW; }
static double py(const frame *f, double y) { return MT + (f->y1 - y) / (f->y1 - f->y0) * PH; }

/* " X,Y" in pixels, one decimal. */
static void coord(GString *out, const char *lead, double x, double y)
{
    char a[32], b[32];
    g_string_append_printf(out, "%s%s,%s", lead, cb_num(a, sizeof a, "%.1f", x, false),
                           cb_num(b, sizeof b, "%.1f", y, false));
}

static void text(GString *out, double x, double y, const char *attrs, const char *s)
{
    char a[32], b[32];
    char *esc = g_markup_escape_text(s, -1);
    g_string_append_printf(out, "<text x=\"%s\" y=\"%s\" %s>%s</text>\n", cb_num(a, sizeof a, "%.1f", x, false),
                           cb_num(b, sizeof b, "%.1f", y, false), attrs, esc);
    g_free(esc);
}

static void tick_label(char *buf, size_t len, double v, double step, bool percent)
{
    if (percent) {
        v *= 100;
        step *= 100;
    }
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    char fmt[8];
    g_snprintf(fmt, sizeof fmt, "%%.%df", dec);
    cb_num(buf, len - 1, fmt, v, false);
    if (percent)
        g_strlcat(buf, "%", len);
}

static void axes(GString *out, const cb_plot *pl, const frame *f)
{
    char lab[40];
    g_string_append(out, "<g class=\"grid\">\n");
    for (double y = f->y0; y <= f->y1 + f->ystep * 1e-6; y += f->ystep) {
        double yy = py(f, y);
        g_string_append(out, "<path d=\"");
        coord(out, "M", ML, yy);
        coord(out, " L", ML + PW, yy);
        g_string_append(out, "\"/>\n");
        tick_label(lab, sizeof lab, fabs(y) < f->ystep * 1e-6 ? 0 : y, f->ystep, pl->percent);
        text(out, ML - 6, yy + 4, "class=\"tick\" text-anchor=\"end\"", lab);
    }
    for (double x = f->x0; x <= f->x1 + f->xstep * 1e-6; x += f->xstep) {
        double xx = px(f, x);
        g_string_append(out, "<path d=\"");
        coord(out, "M", xx, MT + PH);
        coord(out, " L", xx, MT + PH + 5);
        g_string_append(out, "\"/>\n");
        g_snprintf(lab, sizeof lab, "%.0f", x);
        text(out, xx, MT + PH + 18, "class=\"tick\" text-anchor=\"middle\"", lab);
    }
    g_string_append(out, "</g>\n<path class=\"axis\" d=\"");
    coord(out, "M", ML, MT);
    coord(out, " L", ML, MT + PH);
    coord(out, " L", ML + PW, MT + PH);
    g_string_append(out, "\"/>\n");
    text(out, ML + PW / 2.0, H - 8, "class=\"label\" text-anchor=\"middle\"", pl->xlabel);
    char a[32];
    char *tr = g_strdup_printf("class=\"label\" text-anchor=\"middle\" transform=\"rotate(-90 16 %s)\"",
                               cb_num(a, sizeof a, "%.1f", MT + PH / 2.0, false));
    text(out, 16, MT + PH / 2.0, tr, pl->ylabel);
    g_free(tr);
    text(out, ML, 20, "class=\"title\"", pl->title);
}

/* The interval band: hi forward, lo back, over the points that have both. */
static void band(GString *out, const frame *f, const cb_plot_line *l)
{
    const cb_report_series *s = l->s;
    size_t m = 0;
    for (size_t k = 0; k < s->n; k++)
        m += isfinite(s->p[k].lo) && isfinite(s->p[k].hi);
    if (m < 2)
        return;
    g_string_append_printf(out, "<polygon class=\"band\" fill=\"%s\" points=\"", l->color);
    const char *lead = "";
    for (size_t k = 0; k < s->n; k++)
        if (isfinite(s->p[k].lo) && isfinite(s->p[k].hi)) {
            coord(out, lead, px(f, (double)s->p[k].x), py(f, s->p[k].hi));
            lead = " ";
        }
    for (size_t k = s->n; k-- > 0;)
        if (isfinite(s->p[k].lo) && isfinite(s->p[k].hi))
            coord(out, " ", px(f, (double)s->p[k].x), py(f, s->p[k].lo));
    g_string_append(out, "\"/>\n");
}

/* The line itself; a point without a value breaks it. */
static void line(GString *out, const frame *f, const cb_plot_line *l)
{
    const cb_report_series *s = l->s;
    g_string_append_printf(out, "<path class=\"line\" stroke=\"%s\" d=\"", l->color);
    bool pen = false;
    size_t drawn = 0;
    for (size_t k = 0; k < s->n; k++) {
        if (!isfinite(s->p[k].y)) {
            pen = false;
            continue;
        }
        coord(out, pen ? " L" : " M", px(f, (double)s->p[k].x), py(f, s->p[k].y));
        pen = true;
        drawn++;
    }
    g_string_append(out, "\"/>\n");
    if (drawn == 1) /* a lone point would draw nothing: mark it */
        for (size_t k = 0; k < s->n; k++)
            if (isfinite(s->p[k].y)) {
                char a[32], b[32];
                g_string_append_printf(out, "<circle cx=\"%s\" cy=\"%s\" r=\"3\" fill=\"%s\"/>\n",
                                       cb_num(a, sizeof a, "%.1f", px(f, (double)s->p[k].x), false),
                                       cb_num(b, sizeof b, "%.1f", py(f, s->p[k].y), false), l->color);
            }
}

void cb_plot_svg(GString *out, const cb_plot *pl)
{
    frame f = frame_of(pl);
    char *aria = g_markup_escape_text(pl->title, -1);
    g_string_append_printf(out, "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                                "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n", W, H, W, H, aria);
    g_free(aria);
    axes(out, pl, &f);
    for (int i = 0; i < pl->nlines; i++)
        band(out, &f, &pl->lines[i]);
    for (int i = 0; i < pl->nhlines; i++) {
        const cb_plot_hline *h = &pl->hlines[i];
        double yy = py(&f, h->y);
        g_string_append_printf(out, "<path class=\"ref\" stroke=\"%s\" d=\"", h->color);
        coord(out, "M", ML, yy);
        coord(out, " L", ML + PW, yy);
        g_string_append(out, "\"/>\n");
        /* at the left end: a sequential test's line starts near 0, far from its bounds there */
        text(out, ML + 6, yy - 5, "class=\"reflabel\"", h->label);
    }
    for (int i = 0; i < pl->nlines; i++)
        line(out, &f, &pl->lines[i]);
    /* legend, right of the plot */
    double lx = ML + PW + 14, ly = MT + 6;
    bool bands = false;
    for (int i = 0; i < pl->nlines; i++, ly += 18) {
        char a[32], b[32];
        g_string_append_printf(out, "<rect x=\"%s\" y=\"%s\" width=\"14\" height=\"4\" fill=\"%s\"/>\n",
                               cb_num(a, sizeof a, "%.1f", lx, false), cb_num(b, sizeof b, "%.1f", ly, false),
                               pl->lines[i].color);
        text(out, lx + 20, ly + 6, "class=\"legend\"", pl->lines[i].name);
        for (size_t k = 0; k < pl->lines[i].s->n && !bands; k++)
            bands = isfinite(pl->lines[i].s->p[k].lo) && isfinite(pl->lines[i].s->p[k].hi);
    }
    if (bands)
        text(out, lx, ly + 10, "class=\"note\"", "shaded: 95% interval");
    g_string_append(out, "</svg>\n");
}
