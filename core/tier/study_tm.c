/* SPDX-License-Identifier: MIT */
/*
 * dlasim study tm: TM-Training's experiments (Figures 2-4 and 8-15) as
 * tables, one process per simulated iteration on every CPU, normalized as
 * the paper normalizes (figures.c), and every number the paper states
 * beside ours (paper.c).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/strmap.h"
#include "lib/args.h"
#include "lib/datadir.h"
#include "lib/diag.h"
#include "results/jobs.h"
#include "results/json.h"
#include "results/jsonread.h"
#include "results/outfile.h"
#include "results/plot.h"
#include "results/table.h"
#include "commands.h"
#include "figures.h"
#include "npu_platform.h"
#include "paper.h"
#include "plots.h"
#include "run.h"
#include "tmgraph/workload.h"

#define CMD "study tm"

static const char *const prior[] = { "sentinel", "autotm", "deeptm", "tm_training", "ideal" };
static const char *const motivation[] = { "hor_off", "hor_on", "ver_off", "ver_on" };
static const char *const all[] = { "hbm_only", "hor_on", "hor_off", "ver_on", "ver_off",
				   "sentinel", "autotm", "deeptm", "tm_training",
				   "tm_training_off", "ideal" };
/* Sentinel's migration interval (ops), swept at 25:1 (2 is its default). */
static const char *const sentinels[] = { "sentinel:interval=1", "sentinel",
					 "sentinel:interval=4", "sentinel:interval=8" };
#define NSENT 4

/* ---- the runs ---- */

static void add(struct tm_study *s, const char *w, const char *p, double r, double b, double bw)
{
	if (tm_job_index(s, w, p, r, b, bw) >= 0)
		return;
	if (s->n < TM_MAXJOBS)
		s->jobs[s->n++] = (struct tm_job){ w, p, r, b, bw };
}

static void plan(struct tm_study *s)
{
	for (int w = 0; w < TM_NW; w++) {
		const char *wl = tm_workloads[w];

		for (size_t p = 0; p < sizeof(all) / sizeof(all[0]); p++)
			add(s, wl, all[p], 25, 1, 1);
		for (int r = 0; r < TM_NR; r++)
			for (int p = 0; p < 5; p++)
				add(s, wl, prior[p], tm_ratios[r], 1, 1);
		add(s, wl, "hbm_only", 25, 2, 1);
		for (int p = 0; p < 4; p++) {
			add(s, wl, prior[p], 25, 2, 1);
			add(s, wl, prior[p], 25, 1, 0.5);
		}
		for (int p = 0; p < NSENT; p++)
			add(s, wl, sentinels[p], 25, 1, 1);
	}
	for (int r = 0; r < TM_NR; r++)
		for (int p = 0; p < 4; p++)
			add(s, "palm", motivation[p], tm_ratios[r], 1, 1);
}

static int run_job(int index, FILE *out, void *arg)
{
	struct tm_study *s = arg;
	const struct tm_job *j = &s->jobs[index];
	char file[PATH_MAX + 64];
	struct tier_config cfg = { .workload = file, .policy = j->policy, .tier1_ratio = j->ratio,
				   .batch_scale = j->batch, .tier2_bw_scale = j->bw,
				   .online_only = true, .npu_device = s->npu_device };
	struct tier_result r;

	snprintf(file, sizeof(file), "%s/%s.tm", s->dir, j->workload);
	if (tier_run(&cfg, &r))
		return 1;
	return fwrite(&r, sizeof(r), 1, out) == 1 ? 0 : 1;
}

static void describe(int index, void *arg, char *buf, size_t len)
{
	const struct tm_study *s = arg;
	const struct tm_job *j = &s->jobs[index];

	snprintf(buf, len,
		 "dlasim tier --workload %s/%s.tm --policy %s --tier1-ratio %g --batch-scale %g --tier2-bw-scale %g --online-only%s%s",
		 s->dir, j->workload, j->policy, j->ratio, j->batch, j->bw,
		 s->npu_device ? " --npu-device " : "", s->npu_device ? s->npu_device : "");
}

/* ---- tables ---- */

