/* SPDX-License-Identifier: MIT */
/*
 * dlasim study tm: TM-Training's experiments (Figures 2-4 and 8-15) as
 * tables, one process per simulated iteration on every CPU, normalized as
 * the paper normalizes.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/args.h"
#include "kernel/datadir.h"
#include "kernel/diag.h"
#include "kernel/jobs.h"
#include "kernel/json.h"
#include "commands.h"
#include "run.h"
#include "workload.h"

#define CMD "study tm"
#define MAXJOBS 400
#define MAXCOLS 12
#define MAXROWS 12

static const char *const workloads[] = { "bert-large", "t5", "chinchilla", "gpt3", "palm" };
#define NW 5
static const double ratios[] = { 5, 10, 25, 50, 100, 150 };
#define NR 6
static const char *const prior[] = { "sentinel", "autotm", "deeptm", "tm_training", "ideal" };
static const char *const motivation[] = { "hor_off", "hor_on", "ver_off", "ver_on" };
static const char *const all[] = { "hbm_only", "hor_on", "hor_off", "ver_on", "ver_off",
				   "sentinel", "autotm", "deeptm", "tm_training",
				   "tm_training_off", "ideal" };

struct job {
	const char *workload, *policy;
	double ratio, batch, bw;
};

struct study {
	char dir[PATH_MAX];
	struct job jobs[MAXJOBS];
	struct tier_result res[MAXJOBS];
	int n;
};

/* ---- the runs ---- */

static void add(struct study *s, const char *w, const char *p, double r, double b, double bw)
{
	for (int i = 0; i < s->n; i++) {
		const struct job *j = &s->jobs[i];

		if (!strcmp(j->workload, w) && !strcmp(j->policy, p) && j->ratio == r &&
		    j->batch == b && j->bw == bw)
			return;
	}
	if (s->n < MAXJOBS)
		s->jobs[s->n++] = (struct job){ w, p, r, b, bw };
}

static void plan(struct study *s)
{
	for (int w = 0; w < NW; w++) {
		for (size_t p = 0; p < sizeof(all) / sizeof(all[0]); p++)
			add(s, workloads[w], all[p], 25, 1, 1);
		for (int r = 0; r < NR; r++)
			for (int p = 0; p < 5; p++)
				add(s, workloads[w], prior[p], ratios[r], 1, 1);
		add(s, workloads[w], "hbm_only", 25, 2, 1);
		for (int p = 0; p < 4; p++) {
			add(s, workloads[w], prior[p], 25, 2, 1);
			add(s, workloads[w], prior[p], 25, 1, 0.5);
		}
	}
	for (int r = 0; r < NR; r++)
		for (int p = 0; p < 4; p++)
			add(s, "palm", motivation[p], ratios[r], 1, 1);
}

static int run_job(int index, FILE *out, void *arg)
{
	struct study *s = arg;
	const struct job *j = &s->jobs[index];
	char file[PATH_MAX + 64];
	struct tier_config cfg = { file, j->policy, j->ratio, j->batch, j->bw, NULL };
	struct tier_result r;

	snprintf(file, sizeof(file), "%s/%s.tm", s->dir, j->workload);
	if (tier_run(&cfg, &r))
		return 1;
	return fwrite(&r, sizeof(r), 1, out) == 1 ? 0 : 1;
}

static const struct tier_result *find(const struct study *s, const char *w, const char *p,
				      double r, double b, double bw)
{
	if (!strcmp(p, "hbm_only"))
		r = 25, bw = 1;	/* the baseline has no tier 2 */
	for (int i = 0; i < s->n; i++) {
		const struct job *j = &s->jobs[i];

		if (!strcmp(j->workload, w) && !strcmp(j->policy, p) && j->ratio == r &&
		    j->batch == b && j->bw == bw)
			return &s->res[i];
	}
	return NULL;
}

/* ---- tables ---- */

enum fmt { HUMAN, CSV, JSON };

struct table {
	const char *id, *title, *metric;	/* metric names its unit */
	const char *rowname;
	char rows[MAXROWS][32];
	const char *cols[MAXCOLS];
	double v[MAXROWS][MAXCOLS];
	int nrows, ncols;
};

