/* SPDX-License-Identifier: MIT */
/*
 * Figures drawn with gnuplot: a study describes a figure (bars, stacked
 * bars or lines, with the paper's values as marks) and dl_plot_render()
 * writes DIR/NAME.dat (the numbers) and DIR/NAME.gp (the script), then runs
 * gnuplot to draw DIR/NAME.png and DIR/NAME.svg.  The images appear whole
 * or not at all.  A series that is 0 at every point draws nothing, so it
 * has no entry in the key: a line under the plot says it is 0 everywhere.
 * Conventions: docs/figures.md.
 */
#ifndef DL_PLOT_H
#define DL_PLOT_H

#include <stdbool.h>

enum dl_plot_kind {
	DL_PLOT_BARS,		/* one cluster of bars per category */
	DL_PLOT_STACKED,	/* one bar per category, series stacked */
	DL_PLOT_LINES,		/* y against numeric x, one line per series */
};

struct dl_plot_series {
	const char *name;
	const double *y;	/* one value per category (or x); NAN: n/a */
};

/* A value the paper reports, drawn on the bar (or point) it belongs to. */
struct dl_plot_mark {
	int cat;		/* category (or x index) */
	int series;		/* series; for stacked bars the top of the stack */
	double y;
};

struct dl_plot {
	const char *name;	/* file stem, [A-Za-z0-9_.-] */
	const char *title;
	const char *xlabel;
	const char *ylabel;	/* with its unit, e.g. "speedup over DC-DLA (x)" */
	/* The right-hand axis, for series of another unit: series y2_from
	 * and after read on it (0: there is none); its label with its unit. */
	int y2_from;
	const char *y2label;
	enum dl_plot_kind kind;
	const char *const *cats;	/* category labels (x tic labels) */
	int ncat;
	const double *x;	/* lines: the x values; NULL: 0, 1, ... */
	const struct dl_plot_series *series;
	int nseries;
	const struct dl_plot_mark *marks;
	int nmarks;
	const char *mark_label;	/* key entry of the marks (default "paper") */
	bool logx, logy;
	const char *note;	/* a line under the plot, or NULL */
	/* Bars: categories come in groups of group_size (> 1) named by
	 * groups[] (ncat / group_size names): the categories' own labels
	 * stand upright under their bars, the group's name below them. */
	const char *const *groups;
	int group_size;
};

/* Draw `p` into directory `dir` (created if missing).  Reports problems
 * (no gnuplot, unwritable directory, gnuplot failed) in one line. */
int dl_plot_render(const struct dl_plot *p, const char *dir);

/* The figures this process draws come from a reduced run (fewer
 * transactions, networks or layers than the paper's): each title says
 * "reduced run: WHY".  NULL: a full run (the default). */
void dl_plot_reduced(const char *why);

/* Make `dir` (and its parents) if missing; for --plot options. */
int dl_plot_dir(const char *dir, const char *option);

#endif