enum fmt { HUMAN = DL_TABLE_HUMAN, CSV = DL_TABLE_CSV, JSON = DL_TABLE_JSON };


static void emit(const struct tm_table *t, enum fmt f, struct dl_json *j)
{
	static const struct dl_table_style style = { .row_width = 12, .width = 15,
						     .precision = 4, .na = "n/a" };
	const char *rows[TM_MAXROWS];
	struct dl_table view = { .id = t->id, .title = t->title, .metric = t->metric,
				 .row_key = t->rowname, .col_key = "policy", .rows = rows,
				 .cols = t->cols, .nrows = t->nrows, .ncols = t->ncols,
				 .v = &t->v[0][0], .stride = TM_MAXCOLS, .style = &style };

	for (int r = 0; r < t->nrows; r++)
		rows[r] = t->rows[r];
	dl_table_emit(&view, (enum dl_table_format)f, j, stdout);
}

/* Per workload at one setting, plus the mean (arithmetic; geometric for
 * ratios of throughput, as the paper's Figure 12). */
static void by_workload(struct tm_table *t, const struct tm_study *s, const char *const *pol,
			int np, tm_metric m, double r, double b, double bw)
{
	t->rowname = "workload";
	t->ncols = np;
	t->nrows = TM_NW + 1;
	for (int c = 0; c < np; c++) {
		double sum = 0;

		t->cols[c] = pol[c];
		for (int w = 0; w < TM_NW; w++) {
			snprintf(t->rows[w], sizeof(t->rows[w]), "%s", tm_workloads[w]);
			t->v[w][c] = m(s, tm_workloads[w], pol[c], r, b, bw);
			sum += t->v[w][c];
		}
		snprintf(t->rows[TM_NW], sizeof(t->rows[TM_NW]), "mean");
		t->v[TM_NW][c] = sum / TM_NW;
	}
}

/* Figure 9: migration over the ideal case's, per workload; the mean row
 * is the ratio of the means of migration over data used (the ideal moves
 * next to nothing where tier 1 holds the working set, T5, which would
 * swamp a mean of ratios). */
static void migration_table(struct tm_table *t, const struct tm_study *s, const char *const *pol,
			    int np)
{
	double ideal = 0;

	by_workload(t, s, pol, np, tm_mig_ideal, 25, 1, 1);
	for (int w = 0; w < TM_NW; w++)
		ideal += tm_mig_data(s, tm_workloads[w], "ideal", 25, 1, 1) / TM_NW;
	for (int c = 0; c < np; c++) {
		double mean = 0;

		for (int w = 0; w < TM_NW; w++)
			mean += tm_mig_data(s, tm_workloads[w], pol[c], 25, 1, 1) / TM_NW;
		t->v[TM_NW][c] = mean / ideal;
	}
}

static void by_ratio(struct tm_table *t, const struct tm_study *s, const char *w,
		     const char *const *pol, int np, tm_metric m, bool geomean)
{
	t->rowname = "tier1_ratio";
	t->ncols = np;
	t->nrows = TM_NR;
	for (int r = 0; r < TM_NR; r++) {
		snprintf(t->rows[r], sizeof(t->rows[r]), "%g:1", tm_ratios[r]);
		for (int c = 0; c < np; c++) {
			double lg = 0;

			t->cols[c] = pol[c];
			if (!geomean) {
				t->v[r][c] = m(s, w, pol[c], tm_ratios[r], 1, 1);
				continue;
			}
			for (int k = 0; k < TM_NW; k++)
				lg += log(m(s, tm_workloads[k], pol[c], tm_ratios[r], 1, 1));
			t->v[r][c] = exp(lg / TM_NW);
		}
	}
}