static void emit(const struct table *t, enum fmt f, struct dl_json *j)
{
	if (f == HUMAN) {
		printf("\n%s\n  %s\n%-12s", t->title, t->metric, t->rowname);
		for (int c = 0; c < t->ncols; c++)
			printf(" %15s", t->cols[c]);
		putchar('\n');
		for (int r = 0; r < t->nrows; r++) {
			printf("%-12s", t->rows[r]);
			for (int c = 0; c < t->ncols; c++)
				if (isfinite(t->v[r][c]))
					printf(" %15.4g", t->v[r][c]);
				else
					printf(" %15s", "n/a");
			putchar('\n');
		}
		return;
	}
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			if (f == CSV) {
				if (isfinite(t->v[r][c]))
					printf("%s,%s,%s,%s,%.9g\n", t->id, t->rows[r], t->cols[c],
					       t->metric, t->v[r][c]);
				else
					printf("%s,%s,%s,%s,\n", t->id, t->rows[r], t->cols[c], t->metric);
				continue;
			}
			dl_json_object_begin(j, NULL);
			dl_json_str(j, "figure", t->id);
			dl_json_str(j, t->rowname, t->rows[r]);
			dl_json_str(j, "policy", t->cols[c]);
			if (isfinite(t->v[r][c]))
				dl_json_num(j, t->metric, t->v[r][c]);
			else
				dl_json_null(j, t->metric);
			dl_json_object_end(j);
		}
	}
}

typedef double (*metric_fn)(const struct study *s, const char *w, const char *p,
			    double r, double b, double bw);

static double val(const struct tier_result *x, size_t off)
{
	return x ? *(const double *)((const char *)x + off) : NAN;
}

#define F(field) offsetof(struct tier_result, field)

static double eff_vs_hbm(const struct study *s, const char *w, const char *p, double r,
			 double b, double bw)
{
	return val(find(s, w, p, r, b, bw), F(throughput_per_watt)) /
	       val(find(s, w, "hbm_only", r, b, 1), F(throughput_per_watt));
}

static double mig_vs_ideal(const struct study *s, const char *w, const char *p, double r,
			   double b, double bw)
{
	return val(find(s, w, p, r, b, bw), F(migration_bytes)) /
	       val(find(s, w, "ideal", r, b, bw), F(migration_bytes));
}

static double mig_vs_data(const struct study *s, const char *w, const char *p, double r,
			  double b, double bw)
{
	const struct tier_result *x = find(s, w, p, r, b, bw);

	return val(x, F(migration_bytes)) / val(x, F(data_bytes));
}

static double thr_vs_hbm(const struct study *s, const char *w, const char *p, double r,
			 double b, double bw)
{
	return val(find(s, w, p, r, b, bw), F(throughput_samples_per_s)) /
	       val(find(s, w, "hbm_only", r, b, 1), F(throughput_samples_per_s));
}

static double mem_energy(const struct tier_result *x)
{
	return val(x, F(energy_migration_j)) + val(x, F(energy_prefetch_j)) +
	       val(x, F(energy_static_j));
}

/* Per workload at one setting, plus the mean (arithmetic; geometric for
 * ratios of throughput, as the paper's Figure 12). */
static void by_workload(struct table *t, const struct study *s, const char *const *pol,
			int np, metric_fn m, double r, double b, double bw)
{
	t->rowname = "workload";
	t->ncols = np;
	t->nrows = NW + 1;
	for (int c = 0; c < np; c++) {
		double sum = 0;

		t->cols[c] = pol[c];
		for (int w = 0; w < NW; w++) {
			snprintf(t->rows[w], sizeof(t->rows[w]), "%s", workloads[w]);
			t->v[w][c] = m(s, workloads[w], pol[c], r, b, bw);
			sum += t->v[w][c];
		}
		snprintf(t->rows[NW], sizeof(t->rows[NW]), "mean");
		t->v[NW][c] = sum / NW;
	}
}

/* Figure 9: migration over the ideal case's, per workload; the mean row
 * is the ratio of the means of migration over data used (the ideal moves
 * next to nothing where tier 1 holds the working set, T5, which would
 * swamp a mean of ratios). */
