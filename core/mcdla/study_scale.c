/* SPDX-License-Identifier: MIT */
/*
 * dlasim study mcdla --devices N,N,...: the design points at each machine
 * size, as speedup over DC-DLA and per-device throughput against the
 * number of devices (docs/studies.md, "Scaling sweep").
 */
#include <math.h>
#include <stdio.h>

#include "results/json.h"
#include "results/table.h"
#include "study.h"

void mc_scale_record(const struct study *st, struct mc_scale_point *pt)
{
	pt->devices = st->devices;
	snprintf(pt->coll, sizeof(pt->coll), "%s", mc_study_coll(st));
	for (int m = 0; m < st->nmodes; m++) {
		for (int d = 0; d < MC_DESIGNS; d++) {
			for (int w = 0; w < MC_NBENCH; w++) {
				const struct mc_train_result *r =
					mc_study_result(st, st->modes[m], st->fig_batch, d, w);

				pt->speedup[m][d][w] = r ? mc_study_speedup(st, st->modes[m],
									  st->fig_batch, d, w) : NAN;
				pt->per_device[m][d][w] = r ? st->batches[st->fig_batch] /
								  r->iteration_s / st->devices : NAN;
			}
		}
	}
}

/* The harmonic mean over the benchmarks (Figure 13's HarMean); NAN if
 * any is missing. */
static double harmonic(const double *v)
{
	double s = 0;

	for (int w = 0; w < MC_NBENCH; w++)
		s += 1 / v[w];
	return isfinite(s) && s > 0 ? MC_NBENCH / s : NAN;
}

struct scale_table {
	char id[64], title[160];
	const char *metric;
	char rows[MC_MAX_SWEEP][16];
	const char *row_names[MC_MAX_SWEEP];
	const char *cols[MC_DESIGNS];
	double v[MC_MAX_SWEEP][MC_DESIGNS];
	int ncols;
};

/* Rows: the machine sizes; columns: the designs run. */
static void fill(struct scale_table *t, const struct study *st, const struct mc_scale_point *pts,
		 int m, int w)
{
	t->ncols = 0;
	for (int d = 0; d < MC_DESIGNS; d++) {
		if (!st->in_set[d])
			continue;
		for (int i = 0; i < st->nsweep; i++) {
			const struct mc_scale_point *p = &pts[i];

			snprintf(t->rows[i], sizeof(t->rows[i]), "%d", p->devices);
			t->row_names[i] = t->rows[i];
			if (w < 0)
				t->v[i][t->ncols] = harmonic(p->speedup[m][d]);
			else
				t->v[i][t->ncols] = p->per_device[m][d][w];
		}
		t->cols[t->ncols++] = mc_designs[d].name;
	}
}

static void emit(const struct scale_table *t, const struct study *st, char format,
		 struct dl_json *j)
{
	static const struct dl_table_style style = { .row_width = 8, .width = 12,
						     .precision = 4, .na = "n/a" };
	struct dl_table view = { .id = t->id, .title = t->title, .metric = t->metric,
				 .row_key = "devices", .col_key = "design",
				 .rows = t->row_names, .cols = t->cols, .nrows = st->nsweep,
				 .ncols = t->ncols, .v = &t->v[0][0], .stride = MC_DESIGNS,
				 .style = &style };

	dl_table_emit(&view, format == 'j' ? DL_TABLE_JSON : format == 'c' ? DL_TABLE_CSV :
			     DL_TABLE_HUMAN, j, stdout);
}

/* Per mode: the speedup's harmonic mean, then each benchmark's
 * throughput per device. */
void mc_scale_print(const struct study *st, const struct mc_scale_point *pts, char format)
{
	static struct scale_table t;
	struct dl_json j;

	if (format == 'j') {
		dl_json_result_begin(&j, stdout);
		dl_json_str(&j, "study", "mcdla-scale");
		dl_json_num(&j, "batch", st->batches[st->fig_batch]);
		dl_json_bool(&j, "scale_out", st->scale_out);
		dl_json_array_begin(&j, "collectives");
		for (int i = 0; i < st->nsweep; i++) {
			dl_json_object_begin(&j, NULL);
			dl_json_int(&j, "devices", pts[i].devices);
			dl_json_str(&j, "coll", pts[i].coll);
			dl_json_object_end(&j);
		}
		dl_json_array_end(&j);
		dl_json_array_begin(&j, "tables");
	} else if (format == 'c') {
		puts("table,devices,design,metric,value");
	} else {
		printf("Scaling sweep: global batch %g, each design's platform from "
		       "`dlasim platform --topology T %s`; collectives:",
		       st->batches[st->fig_batch], st->scale_out ? "--nodes N/8" : "--devices N");
		for (int i = 0; i < st->nsweep; i++)
			printf("%s %d devices %s", i ? "," : "", pts[i].devices, pts[i].coll);
		putchar('\n');
	}
	for (int m = 0; m < st->nmodes; m++) {
		const char *mode = mc_mode_name(st->modes[m]);

		snprintf(t.id, sizeof(t.id), "%s.speedup", mode);
		snprintf(t.title, sizeof(t.title),
			 "%s-parallel: speedup over DC-DLA, harmonic mean of the benchmarks", mode);
		t.metric = "speedup_x";
		fill(&t, st, pts, m, -1);
		emit(&t, st, format, &j);
		for (int w = 0; w < MC_NBENCH; w++) {
			snprintf(t.id, sizeof(t.id), "%s.per_device.%s", mode, mc_benches[w]);
			snprintf(t.title, sizeof(t.title), "%s-parallel %s: throughput per device",
				 mode, mc_benches[w]);
			t.metric = "samples_per_s_per_device";
			fill(&t, st, pts, m, w);
			emit(&t, st, format, &j);
		}
	}
	if (format == 'j') {
		dl_json_array_end(&j);
		dl_json_object_end(&j);
	}
}