static void memory_breakdown(struct tm_table *t, const struct tm_study *s)
{
	static const char *const cols[] = { "hor_off.mig", "hor_off.pre", "hor_off.sta",
					    "ver_off.mig", "ver_off.pre", "ver_off.sta" };
	static const char *const pol[] = { "hor_off", "ver_off" };
	double base = tm_mem_energy(tm_find(s, "palm", "hbm_only", 25, 1, 1));

	t->rowname = "tier1_ratio";
	t->ncols = 6;
	t->nrows = TM_NR;
	for (int r = 0; r < TM_NR; r++) {
		snprintf(t->rows[r], sizeof(t->rows[r]), "%g:1", tm_ratios[r]);
		for (int p = 0; p < 2; p++) {
			const struct tier_result *x = tm_find(s, "palm", pol[p], tm_ratios[r], 1, 1);

			t->v[r][3 * p] = TM_FIELD(x, energy_migration_j) / base;
			t->v[r][3 * p + 1] = TM_FIELD(x, energy_prefetch_j) / base;
			t->v[r][3 * p + 2] = TM_FIELD(x, energy_static_j) / base;
		}
	}
	for (int c = 0; c < 6; c++)
		t->cols[c] = cols[c];
}

/* Figure 8's means at 25:1 (TM-Training's efficiency over each system's)
 * with Table 2's HBM static power read per device or per GiB and the
 * chip's idle power 90 W or 0 W: the energy of the same runs at each
 * reading (docs/validation/tm.md, C). */
static void energy_sensitivity(struct tm_table *t, const struct tm_study *s)
{
	static const char *const cols[] = { "hbm_only", "sentinel", "autotm", "deeptm", "ideal" };
	static const char *const rows[] = { "per_device.idle", "per_device.no_idle",
					    "per_gib.idle", "per_gib.no_idle" };
	static const unsigned reading[] = { 0, TM_NO_IDLE, TM_HBM_PER_GIB,
					    TM_HBM_PER_GIB | TM_NO_IDLE };

	t->rowname = "reading";
	t->ncols = 5;
	t->nrows = 4;
	for (int r = 0; r < 4; r++) {
		snprintf(t->rows[r], sizeof(t->rows[r]), "%s", rows[r]);
		for (int c = 0; c < 5; c++) {
			double sum = 0;

			t->cols[c] = cols[c];
			for (int w = 0; w < TM_NW; w++) {
				const char *wl = tm_workloads[w];

				sum += tm_eff_at(tm_find(s, wl, "tm_training", 25, 1, 1), reading[r]) /
				       tm_eff_at(tm_find(s, wl, cols[c], 25, 1, 1), reading[r]);
			}
			t->v[r][c] = sum / TM_NW;
		}
	}
}

/* The paper's numbers beside ours; difference = ours / paper - 1. */
static void emit_claims(const struct tm_study *s, enum fmt f, struct dl_json *j)
{
	static struct tm_claim c[TM_MAXCLAIMS];
	int n = paper_claims(s, c);

	if (f == HUMAN)
		printf("\nThe paper's numbers and ours (docs/validation/tm.md)\n%-34s %10s %10s %11s  %s\n",
		       "claim", "paper", "ours", "difference", "what");
	for (int i = 0; i < n; i++) {
		double d = c[i].ours / c[i].paper - 1;

		if (f == HUMAN) {
			printf("%-34s ", c[i].id);
			if (isfinite(c[i].paper))
				printf("%10.4g ", c[i].paper);
			else
				printf("%10s ", "n/a");
			printf("%10.4g ", c[i].ours);
			if (isfinite(d))
				printf("%+10.0f%%", 100 * d);
			else
				printf("%11s", "n/a");
			printf("  %s\n", c[i].what);
		} else if (f == CSV) {
			printf("claims,%s,paper,value,%.9g\nclaims,%s,ours,value,%.9g\n", c[i].id,
			       c[i].paper, c[i].id, c[i].ours);
		} else {
			dl_json_object_begin(j, NULL);
			dl_json_str(j, "figure", "claims");
			dl_json_str(j, "claim", c[i].id);
			dl_json_str(j, "what", c[i].what);
			if (isfinite(c[i].paper))
				dl_json_num(j, "paper", c[i].paper);
			else
				dl_json_null(j, "paper");
			if (isfinite(c[i].ours))
				dl_json_num(j, "ours", c[i].ours);
			else
				dl_json_null(j, "ours");
			dl_json_object_end(j);
		}
	}
}

#define TM_TABLES 15

/* The study's tables from its runs (a study of no runs: every value n/a);
 * returns how many. */
