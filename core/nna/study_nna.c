/* SPDX-License-Identifier: MIT */
/*
 * dlasim study nna: the dissertation's Chapter 5 evaluation (Figures 5.2,
 * 5.3, 5.10-5.15, Table 5.2) beside its numbers: seven networks under the
 * four designs DWS_ROMA, ARAI_ROMA, DWS_LAP, ARAI_LAP on a 32 x 32 array,
 * and DWS against ARAI (ROMA) on 16 x 16 and 64 x 64 arrays.  One process
 * per run, on every CPU (docs/validation/nna.md).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/args.h"
#include "lib/datadir.h"
#include "lib/diag.h"
#include "results/jobs.h"
#include "results/jsonread.h"
#include "results/outfile.h"
#include "lib/units.h"
#include "results/json.h"
#include "results/plot.h"
#include "results/table.h"
#include "commands.h"
#include "options.h"
#include "run.h"

#define CMD "study nna"
#define MAXMODELS 7
#define MAXSIZES 4
#define MAXJOBS (MAXMODELS * (4 + 2 * (MAXSIZES - 1)))

/* Table 5.4's networks, in the dissertation's order. */
static const struct {
	const char *file, *id;
} models[MAXMODELS] = {
	{ "alexnet", "ALX" }, { "darknet19", "DRK" }, { "facerec", "FR" }, { "resnet18", "RES" },
	{ "vgg16", "VGG" }, { "zfnet", "ZF" }, { "mobilenet_v1", "MOB" },
};

enum design { DWS_ROMA, ARAI_ROMA, DWS_LAP, ARAI_LAP, DESIGNS };

static const struct {
	const char *name, *dataflow, *placement;
} designs[DESIGNS] = {
	{ "DWS_ROMA", "ws", "roma" }, { "ARAI_ROMA", "arai", "roma" },
	{ "DWS_LAP", "ws", "lap" }, { "ARAI_LAP", "arai", "lap" },
};

struct job {
	int model, design, sa;
};

struct study {
	char dir[PATH_MAX];
	char dram[PATH_MAX + 64];
	struct nna_config base;
	int model[MAXMODELS], nmodels;
	int size[MAXSIZES], nsizes;
	struct job jobs[MAXJOBS];
	struct nna_result res[MAXJOBS];
	int n;
	char reduced[160];	/* how the run falls short of the whole study, or "" */
};

/* ---- the runs ---- */

static void plan(struct study *s)
{
	for (int m = 0; m < s->nmodels; m++) {
		for (int d = 0; d < DESIGNS; d++)
			s->jobs[s->n++] = (struct job){ s->model[m], d, 32 };
		for (int z = 0; z < s->nsizes; z++) {
			if (s->size[z] == 32)
				continue;
			s->jobs[s->n++] = (struct job){ s->model[m], DWS_ROMA, s->size[z] };
			s->jobs[s->n++] = (struct job){ s->model[m], ARAI_ROMA, s->size[z] };
		}
	}
}

static int run_job(int index, FILE *out, void *arg)
{
	struct study *s = arg;
	const struct job *j = &s->jobs[index];
	char file[PATH_MAX + 64];
	struct nna_config cfg = s->base;
	struct nna_result r;

	snprintf(file, sizeof(file), "%s/%s.dnn", s->dir, models[j->model].file);
	cfg.workload = file;
	cfg.dataflow = designs[j->design].dataflow;
	cfg.placement = designs[j->design].placement;
	cfg.sa = j->sa;
	if (nna_run(&cfg, &r))
		return 1;
	return fwrite(&r, sizeof(r), 1, out) == 1 ? 0 : 1;
}

static void describe(int index, void *arg, char *buf, size_t len)
{
	const struct study *s = arg;
	const struct job *j = &s->jobs[index];

	snprintf(buf, len, "dlasim nna --workload %s/%s.dnn --dataflow %s --dram-place %s --sa %d",
		 s->dir, models[j->model].file, designs[j->design].dataflow,
		 designs[j->design].placement, j->sa);
}

