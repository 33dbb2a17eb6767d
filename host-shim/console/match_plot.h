/* cardbot match — line plots as inline SVG for the HTML report (match_report.c): axes with
 * round-number ticks, one line per series with its interval as a translucent band, dashed
 * horizontal reference lines (SPRT bounds), a legend. No script, nothing fetched. */
#ifndef CARDBOT_MATCH_PLOT_H
#define CARDBOT_MATCH_PLOT_H

#include <glib.h>
#include <stdbool.h>

#include "match_verdict.h"

typedef struct cb_plot_line {
    const char *name;              /* legend text (escaped here) */
    const char *color;             /* CSS colour, e.g. "#1f77b4" */
    const cb_report_series *s;
} cb_plot_line;

typedef struct cb_plot_hline {
    double y;
    const char *label;             /* written at the line's right end (escaped here) */
    const char *color;
} cb_plot_hline;

typedef struct cb_plot {
    const char *title, *xlabel, *ylabel;
    const cb_plot_line *lines;
    int nlines;
    const cb_plot_hline *hlines;
    int nhlines;
    bool percent;                  /* y ticks as percentages of 0..1 values */
} cb_plot;

/* Append one <svg> element drawing pl to out. */
void cb_plot_svg(GString *out, const cb_plot *pl);

/* The i-th colour of the report's palette (distinct, readable on white). */
const char *cb_plot_color(int i);

#endif