static int tables(const struct tm_study *s, struct tm_table *t)
{
	static const char *const tm_family[] = { "tm_training", "tm_training_off", "ideal" };
	static const char *const fig9[] = { "sentinel", "autotm", "deeptm", "tm_training" };
	int n = 0;

	memset(t, 0, TM_TABLES * sizeof(*t));
	t[n] = (struct tm_table){ .id = "fig2", .title = "Figure 2: PaLM energy efficiency vs tier-1 ratio (motivation)", .metric = "efficiency_vs_hbm_only_ratio" };
	by_ratio(&t[n++], s, "palm", motivation, 4, tm_eff, false);
	t[n] = (struct tm_table){ .id = "fig3", .title = "Figure 3: PaLM inter-tier migration / data used (motivation)", .metric = "migration_vs_data_ratio" };
	by_ratio(&t[n++], s, "palm", motivation, 4, tm_mig_data, false);
	t[n] = (struct tm_table){ .id = "fig4", .title = "Figure 4: PaLM memory energy (migration, prefetch, static) / HBM-only memory energy", .metric = "energy_vs_hbm_only_memory_ratio" };
	memory_breakdown(&t[n++], s);
	t[n] = (struct tm_table){ .id = "fig8", .title = "Figure 8: energy efficiency at 25:1", .metric = "efficiency_vs_hbm_only_ratio" };
	by_workload(&t[n++], s, prior, 5, tm_eff, 25, 1, 1);
	t[n] = (struct tm_table){ .id = "fig9", .title = "Figure 9: inter-tier migration at 25:1", .metric = "migration_vs_ideal_ratio" };
	migration_table(&t[n++], s, fig9, 4);
	t[n] = (struct tm_table){ .id = "fig10", .title = "Figure 10: PaLM energy efficiency vs tier-1 ratio", .metric = "efficiency_vs_hbm_only_ratio" };
	by_ratio(&t[n++], s, "palm", prior, 5, tm_eff, false);
	t[n] = (struct tm_table){ .id = "fig11", .title = "Figure 11: PaLM inter-tier migration / data used", .metric = "migration_vs_data_ratio" };
	by_ratio(&t[n++], s, "palm", prior, 5, tm_mig_data, false);
	t[n] = (struct tm_table){ .id = "fig12", .title = "Figure 12: throughput vs tier-1 ratio, geometric mean of the 5 workloads", .metric = "throughput_vs_hbm_only_ratio" };
	by_ratio(&t[n++], s, NULL, prior, 5, tm_thr, true);
	t[n] = (struct tm_table){ .id = "fig13", .title = "Figure 13: energy efficiency at 25:1, batch and address space doubled", .metric = "efficiency_vs_hbm_only_ratio" };
	by_workload(&t[n++], s, fig9, 4, tm_eff, 25, 2, 1);
	t[n] = (struct tm_table){ .id = "fig14", .title = "Figure 14: TM-Training with LRU, with Belady (_off), ideal at 25:1", .metric = "efficiency_vs_hbm_only_ratio" };
	by_workload(&t[n++], s, tm_family, 3, tm_eff, 25, 1, 1);
	t[n] = (struct tm_table){ .id = "fig15", .title = "Figure 15: energy efficiency at 25:1, flash bandwidth halved", .metric = "efficiency_vs_hbm_only_ratio" };
	by_workload(&t[n++], s, fig9, 4, tm_eff, 25, 1, 0.5);
	t[n] = (struct tm_table){ .id = "sentinel_eff", .title = "Sentinel's migration interval (ops): energy efficiency at 25:1", .metric = "efficiency_vs_hbm_only_ratio" };
	by_workload(&t[n++], s, sentinels, NSENT, tm_eff, 25, 1, 1);
	t[n] = (struct tm_table){ .id = "sentinel_mig", .title = "Sentinel's migration interval (ops): migration / data used at 25:1", .metric = "migration_vs_data_ratio" };
	by_workload(&t[n++], s, sentinels, NSENT, tm_mig_data, 25, 1, 1);
	t[n] = (struct tm_table){ .id = "energy_sensitivity", .title = "Figure 8's means at 25:1, TM-Training / x, with HBM static power per device or per GiB and 90 W or 0 W of idle power (the same runs)", .metric = "efficiency_ratio" };
	energy_sensitivity(&t[n++], s);
	t[n] = (struct tm_table){ .id = "floor", .title = "Energy efficiency at 25:1 over the floor of the horizontal tiers (docs/tier.md, \"The floor\"): at most 1", .metric = "efficiency_vs_floor_ratio" };
	by_workload(&t[n++], s, prior, 5, tm_eff_floor, 25, 1, 1);
	return n;
}