static const struct nna_result *find(const struct study *s, int model, int design, int sa)
{
	for (int i = 0; i < s->n; i++)
		if (s->jobs[i].model == model && s->jobs[i].design == design && s->jobs[i].sa == sa)
			return &s->res[i];
	return NULL;
}

/* ---- tables ---- */

enum fmt { HUMAN = DL_TABLE_HUMAN, CSV = DL_TABLE_CSV, JSON = DL_TABLE_JSON };

#define MAXCOLS 6

struct table {
	const char *id, *title, *metric;	/* metric names its unit */
	const char *ylabel;			/* the figure's axis, with its unit */
	const char *y2label;			/* the right-hand axis: columns */
	int right_from;				/* right_from.. (0: none) */
	const char *cols[MAXCOLS];
	int ncols;
	double v[MAXMODELS + 1][MAXCOLS];	/* last row: the mean */
	double paper[MAXCOLS];			/* the dissertation's mean, NAN if none */
};

/* The dissertation's means, where it gives them. */
static void emit_paper(const struct table *t, enum fmt f, struct dl_json *j)
{
	bool any = false;

	for (int c = 0; c < t->ncols; c++)
		any |= isfinite(t->paper[c]);
	if (!any)
		return;
	if (f == HUMAN)
		printf("%-6s", "paper");
	for (int c = 0; c < t->ncols; c++) {
		double v = t->paper[c];

		if (f == HUMAN && isfinite(v))
			printf(" %12.2f", v);
		else if (f == HUMAN)
			printf(" %12s", "");
		else if (f == CSV && isfinite(v))
			printf("%s,paper,%s,%s,%.9g\n", t->id, t->cols[c], t->metric, v);
		else if (f == JSON && isfinite(v)) {
			dl_json_object_begin(j, NULL);
			dl_json_str(j, "figure", t->id);
			dl_json_str(j, "model", "paper");
			dl_json_str(j, "column", t->cols[c]);
			dl_json_num(j, t->metric, v);
			dl_json_object_end(j);
		}
	}
	if (f == HUMAN)
		putchar('\n');
}

static void emit(const struct study *s, const struct table *t, enum fmt f, struct dl_json *j)
{
	static const struct dl_table_style style = { .row_width = 6, .width = 12,
						     .precision = 2, .fixed = true, .na = "n/a" };
	const char *rows[MAXMODELS + 1];
	struct dl_table view = { .id = t->id, .title = t->title, .metric = t->metric,
				 .row_key = "model", .col_key = "column", .rows = rows,
				 .cols = t->cols, .nrows = s->nmodels + 1, .ncols = t->ncols,
				 .v = &t->v[0][0], .stride = MAXCOLS, .style = &style };

	for (int r = 0; r < s->nmodels; r++)
		rows[r] = models[s->model[r]].id;
	rows[s->nmodels] = "mean";
	dl_table_emit(&view, (enum dl_table_format)f, j, stdout);
	emit_paper(t, f, j);
}

#define F(field) offsetof(struct nna_result, field)

static double val(const struct nna_result *r, size_t off)
{
	return r ? *(const double *)((const char *)r + off) : NAN;
}

/* 100 (1 - a / b): a reduction; 100 (a / b - 1): an increase. */
static double cut(double a, double b)
{
	return 100 * (1 - a / b);
}

static double gain(double a, double b)
{
	return 100 * (a / b - 1);
}

static void means(const struct study *s, struct table *t)
{
	for (int c = 0; c < t->ncols; c++) {
		double sum = 0;

		for (int r = 0; r < s->nmodels; r++)
			sum += t->v[r][c];
		t->v[s->nmodels][c] = sum / s->nmodels;
	}
}

static void time_cuts(const struct study *s, struct table *t)
{
	for (int r = 0; r < s->nmodels; r++) {
		double base = val(find(s, s->model[r], DWS_ROMA, 32), F(inference_time_s));

		for (int d = ARAI_ROMA; d < DESIGNS; d++)
			t->v[r][d - 1] = cut(val(find(s, s->model[r], d, 32), F(inference_time_s)), base);
	}
	means(s, t);
}

