/* SPDX-License-Identifier: MIT */
/*
 * study llm's tables (speedup over DC, iteration time, breakdown, memory
 * per device, offload), printed as every study prints one
 * (results/table.h), saved as results.json and drawn with gnuplot; and
 * drawn again from results.json for dlasim plot.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/strmap.h"
#include "results/json.h"
#include "results/jsonread.h"
#include "results/outfile.h"
#include "results/plot.h"
#include "results/table.h"
#include "commands.h"
#include "study_llm.h"

#define MAXROWS (SL_MAXCONFIGS * SL_MACHINES)
#define MAXCOLS 8

enum shape {
	BY_MACHINE,	/* a row per configuration, a column per machine */
	BY_RUN,		/* a row per configuration and machine (the breakdown) */
	BY_CONFIG,	/* a row per configuration, columns of their own (memory) */
};

struct table {
	const char *id, *title, *metric, *ylabel;
	enum shape shape;
	enum dl_plot_kind kind;
	bool drawn;
	const char *cols[MAXCOLS];
	int ncols;
	char rows[MAXROWS][64];
	int nrows;
	double v[MAXROWS][MAXCOLS];
};

static const char *const parts[] = { "compute", "tp", "pp", "bubble", "dp", "ep", "offload" };
#define NPARTS 7
static const char *const kinds[] = { "params", "grads", "optimizer", "activations" };
#define NKINDS 4

static void shape_rows(const struct sl_study *s, struct table *t)
{
	t->nrows = 0;
	for (int c = 0; c < s->ncfg; c++) {
		if (t->shape != BY_RUN) {
			snprintf(t->rows[t->nrows++], sizeof(t->rows[0]), "%s", s->label[c]);
			continue;
		}
		for (int x = 0; x < SL_MACHINES; x++)
			snprintf(t->rows[t->nrows++], sizeof(t->rows[0]), "%s/%s", s->label[c],
				 sl_machines[x].name);
	}
	if (t->shape == BY_MACHINE) {
		t->ncols = SL_MACHINES;
		for (int x = 0; x < SL_MACHINES; x++)
			t->cols[x] = sl_machines[x].name;
	}
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < MAXCOLS; c++)
			t->v[r][c] = NAN;
}

static const struct llm_result *result(const struct sl_study *s, int c, int x)
{
	return s->ok[c][x] ? &s->res[c][x] : NULL;
}

/* The memory per device is the model's, the same on every machine: the
 * first run of the configuration that finished. */
static const struct llm_result *any_result(const struct sl_study *s, int c)
{
	for (int x = 0; x < SL_MACHINES; x++)
		if (s->ok[c][x])
			return &s->res[c][x];
	return NULL;
}

static void fill_speedup(const struct sl_study *s, struct table *t)
{
	for (int c = 0; c < s->ncfg; c++)
		for (int x = 0; x < SL_MACHINES; x++)
			if (result(s, c, x) && result(s, c, SL_DC))
				t->v[c][x] = s->res[c][SL_DC].iteration_s / s->res[c][x].iteration_s;
}

static void fill_per_machine(const struct sl_study *s, struct table *t, size_t off, double scale)
{
	for (int c = 0; c < s->ncfg; c++)
		for (int x = 0; x < SL_MACHINES; x++)
			if (result(s, c, x))
				t->v[c][x] = *(const double *)((const char *)&s->res[c][x] + off) * scale;
}

static void fill_breakdown(const struct sl_study *s, struct table *t)
{
	for (int c = 0; c < s->ncfg; c++)
		for (int x = 0; x < SL_MACHINES; x++) {
			const struct llm_result *r = result(s, c, x);
			double *v = t->v[c * SL_MACHINES + x];

			if (!r)
				continue;
			v[0] = r->compute_s, v[1] = r->tp_s, v[2] = r->pp_s, v[3] = r->bubble_s;
			v[4] = r->dp_s, v[5] = r->ep_s, v[6] = r->offload_s;
		}
}

static void fill_memory(const struct sl_study *s, struct table *t)
{
	for (int c = 0; c < s->ncfg; c++) {
		const struct llm_result *r = any_result(s, c);

		if (!r)
			continue;
		t->v[c][0] = r->mem.params / 1e9;
		t->v[c][1] = r->mem.grads / 1e9;
		t->v[c][2] = r->mem.optimizer / 1e9;
		t->v[c][3] = r->mem.activations / 1e9;
		t->v[c][4] = r->mem.total / 1e9;
		t->v[c][5] = s->hbm / 1e9;
	}
}