/* The JSON of the study (its --json, and --plot DIR's results.json). */
static void write_json(const struct tm_study *s, const struct tm_table *t, int n, FILE *out)
{
	struct dl_json j;

	dl_json_result_begin(&j, out);
	dl_json_str(&j, "study", "tm");
	dl_json_array_begin(&j, "cells");
	for (int i = 0; i < n; i++)
		emit(&t[i], JSON, &j);
	emit_claims(s, JSON, &j);
	dl_json_array_end(&j);
	dl_json_object_end(&j);
}

static int tm_save(const struct tm_study *s, const struct tm_table *t, int n, const char *dir);

static int report(const struct tm_study *s, enum fmt f, const char *plot)
{
	static struct tm_table t[TM_TABLES];
	int n = tables(s, t);

	if (f == CSV)
		printf("figure,row,policy,metric,value\n");
	if (f == JSON)
		write_json(s, t, n, stdout);
	for (int i = 0; f != JSON && i < n; i++)
		emit(&t[i], f, NULL);
	if (f != JSON)
		emit_claims(s, f, NULL);
	return plot ? tm_plot(t, n, plot) || tm_save(s, t, n, plot) : 0;
}

/* ---- command ---- */

static int find_workloads(struct tm_study *s, const char *given)
{
	char probe[PATH_MAX + 64];

	if (given) {
		snprintf(s->dir, sizeof(s->dir), "%s", given);
		return 0;
	}
	dl_data_dir("workloads/tm", s->dir, sizeof(s->dir));
	snprintf(probe, sizeof(probe), "%s/palm.tm", s->dir);
	if (access(probe, R_OK) == 0)
		return 0;
	return dl_err("%s: cannot find the workloads (%s); give --workloads DIR", CMD, probe);
}

/* Read every workload once here: a bad file is one message, not one per run. */
static int check_workloads(const struct tm_study *s)
{
	char file[PATH_MAX + 64];

	for (int i = 0; i < TM_NW; i++) {
		struct tier_workload w;

		snprintf(file, sizeof(file), "%s/%s.tm", s->dir, tm_workloads[i]);
		if (tier_workload_read(&w, file))
			return -1;
		tier_workload_free(&w);
	}
	return 0;
}

/* --npu-device: a description with a bf16 peak, checked before any run. */
static int check_npu_device(const char *name)
{
	char *xml;

	if (npu_platform_xml_device(DLASIM_TIER_HORIZONTAL, name, &xml))
		return -1;
	free(xml);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: dlasim study tm [--json | --csv] [--workloads DIR] [--plot DIR] [--jobs N] [--timeout T]\n"
		   "  TM-Training's Figures 2-4 and 8-15 (docs/validation/tm.md)\n"
		   "  --workloads DIR where the .tm files are (default: the shipped workloads/tm)\n"
		   "  --plot DIR      draw the figures as PNG and SVG (docs/figures.md)\n"
		   "  --npu-device D  every run's NPU from device description D (docs/devices.md)\n"
		   DL_JOBS_USAGE
		   "  A run that fails is named with the command line that repeats it and\n"
		   "  shown as n/a (with the figures that need it); the study then exits 1.\n");
}

static void collect(struct tm_study *s, const struct dl_job_result *r)
{
	for (int i = 0; i < s->n; i++) {
		const struct tier_result *x = dl_job_data(&r[i]);

		s->ok[i] = x != NULL;
		if (x)
			s->res[i] = *x;
	}
}