static void traffic_cut(const struct study *s, struct table *t)
{
	for (int r = 0; r < s->nmodels; r++)
		t->v[r][0] = cut(val(find(s, s->model[r], ARAI_ROMA, 32), F(read_blocks)),
				 val(find(s, s->model[r], DWS_ROMA, 32), F(read_blocks)));
	means(s, t);
}

/* LAP against ROMA under each dataflow. */
static void lap_gains(const struct study *s, struct table *t, size_t off)
{
	for (int r = 0; r < s->nmodels; r++) {
		t->v[r][0] = gain(val(find(s, s->model[r], DWS_LAP, 32), off),
				  val(find(s, s->model[r], DWS_ROMA, 32), off));
		t->v[r][1] = gain(val(find(s, s->model[r], ARAI_LAP, 32), off),
				  val(find(s, s->model[r], ARAI_ROMA, 32), off));
	}
	means(s, t);
}

static void absolute(const struct study *s, struct table *t, size_t off, double scale)
{
	for (int r = 0; r < s->nmodels; r++)
		for (int d = 0; d < DESIGNS; d++)
			t->v[r][d] = val(find(s, s->model[r], d, 32), off) * scale;
	means(s, t);
}

static void sweep(const struct study *s, struct table *t)
{
	for (int r = 0; r < s->nmodels; r++)
		for (int z = 0; z < s->nsizes; z++)
			t->v[r][z] = cut(val(find(s, s->model[r], ARAI_ROMA, s->size[z]),
					     F(inference_time_s)),
					 val(find(s, s->model[r], DWS_ROMA, s->size[z]),
					     F(inference_time_s)));
	means(s, t);
}

/* Share of the inference time (or of it stalled) by layer class, DWS_ROMA. */
static void classes(const struct study *s, struct table *t, bool stall)
{
	for (int r = 0; r < s->nmodels; r++) {
		const struct nna_result *x = find(s, s->model[r], DWS_ROMA, 32);

		for (int c = 0; c < NNA_CLASSES; c++)
			t->v[r][c] = 100 * (stall ? x->cls[c].stall_s : x->cls[c].time_s) /
				     x->inference_time_s;
	}
	means(s, t);
}

static void rowtasks(const struct study *s, struct table *t)
{
	for (int r = 0; r < s->nmodels; r++) {
		t->v[r][0] = val(find(s, s->model[r], DWS_LAP, 32), F(rowtasks_per_written_dtile));
		t->v[r][1] = val(find(s, s->model[r], DWS_LAP, 32), F(rowtasks_per_read));
		t->v[r][2] = val(find(s, s->model[r], ARAI_LAP, 32), F(rowtasks_per_read));
		t->v[r][3] = val(find(s, s->model[r], DWS_LAP, 32), F(rowtasks_per_weight_read));
		t->v[r][4] = val(find(s, s->model[r], ARAI_LAP, 32), F(rowtasks_per_weight_read));
	}
	means(s, t);
}

static void footprint(const struct study *s, struct table *t)
{
	for (int r = 0; r < s->nmodels; r++) {
		const struct nna_result *x = find(s, s->model[r], DWS_ROMA, 32);

		t->v[r][0] = (x->load_bytes + x->fmap_bytes) / 1e6;
		t->v[r][1] = x->channels_used;
		t->v[r][2] = val(find(s, s->model[r], DWS_LAP, 32), F(channels_used));
	}
	means(s, t);
}

static void set_cols(struct table *t, const char *const *cols, int n, const double *paper)
{
	t->ncols = n;
	for (int c = 0; c < n; c++) {
		t->cols[c] = cols[c];
		t->paper[c] = paper ? paper[c] : NAN;
	}
}

/* A table as grouped bars, one cluster per network and the mean, the
 * dissertation's means marked on the mean's bars. */