#define TABLES 6

/* The tables: what each is and, when `ran`, its values from the runs
 * (else every value n/a, for dlasim plot to fill).  Returns how many. */
static int define_tables(const struct sl_study *s, struct table *t, bool ran)
{
	static const char *const mem_cols[] = { "params", "grads", "optimizer", "activations",
						"total", "hbm" };
	int n = 0;

	memset(t, 0, TABLES * sizeof(*t));
	t[n] = (struct table){ .id = "speedup", .title = "Iteration speedup over DC (host memory over PCIe)", .metric = "speedup_over_dc", .ylabel = "speedup over DC (x)", .shape = BY_MACHINE, .kind = DL_PLOT_BARS, .drawn = true };
	shape_rows(s, &t[n]);
	if (ran)
		fill_speedup(s, &t[n]);
	n++;
	t[n] = (struct table){ .id = "iteration", .title = "Iteration time", .metric = "iteration_time_s", .ylabel = "iteration time (s)", .shape = BY_MACHINE };
	shape_rows(s, &t[n]);
	if (ran)
		fill_per_machine(s, &t[n], offsetof(struct llm_result, iteration_s), 1);
	n++;
	t[n] = (struct table){ .id = "breakdown", .title = "Iteration time of the last device by what it waited on", .metric = "time_s", .ylabel = "time per iteration (s)", .shape = BY_RUN, .kind = DL_PLOT_STACKED, .drawn = true, .ncols = NPARTS };
	memcpy(t[n].cols, parts, sizeof(parts));
	shape_rows(s, &t[n]);
	if (ran)
		fill_breakdown(s, &t[n]);
	n++;
	t[n] = (struct table){ .id = "memory", .title = "Memory per device (the fullest stage's) against the device's HBM", .metric = "memory_GB", .ylabel = "memory per device (GB)", .shape = BY_CONFIG, .kind = DL_PLOT_STACKED, .drawn = true, .ncols = 6 };
	memcpy(t[n].cols, mem_cols, sizeof(mem_cols));
	shape_rows(s, &t[n]);
	if (ran)
		fill_memory(s, &t[n]);
	n++;
	t[n] = (struct table){ .id = "offloaded", .title = "Bytes a device keeps in the backing store", .metric = "offloaded_GB", .ylabel = "offloaded per device (GB)", .shape = BY_MACHINE };
	shape_rows(s, &t[n]);
	if (ran)
		fill_per_machine(s, &t[n], offsetof(struct llm_result, offloaded_bytes), 1e-9);
	n++;
	t[n] = (struct table){ .id = "offload_traffic", .title = "Backing-store traffic per device and iteration", .metric = "offload_traffic_GB", .ylabel = "backing-store traffic per device (GB)", .shape = BY_MACHINE };
	shape_rows(s, &t[n]);
	if (ran)
		fill_per_machine(s, &t[n], offsetof(struct llm_result, offload_traffic_bytes), 1e-9);
	n++;
	return n;
}

static void emit(const struct table *t, enum sl_format f, struct dl_json *j)
{
	static const struct dl_table_style style = { .row_width = 30, .width = 12,
						     .precision = 4, .na = "n/a" };
	const char *rows[MAXROWS];
	struct dl_table view = { .id = t->id, .title = t->title, .metric = t->metric,
				 .row_key = "config", .col_key = "column", .rows = rows,
				 .cols = t->cols, .nrows = t->nrows, .ncols = t->ncols,
				 .v = &t->v[0][0], .stride = MAXCOLS, .style = &style };

	for (int r = 0; r < t->nrows; r++)
		rows[r] = t->rows[r];
	dl_table_emit(&view, (enum dl_table_format)f, j, stdout);
}

/* The layouts the rows ran with, before the tables. */
static void print_layouts(const struct sl_study *s)
{
	printf("Layouts (tensor x pipeline x data, experts over data; micro-batches of one sequence)\n");
	printf("%-24s %6s %6s %6s %6s %5s %10s\n", "config", "tp", "pp", "dp", "ep", "zero",
	       "batch");
	for (int c = 0; c < s->ncfg; c++) {
		const struct sl_layout *l = s->cfg[c];

		printf("%-24s %6ld %6ld %6ld %6ld %5d %10ld\n", s->label[c], l->tp, l->pp, l->dp,
		       l->ep, l->zero, l->dp * sl_microbatches(l));
	}
}