static void migration_table(struct table *t, const struct study *s, const char *const *pol,
			    int np)
{
	double ideal = 0;

	by_workload(t, s, pol, np, mig_vs_ideal, 25, 1, 1);
	for (int w = 0; w < NW; w++)
		ideal += mig_vs_data(s, workloads[w], "ideal", 25, 1, 1) / NW;
	for (int c = 0; c < np; c++) {
		double mean = 0;

		for (int w = 0; w < NW; w++)
			mean += mig_vs_data(s, workloads[w], pol[c], 25, 1, 1) / NW;
		t->v[NW][c] = mean / ideal;
	}
}

static void by_ratio(struct table *t, const struct study *s, const char *w,
		     const char *const *pol, int np, metric_fn m, bool geomean)
{
	t->rowname = "tier1_ratio";
	t->ncols = np;
	t->nrows = NR;
	for (int r = 0; r < NR; r++) {
		snprintf(t->rows[r], sizeof(t->rows[r]), "%g:1", ratios[r]);
		for (int c = 0; c < np; c++) {
			double lg = 0;

			t->cols[c] = pol[c];
			if (!geomean) {
				t->v[r][c] = m(s, w, pol[c], ratios[r], 1, 1);
				continue;
			}
			for (int k = 0; k < NW; k++)
				lg += log(m(s, workloads[k], pol[c], ratios[r], 1, 1));
			t->v[r][c] = exp(lg / NW);
		}
	}
}

static void memory_breakdown(struct table *t, const struct study *s)
{
	static const char *const cols[] = { "hor_off.mig", "hor_off.pre", "hor_off.sta",
					    "ver_off.mig", "ver_off.pre", "ver_off.sta" };
	static const char *const pol[] = { "hor_off", "ver_off" };
	double base = mem_energy(find(s, "palm", "hbm_only", 25, 1, 1));

	t->rowname = "tier1_ratio";
	t->ncols = 6;
	t->nrows = NR;
	for (int r = 0; r < NR; r++) {
		snprintf(t->rows[r], sizeof(t->rows[r]), "%g:1", ratios[r]);
		for (int p = 0; p < 2; p++) {
			const struct tier_result *x = find(s, "palm", pol[p], ratios[r], 1, 1);

			t->v[r][3 * p] = val(x, F(energy_migration_j)) / base;
			t->v[r][3 * p + 1] = val(x, F(energy_prefetch_j)) / base;
			t->v[r][3 * p + 2] = val(x, F(energy_static_j)) / base;
		}
	}
	for (int c = 0; c < 6; c++)
		t->cols[c] = cols[c];
}