static int plot(const struct study *s, const struct table *t, const char *dir)
{
	const char *cats[MAXMODELS + 1];
	struct dl_plot_series series[MAXCOLS];
	struct dl_plot_mark marks[MAXCOLS];
	double y[MAXCOLS][MAXMODELS + 1];
	int nmarks = 0;

	for (int r = 0; r < s->nmodels; r++)
		cats[r] = models[s->model[r]].id;
	cats[s->nmodels] = "mean";
	for (int c = 0; c < t->ncols; c++) {
		for (int r = 0; r <= s->nmodels; r++)
			y[c][r] = t->v[r][c];
		series[c] = (struct dl_plot_series){ t->cols[c], y[c] };
		if (isfinite(t->paper[c]))
			marks[nmarks++] = (struct dl_plot_mark){ s->nmodels, c, t->paper[c] };
	}
	return dl_plot_render(&(struct dl_plot){ .name = t->id, .title = t->title,
						 .xlabel = "network", .ylabel = t->ylabel,
						 .y2label = t->y2label, .y2_from = t->right_from,
						 .kind = DL_PLOT_BARS, .cats = cats,
						 .ncat = s->nmodels + 1, .series = series,
						 .nseries = t->ncols, .marks = marks,
						 .nmarks = nmarks },
			      dir);
}

#define MAXTABLES 12

/*
 * The study's tables: what each is (id, title, metric, axes, columns, the
 * dissertation's means) and, when `ran` (the runs are in s->res), its
 * values.  Returns how many.
 */