int study_tm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "plot", required_argument, NULL, 'p' },
		{ "npu-device", required_argument, NULL, 'N' },
		DL_JOBS_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct tm_study s;
	struct dl_jobs jobs = { .what = CMD, .run = run_job, .describe = describe, .arg = &s,
				.result_size = sizeof(struct tier_result) };
	struct dl_job_result *r;
	const char *dir = NULL, *plot = NULL;
	enum fmt f = HUMAN;
	int c, rc, failed, ret = DL_EXIT_ERROR;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		rc = dl_jobs_option(&jobs, c, optarg);
		if (rc < 0)
			return DL_EXIT_USAGE;
		if (rc > 0)
			continue;
		switch (c) {
		case 'j': f = JSON; break;
		case 'c': f = CSV; break;
		case 'w': dir = optarg; break;
		case 'p': plot = optarg; break;
		case 'N':
			if (check_npu_device(optarg))
				return DL_EXIT_USAGE;
			s.npu_device = optarg;
			break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		dl_err("%s: unexpected argument '%s'", CMD, argv[optind]);
		return DL_EXIT_USAGE;
	}
	if (find_workloads(&s, dir) || check_workloads(&s) || (plot && dl_plot_dir(plot, "--plot")))
		return DL_EXIT_ERROR;
	plan(&s);
	r = calloc((size_t)s.n, sizeof(*r));
	if (!r)
		return dl_err("out of memory"), DL_EXIT_ERROR;
	jobs.count = s.n;
	failed = dl_jobs_run(&jobs, r);
	if (failed >= 0) {
		int bad;

		collect(&s, r);
		bad = report(&s, f, plot);
		ret = dl_jobs_status(&jobs, failed);
		if (ret == DL_EXIT_OK && (fflush(stdout) || bad))
			ret = DL_EXIT_ERROR;
	}
	dl_jobs_free(r, s.n);
	free(r);
	return ret;
}

/* ---- the results file: beside the figures, and read back by dlasim plot ---- */

/* The study's JSON as DIR/results.json. */
static int tm_save(const struct tm_study *s, const struct tm_table *t, int n, const char *dir)
{
	struct dl_outfile o;

	if (dl_outfile_open_results(&o, dir))
		return -1;
	write_json(s, t, n, o.f);
	return dl_outfile_commit(&o);
}

/* Cell i into its table: its row under the table's row name, its policy,
 * its value under the table's metric (claims and other tables' cells
 * are not drawn). */
static int read_cell(struct tm_table *t, int n, const struct dl_jv *c, int i, const char *file)
{
	const char *fig = dl_jv_str(dl_jv_get(c, "figure"));
	const char *rows[TM_MAXROWS];
	const struct dl_jv *row;
	int k, r, col;

	if (!fig)
		return dl_err("%s: cells[%d]: no figure", file, i);
	for (k = 0; k < n && strcmp(t[k].id, fig); k++)
		;
	if (k == n)
		return strcmp(fig, "claims") ? dl_err("%s: cells[%d]: no figure %s in study tm", file, i, fig) : 0;
	for (r = 0; r < t[k].nrows; r++)
		rows[r] = t[k].rows[r];
	/* The row under the table's row name (JSON), or "row" (CSV). */
	row = dl_jv_get(c, t[k].rowname);
	r = dl_str_index(rows, t[k].nrows, dl_jv_str(row ? row : dl_jv_get(c, "row")));
	col = dl_str_index(t[k].cols, t[k].ncols, dl_jv_str(dl_jv_get(c, "policy")));
	if (r < 0 || col < 0)
		return dl_err("%s: cells[%d]: no such %s or policy in study tm's %s", file, i,
			      t[k].rowname, fig);
	t[k].v[r][col] = dl_jv_num(dl_jv_get(c, t[k].metric));
	return 0;
}

int study_tm_replot(const struct dl_jv *doc, const char *file, const char *dir)
{
	static struct tm_study none;	/* no runs: the tables' shape, every value n/a */
	static struct tm_table t[TM_TABLES];
	const struct dl_jv *cells = dl_jv_get(doc, "cells");
	int n = tables(&none, t);

	if (!cells || cells->type != DL_JV_ARR)
		return dl_err("%s: no cells of study tm", file);
	for (int i = 0; i < cells->n; i++)
		if (read_cell(t, n, &cells->item[i], i, file))
			return -1;
	return tm_plot(t, n, dir);
}