static void write_json(const struct sl_study *s, const struct table *t, int n, FILE *f)
{
	struct dl_json j;

	dl_json_result_begin(&j, f);
	dl_json_str(&j, "study", "llm");
	if (s->reduced[0])
		dl_json_str(&j, "reduced", s->reduced);
	else
		dl_json_null(&j, "reduced");
	dl_json_array_begin(&j, "cells");
	for (int i = 0; i < n; i++)
		emit(&t[i], SL_JSON, &j);
	dl_json_array_end(&j);
	dl_json_object_end(&j);
}

/* ---- figures ---- */

static int plot_by_machine(const struct sl_study *s, const struct table *t, const char *dir)
{
	const char *cats[SL_MAXCONFIGS];
	struct dl_plot_series series[SL_MACHINES];
	double y[SL_MACHINES][SL_MAXCONFIGS];

	for (int c = 0; c < s->ncfg; c++)
		cats[c] = s->label[c];
	for (int x = 0; x < SL_MACHINES; x++) {
		for (int c = 0; c < s->ncfg; c++)
			y[x][c] = t->v[c][x];
		series[x] = (struct dl_plot_series){ t->cols[x], y[x] };
	}
	return dl_plot_render(&(struct dl_plot){ .name = t->id, .title = t->title,
						 .xlabel = "model/devices", .ylabel = t->ylabel,
						 .kind = t->kind, .cats = cats, .ncat = s->ncfg,
						 .series = series, .nseries = SL_MACHINES },
			      dir);
}

/* The breakdown: a stacked bar per machine, the machines of a
 * configuration side by side under its name. */
static int plot_breakdown(const struct sl_study *s, const struct table *t, const char *dir)
{
	static const char *cats[MAXROWS];
	static double y[NPARTS][MAXROWS];
	const char *groups[SL_MAXCONFIGS];
	struct dl_plot_series series[NPARTS];

	for (int r = 0; r < t->nrows; r++)
		cats[r] = sl_machines[r % SL_MACHINES].name;
	for (int c = 0; c < s->ncfg; c++)
		groups[c] = s->label[c];
	for (int k = 0; k < NPARTS; k++) {
		for (int r = 0; r < t->nrows; r++)
			y[k][r] = t->v[r][k];
		series[k] = (struct dl_plot_series){ parts[k], y[k] };
	}
	return dl_plot_render(&(struct dl_plot){ .name = t->id, .title = t->title,
						 .xlabel = "machine, by model/devices",
						 .ylabel = t->ylabel, .kind = DL_PLOT_STACKED,
						 .cats = cats, .ncat = t->nrows, .series = series,
						 .nseries = NPARTS, .groups = groups,
						 .group_size = SL_MACHINES },
			      dir);
}

/* Memory by kind, stacked; the device's HBM as a mark on each bar. */
static int plot_memory(const struct sl_study *s, const struct table *t, const char *dir)
{
	const char *cats[SL_MAXCONFIGS];
	struct dl_plot_series series[NKINDS];
	struct dl_plot_mark marks[SL_MAXCONFIGS];
	double y[NKINDS][SL_MAXCONFIGS];
	int nmarks = 0;

	for (int c = 0; c < s->ncfg; c++) {
		cats[c] = s->label[c];
		if (isfinite(t->v[c][5]))
			marks[nmarks++] = (struct dl_plot_mark){ c, NKINDS - 1, t->v[c][5] };
	}
	for (int k = 0; k < NKINDS; k++) {
		for (int c = 0; c < s->ncfg; c++)
			y[k][c] = t->v[c][k];
		series[k] = (struct dl_plot_series){ kinds[k], y[k] };
	}
	return dl_plot_render(&(struct dl_plot){ .name = t->id, .title = t->title,
						 .xlabel = "model/devices", .ylabel = t->ylabel,
						 .kind = DL_PLOT_STACKED, .cats = cats,
						 .ncat = s->ncfg, .series = series, .nseries = NKINDS,
						 .marks = marks, .nmarks = nmarks,
						 .mark_label = "device HBM" },
			      dir);
}