static int define_tables(const struct study *s, struct table *t, bool ran)
{
	static const char *const three[] = { "ARAI_ROMA", "DWS_LAP", "ARAI_LAP" };
	static const char *const two[] = { "DWS", "ARAI" };
	static const char *const four[] = { "DWS_ROMA", "ARAI_ROMA", "DWS_LAP", "ARAI_LAP" };
	static const char *const cls[] = { "narrow", "medium", "wide", "wider" };
	static const char *const rt[] = { "generation", "read_DWS", "read_ARAI",
					   "weight_read_DWS", "weight_read_ARAI" };
	static const char *const fp[] = { "MB", "ch_ROMA", "ch_LAP" };
	static const char *const one[] = { "ARAI" };
	static const double p510[] = { 33.37, 42.00, 61.90 }, p511[] = { 41.12 };
	static const double p512[] = { 75.04, 81.55 }, p513[] = { 87.98, 92.66 };
	static const double p514[] = { 80.93, 72.29 };
	static const double p52[] = { NAN, NAN, 20.31, 75.53 }, p53[] = { NAN, NAN, 19.03, 70.75 };
	static char sizes[MAXSIZES][16];
	static const char *size_cols[MAXSIZES];
	static double p515[MAXSIZES];
	int n = 0;

	memset(t, 0, MAXTABLES * sizeof(*t));
	for (int z = 0; z < s->nsizes; z++) {
		snprintf(sizes[z], sizeof(sizes[z]), "%dx%d", s->size[z], s->size[z]);
		size_cols[z] = sizes[z];
		p515[z] = s->size[z] == 16 ? 46.03 : s->size[z] == 32 ? 33.37 :
			  s->size[z] == 64 ? 21.43 : NAN;
	}
	t[n] = (struct table){ .id = "fig5.10", .title = "Figure 5.10: reduction in inference time against DWS_ROMA", .metric = "time_cut_percent", .ylabel = "reduction in inference time (%)" };
	set_cols(&t[n], three, 3, p510);
	if (ran)
		time_cuts(s, &t[n]);
	n++;
	t[n] = (struct table){ .id = "fig5.11", .title = "Figure 5.11: reduction in DRAM read traffic by ARAI", .metric = "read_traffic_cut_percent", .ylabel = "reduction in DRAM read traffic (%)" };
	set_cols(&t[n], one, 1, p511);
	if (ran)
		traffic_cut(s, &t[n]);
	n++;
	t[n] = (struct table){ .id = "fig5.12", .title = "Figure 5.12: DRAM bandwidth (while accessed) of LAP against ROMA", .metric = "bandwidth_gain_percent", .ylabel = "increase in DRAM bandwidth (%)" };
	set_cols(&t[n], two, 2, p512);
	if (ran)
		lap_gains(s, &t[n], F(bandwidth_busy_Bps));
	n++;
	t[n] = (struct table){ .id = "fig5.12abs", .title = "DRAM bandwidth while accessed", .metric = "bandwidth_busy_GBps", .ylabel = "DRAM bandwidth while accessed (GB/s)" };
	set_cols(&t[n], four, 4, NULL);
	if (ran)
		absolute(s, &t[n], F(bandwidth_busy_Bps), 1e-9);
	n++;
	t[n] = (struct table){ .id = "fig5.13", .title = "Figure 5.13: channel-level parallelism of LAP against ROMA", .metric = "clp_gain_percent", .ylabel = "increase in channel-level parallelism (%)" };
	set_cols(&t[n], two, 2, p513);
	if (ran)
		lap_gains(s, &t[n], F(clp));
	n++;
	t[n] = (struct table){ .id = "fig5.14", .title = "Figure 5.14: bank-level parallelism of LAP against ROMA (ALX: +31.82 DWS, +12.95 ARAI)", .metric = "blp_gain_percent", .ylabel = "increase in bank-level parallelism (%)" };
	set_cols(&t[n], two, 2, p514);
	if (ran)
		lap_gains(s, &t[n], F(blp));
	n++;
	t[n] = (struct table){ .id = "fig5.15", .title = "Figure 5.15: reduction in inference time by ARAI (ROMA) against array size", .metric = "time_cut_percent", .ylabel = "reduction in inference time by ARAI (%)" };
	set_cols(&t[n], size_cols, s->nsizes, p515);
	if (ran)
		sweep(s, &t[n]);
	n++;
	t[n] = (struct table){ .id = "fig5.2", .title = "Figure 5.2: share of the inference time by layer class (DWS_ROMA, 32x32)", .metric = "time_share_percent", .ylabel = "share of the inference time (%)" };
	set_cols(&t[n], cls, 4, p52);
	if (ran)
		classes(s, &t[n], false);
	n++;
	t[n] = (struct table){ .id = "fig5.3", .title = "Figure 5.3: memory stall by layer class, share of the inference time (DWS_ROMA)", .metric = "stall_share_percent", .ylabel = "memory stall, share of the inference time (%)" };
	set_cols(&t[n], cls, 4, p53);
	if (ran)
		classes(s, &t[n], true);
	n++;
	t[n] = (struct table){ .id = "tab5.2", .title = "Table 5.2: rowTasks per feature-map DTile (LAP): generated, read under DWS, read under ARAI; per weight tile read beside", .metric = "rowtasks_per_dtile", .ylabel = "rowTasks per DTile" };
	set_cols(&t[n], rt, 5, NULL);
	if (ran)
		rowtasks(s, &t[n]);
	n++;
	t[n] = (struct table){ .id = "data", .title = "Data in DRAM (weights, inputs and every feature map; VGG16: 80.56 MB in Section 5.4.1) and channels holding it", .metric = "megabytes_or_channels", .ylabel = "data in DRAM (MB)", .y2label = "channels holding the data (count)", .right_from = 1 };
	set_cols(&t[n], fp, 3, NULL);
	if (ran)
		footprint(s, &t[n]);
	n++;
	return n;
}

/* Whether table i is drawn and printed: Figure 5.15 needs sizes. */
static bool shown(const struct study *s, const struct table *t)
{
	return s->nsizes > 0 || strcmp(t->id, "fig5.15") != 0;
}

/* The JSON of the study: its tables' cells, with what names it. */
static void write_json(const struct study *s, const struct table *t, int n, FILE *f)
{
	struct dl_json j;

	dl_json_result_begin(&j, f);
	dl_json_str(&j, "study", "nna");
	if (s->reduced[0])
		dl_json_str(&j, "reduced", s->reduced);
	else
		dl_json_null(&j, "reduced");
	dl_json_array_begin(&j, "cells");
	for (int i = 0; i < n; i++)
		if (shown(s, &t[i]))
			emit(s, &t[i], JSON, &j);
	dl_json_array_end(&j);
	dl_json_object_end(&j);
}

