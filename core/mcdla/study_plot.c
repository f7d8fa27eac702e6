/* SPDX-License-Identifier: MIT */
/*
 * study mcdla --plot DIR: the paper's Figures 11-14 drawn from the study's
 * runs through results/plot.h (docs/figures.md).  Figures 11-13 at the
 * study's figure batch, Figure 14 over its batch sizes; the paper's values
 * are marked where its text gives them (Section V-A, V-B).
 */
#include <math.h>
#include <stdio.h>

#include "results/plot.h"
#include "study.h"

/* Figure 11: three designs per benchmark; Figure 12: two modes per
 * benchmark; Figure 14: the batch sizes. */
#define MAX_CATS (3 * MC_NBENCH + MC_MAX_BATCHES)
#define MAX_SERIES (MC_NBENCH + 1)

/* The paper's harmonic means over DC-DLA (Section V-B), data / model. */
static const struct {
	enum mc_design_id design;
	double speedup[2];
} paper_means[] = {
	{ MC_HC, { 1.32, 1.38 } },
	{ MC_BW, { 3.5, 2.1 } },
};

/* Storage for one figure's series. */
struct fig {
	const char *cats[MAX_CATS];
	char labels[MAX_CATS][48];
	double y[MAX_SERIES][MAX_CATS];
	struct dl_plot_series series[MAX_SERIES];
	struct dl_plot_mark marks[2 * MAX_CATS];
	int ncat, nseries, nmarks;
};

static void add_cat(struct fig *f, const char *label)
{
	snprintf(f->labels[f->ncat], sizeof(f->labels[0]), "%s", label);
	f->cats[f->ncat] = f->labels[f->ncat];
	f->ncat++;
}

static double *add_series(struct fig *f, const char *name)
{
	f->series[f->nseries] = (struct dl_plot_series){ name, f->y[f->nseries] };
	return f->y[f->nseries++];
}

static void mark(struct fig *f, int cat, int series, double y)
{
	f->marks[f->nmarks++] = (struct dl_plot_mark){ cat, series, y };
}

static int render(const struct fig *f, struct dl_plot *p, const char *dir)
{
	p->cats = f->cats;
	p->ncat = f->ncat;
	p->series = f->series;
	p->nseries = f->nseries;
	p->marks = f->marks;
	p->nmarks = f->nmarks;
	return dl_plot_render(p, dir);
}

/* The designs Figures 11 and 12 compare: DC-DLA, HC-DLA and MC-DLA(B)
 * where the study ran them. */
static int breakdown_designs(const struct study *st, int *d)
{
	static const int want[] = { MC_DC, MC_HC, MC_BW };
	int n = 0;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (st->in_set[want[i]])
			d[n++] = want[i];
	return n;
}

/* Figure 11: compute, synchronization and virtualization time stacked,
 * each benchmark's bars normalized to its highest (as the paper's). */
static int figure11(const struct study *st, int m, const char *dir)
{
	static struct fig f;
	static const char *const part[] = { "computation", "synchronization",
					     "memory virtualization" };
	int d[3], nd = breakdown_designs(st, d), b = st->fig_batch;
	double *y[3];
	char name[32], title[160];

	f = (struct fig){ 0 };
	for (int k = 0; k < 3; k++)
		y[k] = add_series(&f, part[k]);
	for (int w = 0; w < MC_NBENCH; w++) {
		double top = 0;

		for (int i = 0; i < nd; i++) {
			const struct mc_train_result *r = mc_study_result(st, m, b, d[i], w);

			if (r && r->compute_s + r->sync_s + r->virt_s > top)
				top = r->compute_s + r->sync_s + r->virt_s;
		}
		for (int i = 0; i < nd; i++) {
			const struct mc_train_result *r = mc_study_result(st, m, b, d[i], w);
			char label[48];

			snprintf(label, sizeof(label), "%s %s", mc_benches[w], mc_designs[d[i]].name);
			y[0][f.ncat] = r ? r->compute_s / top : NAN;
			y[1][f.ncat] = r ? r->sync_s / top : NAN;
			y[2][f.ncat] = r ? r->virt_s / top : NAN;
			add_cat(&f, label);
		}
	}
	snprintf(name, sizeof(name), "fig11-%s", mc_mode_name(st->modes[m]));
	snprintf(title, sizeof(title), "Figure 11: latency breakdown, %s-parallel, batch %.0f",
		 mc_mode_name(st->modes[m]), st->batches[b]);
	return render(&f, &(struct dl_plot){
		.name = name, .title = title, .xlabel = NULL,
		.ylabel = "time / the benchmark's highest bar (fraction)",
		.kind = DL_PLOT_STACKED,
		.note = "paper, means over DC-DLA: HC-DLA virtualization -88%, synchronization +90%",
	}, dir);
}