static int plot_all(const struct sl_study *s, const struct table *t, int n, const char *dir)
{
	dl_plot_reduced(s->reduced[0] ? s->reduced : NULL);
	for (int i = 0; i < n; i++) {
		int rc = 0;

		if (!t[i].drawn)
			continue;
		if (t[i].shape == BY_MACHINE)
			rc = plot_by_machine(s, &t[i], dir);
		else if (t[i].shape == BY_RUN)
			rc = plot_breakdown(s, &t[i], dir);
		else
			rc = plot_memory(s, &t[i], dir);
		if (rc)
			return -1;
	}
	return 0;
}

static int save(const struct sl_study *s, const struct table *t, int n, const char *dir)
{
	struct dl_outfile o;

	if (dl_outfile_open_results(&o, dir))
		return -1;
	write_json(s, t, n, o.f);
	return dl_outfile_commit(&o);
}

int sl_report(const struct sl_study *s, enum sl_format f, const char *plot_dir)
{
	static struct table t[TABLES];
	int n = define_tables(s, t, true);

	if (f == SL_JSON)
		write_json(s, t, n, stdout);
	if (f == SL_HUMAN)
		print_layouts(s);
	if (f == SL_CSV)
		printf("figure,config,column,metric,value\n");
	for (int i = 0; f != SL_JSON && i < n; i++)
		emit(&t[i], f, NULL);
	if (plot_dir && (plot_all(s, t, n, plot_dir) || save(s, t, n, plot_dir)))
		return -1;
	return 0;
}

/* ---- dlasim plot: the figures again from results.json ---- */

/* The configurations, in the order of the speedup table's cells. */
static int read_configs(struct sl_study *s, const struct dl_jv *cells, const char *file)
{
	for (int i = 0; i < cells->n; i++) {
		const struct dl_jv *c = &cells->item[i];
		const char *fig = dl_jv_str(dl_jv_get(c, "figure"));
		const char *row = dl_jv_str(dl_jv_get(c, "config"));
		const struct sl_layout *l;
		int k;

		if (!fig || !row || !dl_jv_str(dl_jv_get(c, "column")))
			return dl_err("%s: cells[%d]: no figure, config or column", file, i);
		if (strcmp(fig, "speedup"))
			continue;
		if (!(l = sl_parse_label(row)))
			return dl_err("%s: cells[%d]: '%s' is none of study llm's configurations",
				      file, i, row);
		for (k = 0; k < s->ncfg && s->cfg[k] != l; k++)
			;
		if (k < s->ncfg)
			continue;
		if (s->ncfg == SL_MAXCONFIGS)
			return dl_err("%s: cells[%d]: more configurations than the study has", file, i);
		s->cfg[s->ncfg] = l;
		sl_label(l, s->label[s->ncfg], sizeof(s->label[0]));
		s->ncfg++;
	}
	return s->ncfg ? 0 : dl_err("%s: no speedup cells of study llm", file);
}

static int read_cells(struct table *t, int n, const struct dl_jv *cells, const char *file)
{
	for (int i = 0; i < cells->n; i++) {
		const struct dl_jv *c = &cells->item[i];
		const char *fig = dl_jv_str(dl_jv_get(c, "figure"));
		const char *row = dl_jv_str(dl_jv_get(c, "config"));
		int k, r = -1, col = -1;

		for (k = 0; k < n && strcmp(t[k].id, fig); k++)
			;
		if (k < n) {
			col = dl_str_index(t[k].cols, t[k].ncols, dl_jv_str(dl_jv_get(c, "column")));
			for (r = 0; r < t[k].nrows && strcmp(t[k].rows[r], row); r++)
				;
		}
		if (k == n || col < 0 || r == t[k].nrows)
			return dl_err("%s: cells[%d]: no figure %s with that config and column in study llm",
				      file, i, fig);
		t[k].v[r][col] = dl_jv_num(dl_jv_get(c, t[k].metric));
	}
	return 0;
}

int study_llm_replot(const struct dl_jv *doc, const char *file, const char *dir)
{
	static struct sl_study s;
	static struct table t[TABLES];
	const struct dl_jv *cells = dl_jv_get(doc, "cells");
	const char *reduced = dl_jv_str(dl_jv_get(doc, "reduced"));
	int n;

	memset(&s, 0, sizeof(s));
	if (!cells || cells->type != DL_JV_ARR)
		return dl_err("%s: no cells of study llm", file);
	if (read_configs(&s, cells, file))
		return -1;
	if (reduced)
		snprintf(s.reduced, sizeof(s.reduced), "%s", reduced);
	n = define_tables(&s, t, false);
	if (read_cells(t, n, cells, file))
		return -1;
	return plot_all(&s, t, n, dir);
}