static int plot_all(const struct study *s, const struct table *t, int n, const char *dir)
{
	dl_plot_reduced(s->reduced[0] ? s->reduced : NULL);
	for (int i = 0; i < n; i++)
		if (shown(s, &t[i]) && plot(s, &t[i], dir))
			return -1;
	return 0;
}

/* The study's JSON as DIR/results.json, beside its figures. */
static int save(const struct study *s, const struct table *t, int n, const char *dir)
{
	struct dl_outfile o;

	if (dl_outfile_open_results(&o, dir))
		return -1;
	write_json(s, t, n, o.f);
	return dl_outfile_commit(&o);
}

static int report(const struct study *s, enum fmt f, const char *plot_dir)
{
	static struct table t[MAXTABLES];
	int n = define_tables(s, t, true);

	if (f == JSON)
		write_json(s, t, n, stdout);
	if (f == CSV)
		printf("figure,model,column,metric,value\n");
	for (int i = 0; f != JSON && i < n; i++)
		if (shown(s, &t[i]))
			emit(s, &t[i], f, NULL);
	if (plot_dir && (plot_all(s, t, n, plot_dir) || save(s, t, n, plot_dir)))
		return -1;
	return 0;
}

/* ---- command ---- */

static int find_workloads(struct study *s, const char *given)
{
	char probe[PATH_MAX + 64];

	if (given)
		snprintf(s->dir, sizeof(s->dir), "%s", given);
	else
		dl_data_dir("workloads/nna", s->dir, sizeof(s->dir));
	for (int m = 0; m < s->nmodels; m++) {
		snprintf(probe, sizeof(probe), "%s/%s.dnn", s->dir, models[s->model[m]].file);
		if (access(probe, R_OK) != 0)
			return dl_err("%s: cannot read %s%s", CMD, probe,
				      given ? "" : "; give --workloads DIR");
	}
	return 0;
}

/* --models NAME,...: file names or the dissertation's ids. */
static int parse_models(struct study *s, const char *arg)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	s->nmodels = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int m;

		for (m = 0; m < MAXMODELS; m++)
			if (strcmp(t, models[m].file) == 0 || strcasecmp(t, models[m].id) == 0)
				break;
		if (m == MAXMODELS)
			return dl_bad_option(CMD, "--models", arg,
					     "not a list of alexnet, darknet19, facerec, resnet18, vgg16, zfnet, mobilenet_v1 (or ALX, DRK, FR, RES, VGG, ZF, MOB)");
		for (int k = 0; k < s->nmodels; k++)
			if (s->model[k] == m)
				return dl_bad_option(CMD, "--models", arg, "a network is named twice");
		s->model[s->nmodels++] = m;
	}
	return s->nmodels ? 0 : dl_bad_option(CMD, "--models", arg, "no network named");
}

/* --sizes N,...: the array sizes of Figure 5.15 (32 is always run). */
static int parse_sizes(struct study *s, const char *arg)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	s->nsizes = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long v;

		if (s->nsizes == MAXSIZES)
			return dl_bad_option(CMD, "--sizes", arg, "at most 4 sizes");
		if (dl_parse_int(t, 1, 4096, &v))
			return dl_bad_option(CMD, "--sizes", arg, "not a list of array sizes from 1 to 4096");
		for (int k = 0; k < s->nsizes; k++)
			if (s->size[k] == v)
				return dl_bad_option(CMD, "--sizes", arg, "a size is named twice");
		s->size[s->nsizes++] = (int)v;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: dlasim study nna [--json | --csv] [--plot DIR] [--models LIST]\n"
		   "                        [--sizes LIST] [--workloads DIR] [--dram FILE]\n"
		   "                        [--spm SIZE] [--elem-bytes N] [--burst N]\n"
		   "  The dissertation's Figures 5.2, 5.3, 5.10-5.15 and Table 5.2\n"
		   "  (docs/validation/nna.md).  --models: a subset of the seven networks\n"
		   "  (default all); --sizes: the array sizes of Figure 5.15 (default\n"
		   "  16,32,64; an empty list skips the sweep); --plot: every figure drawn\n"
		   "  with gnuplot into DIR (docs/figures.md).\n"
		   DL_JOBS_USAGE);
}