static void report(const struct study *s, enum fmt f)
{
	static const char *const tm_family[] = { "tm_training", "tm_training_off", "ideal" };
	static const char *const fig9[] = { "sentinel", "autotm", "deeptm", "tm_training" };
	struct table t[11];
	struct dl_json j;
	int n = 0;

	memset(t, 0, sizeof(t));
	t[n] = (struct table){ .id = "fig2", .title = "Figure 2: PaLM energy efficiency vs tier-1 ratio (motivation)", .metric = "efficiency_vs_hbm_only_ratio" };
	by_ratio(&t[n++], s, "palm", motivation, 4, eff_vs_hbm, false);
	t[n] = (struct table){ .id = "fig3", .title = "Figure 3: PaLM inter-tier migration / data used (motivation)", .metric = "migration_vs_data_ratio" };
	by_ratio(&t[n++], s, "palm", motivation, 4, mig_vs_data, false);
	t[n] = (struct table){ .id = "fig4", .title = "Figure 4: PaLM memory energy (migration, prefetch, static) / HBM-only memory energy", .metric = "energy_vs_hbm_only_memory_ratio" };
	memory_breakdown(&t[n++], s);
	t[n] = (struct table){ .id = "fig8", .title = "Figure 8: energy efficiency at 25:1", .metric = "efficiency_vs_hbm_only_ratio" };
	by_workload(&t[n++], s, prior, 5, eff_vs_hbm, 25, 1, 1);
	t[n] = (struct table){ .id = "fig9", .title = "Figure 9: inter-tier migration at 25:1", .metric = "migration_vs_ideal_ratio" };
	migration_table(&t[n++], s, fig9, 4);
	t[n] = (struct table){ .id = "fig10", .title = "Figure 10: PaLM energy efficiency vs tier-1 ratio", .metric = "efficiency_vs_hbm_only_ratio" };
	by_ratio(&t[n++], s, "palm", prior, 5, eff_vs_hbm, false);
	t[n] = (struct table){ .id = "fig11", .title = "Figure 11: PaLM inter-tier migration / data used", .metric = "migration_vs_data_ratio" };
	by_ratio(&t[n++], s, "palm", prior, 5, mig_vs_data, false);
	t[n] = (struct table){ .id = "fig12", .title = "Figure 12: throughput vs tier-1 ratio, geometric mean of the 5 workloads", .metric = "throughput_vs_hbm_only_ratio" };
	by_ratio(&t[n++], s, NULL, prior, 5, thr_vs_hbm, true);
	t[n] = (struct table){ .id = "fig13", .title = "Figure 13: energy efficiency at 25:1, batch and address space doubled", .metric = "efficiency_vs_hbm_only_ratio" };
	by_workload(&t[n++], s, fig9, 4, eff_vs_hbm, 25, 2, 1);
	t[n] = (struct table){ .id = "fig14", .title = "Figure 14: TM-Training with LRU, with Belady (_off), ideal at 25:1", .metric = "efficiency_vs_hbm_only_ratio" };
	by_workload(&t[n++], s, tm_family, 3, eff_vs_hbm, 25, 1, 1);
	t[n] = (struct table){ .id = "fig15", .title = "Figure 15: energy efficiency at 25:1, flash bandwidth halved", .metric = "efficiency_vs_hbm_only_ratio" };
	by_workload(&t[n++], s, fig9, 4, eff_vs_hbm, 25, 1, 0.5);
	if (f == CSV)
		printf("figure,row,policy,metric,value\n");
	if (f == JSON) {
		dl_json_result_begin(&j, stdout);
		dl_json_array_begin(&j, "cells");
	}
	for (int i = 0; i < n; i++)
		emit(&t[i], f, &j);
	if (f == JSON) {
		dl_json_array_end(&j);
		dl_json_object_end(&j);
		putchar('\n');
	}
}

/* ---- command ---- */

static int find_workloads(struct study *s, const char *given)
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
static int check_workloads(const struct study *s)
{
	char file[PATH_MAX + 64];

	for (int i = 0; i < NW; i++) {
		struct tier_workload w;

		snprintf(file, sizeof(file), "%s/%s.tm", s->dir, workloads[i]);
		if (tier_workload_read(&w, file))
			return -1;
		tier_workload_free(&w);
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: dlasim study tm [--json | --csv] [--workloads DIR]\n"
		   "  TM-Training's Figures 2-4 and 8-15 (docs/validation/tm.md)\n");
}

static int collect(struct study *s, struct dl_job_result *r)
{
	for (int i = 0; i < s->n; i++) {
		if (r[i].status || r[i].len != sizeof(s->res[i]))
			return dl_err("%s: run %s/%s at %g:1 failed", CMD, s->jobs[i].workload,
				      s->jobs[i].policy, s->jobs[i].ratio);
		memcpy(&s->res[i], r[i].data, sizeof(s->res[i]));
	}
	return 0;
}

int study_tm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct study s;
	struct dl_job_result *r;
	const char *dir = NULL;
	enum fmt f = HUMAN;
	int c, ret = DL_EXIT_ERROR;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'j': f = JSON; break;
		case 'c': f = CSV; break;
		case 'w': dir = optarg; break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		dl_err("%s: unexpected argument '%s'", CMD, argv[optind]);
		return DL_EXIT_USAGE;
	}
	if (find_workloads(&s, dir) || check_workloads(&s))
		return DL_EXIT_ERROR;
	plan(&s);
	r = calloc((size_t)s.n, sizeof(*r));
	if (!r)
		return dl_err("out of memory"), DL_EXIT_ERROR;
	if (dl_jobs_run(s.n, 0, run_job, &s, r, "study tm") == 0 && collect(&s, r) == 0) {
		report(&s, f);
		ret = fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK;
	}
	dl_jobs_free(r, s.n);
	free(r);
	return ret;
}
