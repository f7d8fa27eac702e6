/* SPDX-License-Identifier: MIT */
#include "plots.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/plot.h"

/* The paper's names of the policies. */
static const char *const names[][2] = {
	{ "hbm_only", "HBM-only" }, { "hor_on", "Hor_On" }, { "hor_off", "Hor_Off" },
	{ "ver_on", "Ver_On" }, { "ver_off", "Ver_Off" }, { "sentinel", "Sentinel" },
	{ "autotm", "AutoTM" }, { "deeptm", "DeepTM" }, { "tm_training", "TM-Training" },
	{ "tm_training_off", "TM-Training_Off" }, { "ideal", "Ideal" },
};

/* The y axis of each metric, with its unit. */
static const char *const axes[][2] = {
	{ "efficiency_vs_hbm_only_ratio", "throughput per watt / HBM-only's (x)" },
	{ "throughput_vs_hbm_only_ratio", "throughput / HBM-only's (x)" },
	{ "migration_vs_data_ratio", "inter-tier migration / data used (bytes per byte)" },
	{ "migration_vs_ideal_ratio", "inter-tier migration / the ideal case's (x)" },
	{ "energy_vs_hbm_only_memory_ratio", "memory energy / HBM-only's memory energy (x)" },
};

/* A value the paper's text states for one bar or point (docs/validation/tm.md;
 * the same numbers as paper.c's claims).  Relations between policies
 * ("1.71x Sentinel's") belong to no single bar and are not drawn. */
struct paper_value {
	const char *fig, *row, *col;
	double y;
};

static const struct paper_value paper[] = {
	/* Figure 2's caption: Ver_Off and Ver_On reach 10-11 % at 5:1. */
	{ "fig2", "5:1", "ver_off", 0.105 }, { "fig2", "5:1", "ver_on", 0.105 },
	/* Section 2, on Figure 3: at 5:1, 1.5x, 2.1x, 3.6x and 3.2x the data. */
	{ "fig3", "5:1", "hor_off", 1.5 }, { "fig3", "5:1", "hor_on", 2.1 },
	{ "fig3", "5:1", "ver_off", 3.6 }, { "fig3", "5:1", "ver_on", 3.2 },
	/* Section 5.2: TM-Training 9 % above HBM-only on average. */
	{ "fig8", "mean", "tm_training", 1.09 },
	/* Section 5.2, on Figure 12: beyond 100:1, negligible loss. */
	{ "fig12", "150:1", "tm_training", 1.0 },
	/* Section 5.2, on Figure 13: batch doubled, TM-Training nearly equals HBM-only. */
	{ "fig13", "mean", "tm_training", 1.0 },
	/* Section 5.2, on Figure 15: flash bandwidth halved, TM-Training 23 % below. */
	{ "fig15", "mean", "tm_training", 0.77 },
};

#define NPAPER (sizeof(paper) / sizeof(paper[0]))
#define MAXMARKS 8

static const char *lookup(const char *const (*map)[2], size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(map[i][0], key))
			return map[i][1];
	return key;
}

static const char *policy_name(const char *p)
{
	return lookup(names, sizeof(names) / sizeof(names[0]), p);
}

static int find(const char *const *list, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], key))
			return i;
	return -1;
}

static bool has_na(const struct tm_table *t)
{
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			if (isnan(t->v[r][c]))
				return true;
	return false;
}

/* Bars per workload or lines over the tier-1 ratio, one series per policy. */
static int plot_policies(const struct tm_table *t, const char *dir)
{
	static double y[TM_MAXCOLS][TM_MAXROWS];
	static struct dl_plot_series series[TM_MAXCOLS];
	static struct dl_plot_mark marks[MAXMARKS];
	const char *rows[TM_MAXROWS];
	bool lines = !strcmp(t->rowname, "tier1_ratio");
	int nmarks = 0;

	for (int r = 0; r < t->nrows; r++)
		rows[r] = t->rows[r];
	for (int c = 0; c < t->ncols; c++) {
		for (int r = 0; r < t->nrows; r++)
			y[c][r] = t->v[r][c];
		series[c] = (struct dl_plot_series){ policy_name(t->cols[c]), y[c] };
	}
	for (size_t k = 0; k < NPAPER && nmarks < MAXMARKS; k++) {
		int r = find(rows, t->nrows, paper[k].row), c = find(t->cols, t->ncols, paper[k].col);

		if (!strcmp(paper[k].fig, t->id) && r >= 0 && c >= 0)
			marks[nmarks++] = (struct dl_plot_mark){ r, c, paper[k].y };
	}
	return dl_plot_render(&(struct dl_plot){
		.name = t->id, .title = t->title,
		.xlabel = lines ? "tier-1 size to model size, R of R:1 (25:1: tier 1 is 12.5 % of 32 GiB)" : "workload (Table 3)",
		.ylabel = lookup(axes, sizeof(axes) / sizeof(axes[0]), t->metric),
		.kind = lines ? DL_PLOT_LINES : DL_PLOT_BARS,
		.cats = rows, .ncat = t->nrows, .x = lines ? tm_ratios : NULL,
		.series = series, .nseries = t->ncols, .marks = marks, .nmarks = nmarks,
		.logx = lines,
		.note = has_na(t) ? "n/a: the run of this setting failed (the study's messages say why)" : NULL,
	}, dir);
}

/* Figure 4: per ratio, Hor_Off's and Ver_Off's memory energy stacked as
 * migration, prefetch and static (the table's columns, three per policy). */
static int plot_breakdown(const struct tm_table *t, const char *dir)
{
	static const char *const parts[] = { "migration", "prefetch", "static" };
	static char cats[2 * TM_MAXROWS][48];
	static double y[3][2 * TM_MAXROWS];
	const char *labels[2 * TM_MAXROWS];
	struct dl_plot_series series[3];
	int n = 0;

	for (int r = 0; r < t->nrows; r++) {
		for (int p = 0; p < 2; p++, n++) {
			char pol[32];

			snprintf(pol, sizeof(pol), "%.*s", (int)strcspn(t->cols[3 * p], "."), t->cols[3 * p]);
			snprintf(cats[n], sizeof(cats[n]), "%s %s", t->rows[r], policy_name(pol));
			labels[n] = cats[n];
			for (int k = 0; k < 3; k++)
				y[k][n] = t->v[r][3 * p + k];
		}
	}
	for (int k = 0; k < 3; k++)
		series[k] = (struct dl_plot_series){ parts[k], y[k] };
	return dl_plot_render(&(struct dl_plot){
		.name = t->id, .title = t->title,
		.xlabel = "tier-1 size to model size (R:1) and arrangement",
		.ylabel = lookup(axes, sizeof(axes) / sizeof(axes[0]), t->metric),
		.kind = DL_PLOT_STACKED, .cats = labels, .ncat = n,
		.series = series, .nseries = 3,
	}, dir);
}

int tm_plot(const struct tm_table *t, int n, const char *dir)
{
	for (int i = 0; i < n; i++) {
		int rc;

		if (strncmp(t[i].id, "fig", 3))
			continue;
		rc = !strcmp(t[i].id, "fig4") ? plot_breakdown(&t[i], dir) : plot_policies(&t[i], dir);
		if (rc)
			return -1;
	}
	return 0;
}