static int collect(struct study *s, struct dl_job_result *r)
{
	for (int i = 0; i < s->n; i++) {
		const struct nna_result *x = dl_job_data(&r[i]);

		/* Every figure needs every run: the failure was named above. */
		if (!x)
			return dl_err("%s: no figures without run %s %s at %dx%d", CMD,
				      models[s->jobs[i].model].file, designs[s->jobs[i].design].name,
				      s->jobs[i].sa, s->jobs[i].sa);
		s->res[i] = *x;
	}
	return 0;
}

/* Fewer networks than the seven: the means, and so the figures, are of
 * those alone. */
static void name_reduction(struct study *s)
{
	int n;

	if (s->nmodels == MAXMODELS)
		return;
	n = snprintf(s->reduced, sizeof(s->reduced), "%d of the %d networks (", s->nmodels,
		     MAXMODELS);
	for (int m = 0; m < s->nmodels && n < (int)sizeof(s->reduced); m++)
		n += snprintf(s->reduced + n, sizeof(s->reduced) - n, "%s%s", m ? ", " : "",
			      models[s->model[m]].id);
	if (n < (int)sizeof(s->reduced))
		snprintf(s->reduced + n, sizeof(s->reduced) - n, "); the means are theirs");
}

static int parse(struct study *s, struct dl_jobs *jobs, int argc, char **argv, enum fmt *f,
		 const char **dir, const char **plot_dir)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "models", required_argument, NULL, 'm' },
		{ "sizes", required_argument, NULL, 'z' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "plot", required_argument, NULL, 'P' },
		{ "dram", required_argument, NULL, 'd' },
		{ "spm", required_argument, NULL, 's' },
		{ "elem-bytes", required_argument, NULL, 'e' },
		{ "burst", required_argument, NULL, 'b' },
		DL_JOBS_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, rc;

	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		rc = dl_jobs_option(jobs, c, optarg);
		if (rc < 0)
			return DL_EXIT_USAGE;
		if (rc > 0)
			continue;
		switch (c) {
		case 'j': *f = JSON; break;
		case 'c': *f = CSV; break;
		case 'w': *dir = optarg; break;
		case 'P': *plot_dir = optarg; break;
		case 'd': s->base.dram = optarg; break;
		case 'm':
			if (parse_models(s, optarg))
				return DL_EXIT_USAGE;
			break;
		case 'z':
			if (parse_sizes(s, optarg))
				return DL_EXIT_USAGE;
			break;
		case 'h': usage(stdout); return -1;
		case '?': return DL_EXIT_USAGE;
		default:
			if (nna_parse_option(&s->base, c, optarg, CMD))
				return DL_EXIT_USAGE;
		}
	}
	return dl_no_operands(argc, argv, CMD) ? DL_EXIT_USAGE : 0;
}

int study_nna(int argc, char **argv)
{
	static struct study s;
	struct dl_jobs jobs = { .what = CMD, .run = run_job, .describe = describe, .arg = &s,
				.result_size = sizeof(struct nna_result) };
	struct dl_job_result *r;
	const char *dir = NULL, *plot_dir = NULL;
	enum fmt f = HUMAN;
	int ret = DL_EXIT_ERROR;

	memset(&s, 0, sizeof(s));
	if (nna_default_config(&s.base, s.dram, sizeof(s.dram)))
		return DL_EXIT_ERROR;
	for (int m = 0; m < MAXMODELS; m++)
		s.model[s.nmodels++] = m;
	s.size[0] = 16;
	s.size[1] = 32;
	s.size[2] = 64;
	s.nsizes = 3;
	ret = parse(&s, &jobs, argc, argv, &f, &dir, &plot_dir);
	if (ret)
		return ret < 0 ? DL_EXIT_OK : ret;
	if (find_workloads(&s, dir) || (plot_dir && dl_plot_dir(plot_dir, "--plot")))
		return DL_EXIT_ERROR;
	name_reduction(&s);
	plan(&s);
	r = calloc((size_t)s.n, sizeof(*r));
	if (!r)
		return dl_err("out of memory"), DL_EXIT_ERROR;
	ret = DL_EXIT_ERROR;
	jobs.count = s.n;
	if (dl_jobs_run(&jobs, r) >= 0 && collect(&s, r) == 0) {
		if (report(&s, f, plot_dir) == 0)
			ret = fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK;
	}
	dl_jobs_free(r, s.n);
	free(r);
	return ret;
}