/* Figure 12: mean CPU memory bandwidth per run, both modes side by side. */
static int figure12(const struct study *st, const char *dir)
{
	static struct fig f;
	int d[3], nd = breakdown_designs(st, d), b = st->fig_batch;
	double *y[3];

	f = (struct fig){ 0 };
	for (int i = 0; i < nd; i++)
		y[i] = add_series(&f, mc_designs[d[i]].name);
	for (int m = 0; m < st->nmodes; m++) {
		for (int w = 0; w < MC_NBENCH; w++) {
			char label[48];

			snprintf(label, sizeof(label), "%s %s", mc_benches[w],
				 mc_mode_name(st->modes[m]));
			for (int i = 0; i < nd; i++) {
				const struct mc_train_result *r = mc_study_result(st, m, b, d[i], w);

				y[i][f.ncat] = r ? r->cpu_mem_bw_avg_Bps / 1e9 : NAN;
				/* Section V-A: MC-DLA uses no CPU memory bandwidth. */
				if (d[i] == MC_BW && r)
					mark(&f, f.ncat, i, 0);
			}
			add_cat(&f, label);
		}
	}
	return render(&f, &(struct dl_plot){
		.name = "fig12", .title = "Figure 12: CPU memory bandwidth used (mean over the iteration)",
		.ylabel = "CPU memory bandwidth (GB/s)",
		.kind = DL_PLOT_BARS,
		.note = "paper: HC-DLA up to 100% of a socket, 92% on some workloads; MC-DLA 0",
	}, dir);
}

/* The paper's harmonic mean for design d in mode m, or NAN. */
static double paper_mean(const struct study *st, int m, int d)
{
	for (size_t i = 0; i < sizeof(paper_means) / sizeof(paper_means[0]); i++)
		if (paper_means[i].design == (enum mc_design_id)d)
			return paper_means[i].speedup[st->modes[m] == MC_DATA_PARALLEL ? 0 : 1];
	return NAN;
}

/* Figure 13: speedup over DC-DLA per benchmark and harmonic mean. */
static int figure13(const struct study *st, int m, const char *dir)
{
	static struct fig f;
	int b = st->fig_batch;
	char name[32], title[160];

	f = (struct fig){ 0 };
	for (int w = 0; w <= MC_NBENCH; w++)
		add_cat(&f, w < MC_NBENCH ? mc_benches[w] : "HarMean");
	for (int d = 0; d < MC_DESIGNS; d++) {
		double *y, paper = paper_mean(st, m, d);

		if (!st->in_set[d] || !mc_designs[d].figure13)
			continue;
		if (!isnan(paper))
			mark(&f, MC_NBENCH, f.nseries, paper);
		y = add_series(&f, mc_designs[d].name);
		for (int w = 0; w < MC_NBENCH; w++)
			y[w] = mc_study_speedup(st, m, b, d, w);
		y[MC_NBENCH] = mc_study_ratio(st, m, b, MC_DC, d);
	}
	snprintf(name, sizeof(name), "fig13-%s", mc_mode_name(st->modes[m]));
	snprintf(title, sizeof(title), "Figure 13: speedup over DC-DLA, %s-parallel, batch %.0f",
		 mc_mode_name(st->modes[m]), st->batches[b]);
	return render(&f, &(struct dl_plot){
		.name = name, .title = title, .xlabel = "benchmark",
		.ylabel = "speedup over DC-DLA (x)", .kind = DL_PLOT_BARS,
		.note = "paper: harmonic means of HC-DLA and MC-DLA(B) (Section V-B)",
	}, dir);
}

/* Figure 14: MC-DLA(B) over DC-DLA against the batch size. */
static int figure14(const struct study *st, int m, const char *dir)
{
	static struct fig f;
	char name[32], title[160];
	double *y;

	f = (struct fig){ 0 };
	for (int b = 0; b < st->nbatches; b++) {
		char label[16];

		snprintf(label, sizeof(label), "%.0f", st->batches[b]);
		add_cat(&f, label);
		/* The paper's batch-512 means are the HarMean line's value there. */
		if (st->batches[b] == 512)
			mark(&f, b, MC_NBENCH, paper_mean(st, m, MC_BW));
	}
	for (int w = 0; w <= MC_NBENCH; w++) {
		y = add_series(&f, w < MC_NBENCH ? mc_benches[w] : "HarMean");
		for (int b = 0; b < st->nbatches; b++)
			y[b] = w < MC_NBENCH ? mc_study_speedup(st, m, b, MC_BW, w) :
					       mc_study_ratio(st, m, b, MC_DC, MC_BW);
	}
	snprintf(name, sizeof(name), "fig14-%s", mc_mode_name(st->modes[m]));
	snprintf(title, sizeof(title), "Figure 14: MC-DLA(B) over DC-DLA by batch size, %s-parallel",
		 mc_mode_name(st->modes[m]));
	return render(&f, &(struct dl_plot){
		.name = name, .title = title, .xlabel = "global batch size (samples)",
		.ylabel = "speedup over DC-DLA (x)", .kind = DL_PLOT_LINES, .x = st->batches,
		.logx = true,
		.note = "paper: 2.17x averaged over all batch sizes; the mark is its batch-512 mean",
	}, dir);
}

int mc_study_plot(const struct study *st, const char *dir)
{
	for (int m = 0; m < st->nmodes; m++) {
		if (figure11(st, m, dir) || figure13(st, m, dir))
			return -1;
		if (st->nbatches > 1 && st->in_set[MC_BW] && figure14(st, m, dir))
			return -1;
	}
	return figure12(st, dir);
}