/* ---- dlasim plot: the figures again from the study's JSON ---- */

static int model_of(const char *id)
{
	for (int m = 0; id && m < MAXMODELS; m++)
		if (strcmp(models[m].id, id) == 0)
			return m;
	return -1;
}

/* The networks (in the order of the cells) and Figure 5.15's sizes. */
static int read_shape(struct study *s, const struct dl_jv *cells, const char *file)
{
	for (int i = 0; i < cells->n; i++) {
		const struct dl_jv *c = &cells->item[i];
		const char *fig = dl_jv_str(dl_jv_get(c, "figure"));
		const char *model = dl_jv_str(dl_jv_get(c, "model"));
		const char *col = dl_jv_str(dl_jv_get(c, "column"));
		int m = model_of(model), k, size;

		if (!fig || !model || !col)
			return dl_err("%s: cells[%d]: no figure, model or column", file, i);
		if (m < 0 && strcmp(model, "mean") && strcmp(model, "paper"))
			return dl_err("%s: cells[%d]: '%s' is none of the study's networks", file, i, model);
		for (k = 0; m >= 0 && k < s->nmodels && s->model[k] != m; k++)
			;
		if (m >= 0 && k == s->nmodels)
			s->model[s->nmodels++] = m;
		if (strcmp(fig, "fig5.15") || strcmp(model, "mean") || sscanf(col, "%dx", &size) != 1)
			continue;
		if (s->nsizes == MAXSIZES)
			return dl_err("%s: cells[%d]: more than %d array sizes", file, i, MAXSIZES);
		s->size[s->nsizes++] = size;
	}
	return s->nmodels ? 0 : dl_err("%s: no network's cells", file);
}

static int col_of(const struct table *t, const char *col)
{
	for (int c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c], col) == 0)
			return c;
	return -1;
}

/* Each cell's value into its table (the dissertation's means are the
 * tables' own). */
static int read_cells(const struct study *s, struct table *t, int n, const struct dl_jv *cells,
		      const char *file)
{
	for (int i = 0; i < cells->n; i++) {
		const struct dl_jv *c = &cells->item[i];
		const char *fig = dl_jv_str(dl_jv_get(c, "figure"));
		const char *model = dl_jv_str(dl_jv_get(c, "model"));
		int k, r = 0, col;

		if (!strcmp(model, "paper"))
			continue;
		for (k = 0; k < n && strcmp(t[k].id, fig); k++)
			;
		if (k == n || (col = col_of(&t[k], dl_jv_str(dl_jv_get(c, "column")))) < 0)
			return dl_err("%s: cells[%d]: no figure %s with that column in study nna",
				      file, i, fig);
		while (r < s->nmodels && strcmp(models[s->model[r]].id, model))
			r++;
		t[k].v[r][col] = dl_jv_num(dl_jv_get(c, t[k].metric));
	}
	return 0;
}

int study_nna_replot(const struct dl_jv *doc, const char *file, const char *dir)
{
	static struct study s;
	static struct table t[MAXTABLES];
	const struct dl_jv *cells = dl_jv_get(doc, "cells");
	int n;

	memset(&s, 0, sizeof(s));
	if (!cells || cells->type != DL_JV_ARR)
		return dl_err("%s: no cells of study nna", file);
	if (read_shape(&s, cells, file))
		return -1;
	name_reduction(&s);	/* from the networks the cells hold */
	n = define_tables(&s, t, false);
	for (int i = 0; i < n; i++)
		for (int r = 0; r <= MAXMODELS; r++)
			for (int c = 0; c < MAXCOLS; c++)
				t[i].v[r][c] = NAN;
	if (read_cells(&s, t, n, cells, file))
		return -1;
	return plot_all(&s, t, n, dir);
}
