/* SPDX-License-Identifier: MIT */
/*
 * dlasim study nvm: the dissertation's Chapters 3 and 4 (Figures 3.1,
 * 3.7-3.10, 4.5-4.8) as tables, one process per run, normalised as the
 * dissertation normalises, with its averages beside ours; --plot DIR
 * draws them (docs/figures.md).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strmap.h"
#include "lib/args.h"
#include "lib/diag.h"
#include "results/jobs.h"
#include "lib/units.h"
#include "results/json.h"
#include "results/jsonread.h"
#include "results/outfile.h"
#include "results/plot.h"
#include "results/table.h"
#include "commands.h"
#include "nvmsys.h"
#include "report.h"
#include "run.h"
#include "workload.h"

#define CMD "study nvm"
#define MAXJOBS 220
#define STUDY_TX 5000		/* transactions per core */
#define QUICK_TX 1000
#define MAXROWS 10
#define MAXCOLS 6

/* Chapter 3: the mixes at 32 and 64 ADR entries under cache-line
 * interleaving, and at 32 under page interleaving (docs/nvm.md: Chapter 3
 * names no mapping; DRAMSim2's example configuration interleaves lines). */
static const char *const ch3_designs[] = { "lad", "lad_rdlog", "tste", "vadr" };
#define CH3_LINE true
/* Chapter 4: each kernel on 4 cores, 16 ADR entries (Optane's). */
static const char *const ch4_workloads[] = { "btree", "chainqueue", "hashtable", "rbtree",
					     "tpcc", "tatp" };
#define NCH4 6
static const struct {
	const char *name, *persist, *log_alloc;
} ch4_designs[] = {
	{ "REDU", "redu", "seq" },
	{ "LALEA", "redu", "lalea" },
	{ "BLOM", "redu:blom=1", "seq" },
	{ "LALEA+BLOM", "redu:blom=1", "lalea" },
	{ "LAD", "lad", "seq" },
	{ "LALEA-LAD", "lad", "lalea" },
};
#define NDES4 6
/* Beside the figures: LAD stalling on a depleted ADR (the model before its
 * fallback to logging, docs/nvm.md) against REDU, and TSTE's priority rule
 * as Section 3.3's text states it against Figure 3.4's (the default). */
#define LAD_STALL "lad:depleted=stall"
#define TSTE_TEXT "tste:priority=text"

struct job {
	const char *workload, *persist, *log_alloc;
	int adr;
	bool line;
};

struct study {
	int ntx;
	long seed;
	struct job jobs[MAXJOBS];
	struct nvm_result res[MAXJOBS];
	int n;
	bool shape_only;	/* dlasim plot: the tables' shape, values from a file */
	char reduced[96];	/* fewer transactions than the study's, or "" */
};

static void add(struct study *s, const char *w, const char *p, const char *la, int adr, bool line)
{
	if (s->n < MAXJOBS)
		s->jobs[s->n++] = (struct job){ w, p, la, adr, line };
}

static void plan(struct study *s)
{
	static const struct { int adr; bool line; } ch3_runs[] = {
		{ 32, CH3_LINE }, { 64, CH3_LINE }, { 32, !CH3_LINE } };

	for (int a = 0; a < 3; a++)
		for (int m = 0; m < NVM_MIXES; m++)
			for (int d = 0; d < 4; d++)
				add(s, nvm_mix_name(m), ch3_designs[d], "seq", ch3_runs[a].adr,
				    ch3_runs[a].line);
	for (int m = 0; m < NVM_MIXES; m++)
		add(s, nvm_mix_name(m), TSTE_TEXT, "seq", 32, CH3_LINE);
	for (int w = 0; w < NCH4; w++)
		add(s, ch4_workloads[w], LAD_STALL, "seq", 16, false);
	for (int line = 0; line < 2; line++)
		for (int w = 0; w < NCH4; w++)
			for (int d = 0; d < NDES4; d++)
				add(s, ch4_workloads[w], ch4_designs[d].persist,
				    ch4_designs[d].log_alloc, 16, line);
}

static int run_job(int index, FILE *out, void *arg)
{
	struct study *s = arg;
	const struct job *j = &s->jobs[index];
	struct nvm_config cfg = {
		.workload = j->workload, .cores = NVM_CORES, .persist = j->persist,
		.log_alloc = j->log_alloc, .line_interleave = j->line, .adr = j->adr,
		.staging = NVM_STAGING, .logq = NVM_LOGQ, .ntx = s->ntx, .seed = (uint64_t)s->seed,
		.ipc = 1,
	};
	struct nvm_result r;

	if (nvm_run(&cfg, &r))
		return 1;
	return fwrite(&r, sizeof(r), 1, out) == 1 ? 0 : 1;
}

static const struct nvm_result *find(const struct study *s, const char *w, const char *p,
				     const char *la, int adr, bool line)
{
	for (int i = 0; i < s->n; i++) {
		const struct job *j = &s->jobs[i];

		if (!strcmp(j->workload, w) && !strcmp(j->persist, p) && !strcmp(j->log_alloc, la) &&
		    j->adr == adr && j->line == line)
			return &s->res[i];
	}
	return NULL;
}

/* ---- tables ---- */

enum fmt { HUMAN = DL_TABLE_HUMAN, CSV = DL_TABLE_CSV, JSON = DL_TABLE_JSON };

struct table {
	const char *id, *title, *metric;	/* metric names its unit */
	const char *rowname;
	char rows[MAXROWS][16];
	const char *cols[MAXCOLS];
	double v[MAXROWS][MAXCOLS];
	int nrows, ncols;
};

static void emit(const struct table *t, enum fmt f, struct dl_json *j)
{
	static const struct dl_table_style style = { .row_width = 12, .width = 14,
						     .precision = 4, .na = "-" };
	const char *rows[MAXROWS];
	struct dl_table view = { .id = t->id, .title = t->title, .metric = t->metric,
				 .row_key = t->rowname, .col_key = "design", .rows = rows,
				 .cols = t->cols, .nrows = t->nrows, .ncols = t->ncols,
				 .v = &t->v[0][0], .stride = MAXCOLS, .style = &style };

	for (int r = 0; r < t->nrows; r++)
		rows[r] = t->rows[r];
	dl_table_emit(&view, (enum dl_table_format)f, j, stdout);
}

/* Rows: the workloads, their mean, and the dissertation's mean when it
 * gives one (NAN elsewhere). */
static void rows(struct table *t, const char *rowname, const char *const *names, int n)
{
	t->rowname = rowname;
	t->nrows = n + 2;
	for (int r = 0; r < n; r++)
		snprintf(t->rows[r], sizeof(t->rows[r]), "%s", names[r]);
	snprintf(t->rows[n], sizeof(t->rows[n]), "mean");
	snprintf(t->rows[n + 1], sizeof(t->rows[n + 1]), "dissertation");
	for (int c = 0; c < MAXCOLS; c++)
		t->v[n + 1][c] = NAN;
}

/* The mean of each column over the rows where it is defined (a cut of
 * nothing, 0 / 0, is not). */
static void mean_row(struct table *t)
{
	int n = t->nrows - 2;

	for (int c = 0; c < t->ncols; c++) {
		double sum = 0;
		int defined = 0;

		for (int r = 0; r < n; r++) {
			if (!isfinite(t->v[r][c]))
				continue;
			sum += t->v[r][c];
			defined++;
		}
		t->v[n][c] = defined ? sum / defined : NAN;
	}
}

static double pct_gain(double x, double base)
{
	return 100 * (x / base - 1);
}

static double pct_cut(double x, double base)
{
	return 100 * (1 - x / base);
}

static const char *mix_names[NVM_MIXES];

/* A Chapter 3 run. */
static const struct nvm_result *ch3(const struct study *s, int m, const char *design, int adr,
				    bool line)
{
	return find(s, mix_names[m], design, "seq", adr, line);
}

/* Figure 3.7: execution types under LAD-RdLog and VADR-RdLog. */
static void fig3_7(struct table *t, const struct study *s)
{
	static const char *const cols[] = { "lad_rdlog.direct", "lad_rdlog.unnec", "lad_rdlog.nec",
					    "vadr.direct", "vadr.unnec", "vadr.nec" };

	rows(t, "mix", mix_names, NVM_MIXES);
	t->ncols = 6;
	for (int c = 0; c < 6; c++)
		t->cols[c] = cols[c];
	for (int m = 0; m < NVM_MIXES; m++)
		for (int d = 0; d < 2; d++) {
			const struct nvm_result *r = ch3(s, m, d ? "vadr" : "lad_rdlog", 32, CH3_LINE);
			double n = r->direct_tx + r->unnecessary_log_tx + r->necessary_log_tx;

			t->v[m][3 * d] = 100 * r->direct_tx / n;
			t->v[m][3 * d + 1] = 100 * r->unnecessary_log_tx / n;
			t->v[m][3 * d + 2] = 100 * r->necessary_log_tx / n;
		}
	mean_row(t);
	t->v[NVM_MIXES + 1][1] = 28.3;		/* 3.6.2: average unnecessary-log, LAD-RdLog */
}

/* Figures 3.8 and 3.10: throughput over LAD's at `adr` entries. */
static void fig3_8(struct table *t, const struct study *s, int adr, bool line, int first,
		   int ncols)
{
	/* 3.6.2's means of LAD-RdLog, TSTE, VADR: 32 entries, then 64.  One
	 * array: a pick between two (a ? x : y)[i] read one past the first
	 * under UBSan's object-size check at -O1. */
	static const double paper[2][3] = { { 20.1, 28.7, 36.2 }, { NAN, 21.0, 35.4 } };

	rows(t, "mix", mix_names, NVM_MIXES);
	t->ncols = ncols;
	for (int c = 0; c < ncols; c++) {
		const char *d = ch3_designs[first + c];

		t->cols[c] = d;
		for (int m = 0; m < NVM_MIXES; m++)
			t->v[m][c] = pct_gain(ch3(s, m, d, adr, line)->throughput_tx_per_s,
					      ch3(s, m, "lad", adr, line)->throughput_tx_per_s);
		t->v[NVM_MIXES + 1][c] = paper[adr != 32][first + c - 1];
	}
	mean_row(t);
}

static double log_ops_per_tx(const struct nvm_result *r)
{
	return (double)r->log_entries / r->committed_tx;
}

/* Figure 3.9: log operations per committed transaction (runs end at
 * different times) of LAD-RdLog, TSTE-RdLog and VADR-RdLog. */
static void fig3_9(struct table *t, const struct study *s)
{
	rows(t, "mix", mix_names, NVM_MIXES);
	t->ncols = 3;
	for (int c = 0; c < 3; c++) {
		t->cols[c] = ch3_designs[1 + c];
		for (int m = 0; m < NVM_MIXES; m++)
			t->v[m][c] = log_ops_per_tx(ch3(s, m, ch3_designs[1 + c], 32, CH3_LINE));
	}
	mean_row(t);
}

/* ... and their cuts from LAD-RdLog's, and VADR-RdLog's from TSTE-RdLog's
 * (3.6.4: 9.7 % on average).  A cut from next to nothing says nothing, so
 * the mean row holds the cuts of the mean operations, not means of cuts. */
static void fig3_9_cut(struct table *t, const struct table *ops)
{
	static const char *const cols[] = { "tste", "vadr", "vadr_vs_tste" };

	rows(t, "mix", mix_names, NVM_MIXES);
	t->ncols = 3;
	for (int c = 0; c < 3; c++)
		t->cols[c] = cols[c];
	for (int m = 0; m <= NVM_MIXES; m++) {
		t->v[m][0] = pct_cut(ops->v[m][1], ops->v[m][0]);
		t->v[m][1] = pct_cut(ops->v[m][2], ops->v[m][0]);
		t->v[m][2] = pct_cut(ops->v[m][2], ops->v[m][1]);
	}
	t->v[NVM_MIXES + 1][2] = 9.7;
}

/* Average log traffic (3.6.1): lines read and written for logging per
 * transaction. */
static void log_traffic(struct table *t, const struct study *s)
{
	rows(t, "mix", mix_names, NVM_MIXES);
	t->ncols = 4;
	for (int c = 0; c < 4; c++) {
		t->cols[c] = ch3_designs[c];
		for (int m = 0; m < NVM_MIXES; m++)
			t->v[m][c] = ch3(s, m, ch3_designs[c], 32, CH3_LINE)->log_traffic_lines_per_tx;
	}
	mean_row(t);
}

typedef double (*metric_fn)(const struct nvm_result *x, const struct nvm_result *base);

static double thr_gain(const struct nvm_result *x, const struct nvm_result *b)
{
	return pct_gain(x->throughput_tx_per_s, b->throughput_tx_per_s);
}

static double entry_cut(const struct nvm_result *x, const struct nvm_result *b)
{
	return pct_cut(x->entry_latency_s, b->entry_latency_s);
}

static double commit_cut(const struct nvm_result *x, const struct nvm_result *b)
{
	return pct_cut(x->commit_latency_s, b->commit_latency_s);
}

/* Chapter 4: designs `cols` (indices of ch4_designs) against REDU, and
 * LALEA-LAD against LAD. */
static void ch4_table(struct table *t, const struct study *s, metric_fn m, bool line,
		      const int *cols, int ncols, const double *paper)
{
	rows(t, "workload", ch4_workloads, NCH4);
	t->ncols = ncols;
	for (int c = 0; c < ncols; c++) {
		int d = cols[c], base = d == 5 ? 4 : 0;

		t->cols[c] = ch4_designs[d].name;
		for (int w = 0; w < NCH4; w++)
			t->v[w][c] = m(find(s, ch4_workloads[w], ch4_designs[d].persist,
					    ch4_designs[d].log_alloc, 16, line),
				       find(s, ch4_workloads[w], ch4_designs[base].persist,
					    ch4_designs[base].log_alloc, 16, line));
		t->v[NCH4 + 1][c] = paper[c];
	}
	mean_row(t);
}

/* A Chapter 3 run's number, or a Chapter 4 one's (ADR 16, page
 * interleaving, the sequential log). */
typedef double (*value_fn)(const struct nvm_result *r);

static double mtx_per_s(const struct nvm_result *r)
{
	return r->throughput_tx_per_s / 1e6;
}

static double stalls_per_tx(const struct nvm_result *r)
{
	return (double)r->stalls / r->committed_tx;
}

static double commit_us(const struct nvm_result *r)
{
	return r->commit_latency_s * 1e6;
}

static double unnecessary_entries_per_tx(const struct nvm_result *r)
{
	return (double)r->unnecessary_log_entries / r->committed_tx;
}

/* A value of each of `designs` (persist specs; column names `cols`) per
 * Chapter 4 workload: what decides LAD against REDU (4.5.2), workload by
 * workload. */
static void lad_redu(struct table *t, const struct study *s, value_fn v,
		     const char *const *designs, const char *const *cols, int ncols)
{
	rows(t, "workload", ch4_workloads, NCH4);
	t->ncols = ncols;
	for (int c = 0; c < ncols; c++) {
		t->cols[c] = cols[c];
		for (int w = 0; w < NCH4; w++)
			t->v[w][c] = v(find(s, ch4_workloads[w], designs[c], "seq", 16, false));
	}
	mean_row(t);
}

/* The same per mix for Chapter 3's designs at 32 entries, line
 * interleaving: TSTE under both priority rules beside the others. */
static void per_mix(struct table *t, const struct study *s, value_fn v,
		    const char *const *designs, const char *const *cols, int ncols)
{
	rows(t, "mix", mix_names, NVM_MIXES);
	t->ncols = ncols;
	for (int c = 0; c < ncols; c++) {
		t->cols[c] = cols[c];
		for (int m = 0; m < NVM_MIXES; m++)
			t->v[m][c] = v(ch3(s, m, designs[c], 32, CH3_LINE));
	}
	mean_row(t);
}

/* TSTE's gain over LAD under both priority rules. */
static void tste_rules_gain(struct table *t, const struct study *s)
{
	static const char *const designs[] = { "tste", TSTE_TEXT };

	rows(t, "mix", mix_names, NVM_MIXES);
	t->ncols = 2;
	for (int c = 0; c < 2; c++) {
		t->cols[c] = c ? "tste.text" : "tste";
		for (int m = 0; m < NVM_MIXES; m++)
			t->v[m][c] = pct_gain(ch3(s, m, designs[c], 32, CH3_LINE)->throughput_tx_per_s,
					      ch3(s, m, "lad", 32, CH3_LINE)->throughput_tx_per_s);
	}
	mean_row(t);
	t->v[NVM_MIXES + 1][0] = 28.7;
}

/* Beside the figures: LAD against REDU per workload with what decides it,
 * and TSTE's two priority rules. */
static int beside(struct table *t, const struct study *s)
{
	static const char *const ch4d[] = { "redu", "lad", LAD_STALL };
	static const char *const ch4c[] = { "REDU", "LAD", "LAD.stall" };
	static const char *const ch3d[] = { "lad_rdlog", "tste", TSTE_TEXT, "vadr" };
	static const char *const ch3c[] = { "lad_rdlog", "tste", "tste.text", "vadr" };
	int n = 0;

	t[n] = (struct table){ .id = "lad_redu", .title = "LAD against REDU (4.5.2: LAD slower), page interleaving, ADR 16 (LAD.stall: stalling on a depleted ADR)", .metric = "throughput_mtx_per_s" };
	lad_redu(&t[n++], s, mtx_per_s, ch4d, ch4c, 3);
	t[n] = (struct table){ .id = "lad_redu.log", .title = "LAD against REDU, the cause: log entries per committed transaction", .metric = "log_ops_per_tx" };
	lad_redu(&t[n++], s, log_ops_per_tx, ch4d, ch4c, 3);
	t[n] = (struct table){ .id = "lad_redu.stalls", .title = "LAD against REDU, the cause: lines a core waited to hand over, per committed transaction", .metric = "stalls_per_tx" };
	lad_redu(&t[n++], s, stalls_per_tx, ch4d, ch4c, 3);
	t[n] = (struct table){ .id = "lad_redu.commit", .title = "LAD against REDU, the cause: commit latency (tx_end to commit)", .metric = "commit_latency_us" };
	lad_redu(&t[n++], s, commit_us, ch4d, ch4c, 3);
	t[n] = (struct table){ .id = "fig3.8text", .title = "Figure 3.8 with TSTE's priority rule as Section 3.3 states it (tste.text) beside Figure 3.4's (tste), ADR 32", .metric = "throughput_gain_pct" };
	tste_rules_gain(&t[n++], s);
	t[n] = (struct table){ .id = "fig3.9text", .title = "Figure 3.9 with both TSTE priority rules: log operations per committed transaction, ADR 32", .metric = "log_ops_per_tx" };
	per_mix(&t[n++], s, log_ops_per_tx, ch3d, ch3c, 4);
	t[n] = (struct table){ .id = "fig3.9unnec", .title = "Figure 3.9, the cause: log operations of unnecessary-log transactions per committed transaction, ADR 32", .metric = "log_ops_per_tx" };
	per_mix(&t[n++], s, unnecessary_entries_per_tx, ch3d, ch3c, 4);
	return n;
}

/* Figure 3.1: the kernels' write sets (no simulation; with !values
 * the table's rows and columns only). */
static int fig3_1(struct table *t, int ntx, long seed, bool values)
{
	t->rowname = "kernel";
	t->ncols = NVM_WSET_BINS + 1;
	t->nrows = nvm_nkernels;
	for (int b = 0; b < NVM_WSET_BINS; b++)
		t->cols[b] = nvm_wset_bin_names[b];
	t->cols[NVM_WSET_BINS] = "below_32";
	for (int k = 0; k < nvm_nkernels; k++) {
		struct nvm_wset w;

		snprintf(t->rows[k], sizeof(t->rows[k]), "%s", nvm_kernels[k]->name);
		if (!values)
			continue;
		if (nvm_write_sets(nvm_kernels[k], ntx, seed, &w))
			return -1;
		for (int b = 0; b < NVM_WSET_BINS; b++)
			t->v[k][b] = 100.0 * w.bin[b] / w.tx;
		t->v[k][NVM_WSET_BINS] = 100 * w.share_below_32;
	}
	return 0;
}

/* ---- figures ---- */

static const char *axis_label(const char *metric)
{
	static const struct { const char *metric, *label; } labels[] = {
		{ "share_pct", "share of transactions (%)" },
		{ "throughput_gain_pct", "throughput gain (%)" },
		{ "log_ops_per_tx", "log entries per committed transaction" },
		{ "log_ops_cut_pct", "log entries per transaction cut (%)" },
		{ "log_lines_per_tx", "log lines read and written per transaction" },
		{ "latency_cut_pct", "latency cut (%)" },
		{ "throughput_mtx_per_s", "throughput (M transactions/s)" },
		{ "stalls_per_tx", "lines waited for per committed transaction" },
		{ "commit_latency_us", "commit latency (us)" },
	};

	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (!strcmp(labels[i].metric, metric))
			return labels[i].label;
	return metric;
}

/* One table as clustered bars: a cluster per workload and one for the
 * mean, on which the dissertation's mean is marked. */
static int plot_table(const struct table *t, const char *dir)
{
	int ncat = t->nrows - 1, nmarks = 0;
	const char *cats[MAXROWS];
	double y[MAXCOLS][MAXROWS];
	struct dl_plot_series series[MAXCOLS];
	struct dl_plot_mark marks[MAXCOLS];
	bool na = false;

	for (int r = 0; r < ncat; r++)
		cats[r] = t->rows[r];
	for (int c = 0; c < t->ncols; c++) {
		for (int r = 0; r < ncat; r++) {
			y[c][r] = t->v[r][c];
			na |= !isfinite(y[c][r]);
		}
		series[c] = (struct dl_plot_series){ t->cols[c], y[c] };
		if (isfinite(t->v[ncat][c]))
			marks[nmarks++] = (struct dl_plot_mark){ ncat - 1, c, t->v[ncat][c] };
	}
	return dl_plot_render(&(struct dl_plot){
		.name = t->id, .title = t->title, .xlabel = t->rowname,
		.ylabel = axis_label(t->metric), .kind = DL_PLOT_BARS, .cats = cats, .ncat = ncat,
		.series = series, .nseries = t->ncols, .marks = marks, .nmarks = nmarks,
		.mark_label = "dissertation (mean)",
		.note = na ? "n/a: a cut or gain over a baseline of nothing (no log, or no run of that pair)" : NULL,
	}, dir);
}

#define NTABLES 21

/* The study's tables from its runs; returns how many, or -1. */
static int tables(const struct study *s, struct table *t)
{
	/* LALEA, BLOM, both (over REDU), LALEA-LAD (over LAD), LAD (over REDU:
	 * slower, 4.5.2, no number) */
	static const int lalea_blom[] = { 1, 2, 3, 5, 4 }, lalea_only[] = { 1, 5 };
	static const double f45[] = { 54.04, 17.16, 56.62, 67.45, NAN }, f46[] = { 92.51, 93.66 };
	static const double f47[] = { 86.55, 28.74, 88.74, 79.02 };
	static const double f48[] = { 17.01, 0.99, 24.81, 10.96, NAN };
	int n = 0;

	for (int m = 0; m < NVM_MIXES; m++)
		mix_names[m] = nvm_mix_name(m);
	memset(t, 0, NTABLES * sizeof(*t));
	t[n] = (struct table){ .id = "fig3.1", .title = "Figure 3.1: lines written per transaction (% of transactions)", .metric = "share_pct" };
	if (fig3_1(&t[n++], s->ntx, s->seed, !s->shape_only))
		return -1;
	t[n] = (struct table){ .id = "fig3.7", .title = "Figure 3.7: execution types, ADR 32 (% of committed transactions)", .metric = "share_pct" };
	fig3_7(&t[n++], s);
	t[n] = (struct table){ .id = "fig3.8", .title = "Figure 3.8: throughput over LAD, ADR 32", .metric = "throughput_gain_pct" };
	fig3_8(&t[n++], s, 32, CH3_LINE, 1, 3);
	t[n] = (struct table){ .id = "fig3.9", .title = "Figure 3.9: log operations per committed transaction, ADR 32", .metric = "log_ops_per_tx" };
	fig3_9(&t[n++], s);
	t[n] = (struct table){ .id = "fig3.9cut", .title = "Figure 3.9: log operations cut from LAD-RdLog's (VADR's from TSTE's), ADR 32", .metric = "log_ops_cut_pct" };
	fig3_9_cut(&t[n], &t[n - 1]);
	n++;
	t[n] = (struct table){ .id = "fig3.10", .title = "Figure 3.10: throughput over LAD, ADR 64", .metric = "throughput_gain_pct" };
	fig3_8(&t[n++], s, 64, CH3_LINE, 2, 2);
	t[n] = (struct table){ .id = "fig3.8page", .title = "Figure 3.8 under page interleaving (sensitivity), ADR 32", .metric = "throughput_gain_pct" };
	fig3_8(&t[n++], s, 32, !CH3_LINE, 1, 3);
	t[n] = (struct table){ .id = "traffic3", .title = "Average log traffic, ADR 32 (3.6.1)", .metric = "log_lines_per_tx" };
	log_traffic(&t[n++], s);
	t[n] = (struct table){ .id = "fig4.5", .title = "Figure 4.5: throughput over REDU (LALEA-LAD: over LAD), page interleaving, ADR 16", .metric = "throughput_gain_pct" };
	ch4_table(&t[n++], s, thr_gain, false, lalea_blom, 5, f45);
	t[n] = (struct table){ .id = "fig4.6", .title = "Figure 4.6: log-entry persistence latency cut by LALEA (in REDU, in LAD)", .metric = "latency_cut_pct" };
	ch4_table(&t[n++], s, entry_cut, false, lalea_only, 2, f46);
	t[n] = (struct table){ .id = "fig4.7", .title = "Figure 4.7: commit latency cut from REDU's (LALEA-LAD: from LAD's)", .metric = "latency_cut_pct" };
	ch4_table(&t[n++], s, commit_cut, false, lalea_blom, 4, f47);
	t[n] = (struct table){ .id = "fig4.8", .title = "Figure 4.8: throughput over REDU (LALEA-LAD: over LAD), cache-line interleaving", .metric = "throughput_gain_pct" };
	ch4_table(&t[n++], s, thr_gain, true, lalea_blom, 5, f48);
	n += beside(&t[n], s);
	return n;
}

/* The JSON of the study (its --json, and --plot DIR's results.json). */
static void write_json(const struct study *s, const struct table *t, int n, FILE *out)
{
	struct dl_json j;

	dl_json_result_begin(&j, out);
	dl_json_str(&j, "study", "nvm");
	if (s->reduced[0])
		dl_json_str(&j, "reduced", s->reduced);
	else
		dl_json_null(&j, "reduced");
	dl_json_int(&j, "transactions_per_core", s->ntx);
	dl_json_int(&j, "seed", s->seed);
	dl_json_array_begin(&j, "cells");
	for (int i = 0; i < n; i++)
		emit(&t[i], JSON, &j);
	dl_json_array_end(&j);
	dl_json_object_end(&j);
}

static int plot_all(const struct study *s, const struct table *t, int n, const char *dir)
{
	dl_plot_reduced(s->reduced[0] ? s->reduced : NULL);
	for (int i = 0; i < n; i++)
		if (plot_table(&t[i], dir))
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
	static struct table t[NTABLES];
	int n = tables(s, t);

	if (n < 0)
		return -1;
	if (f == CSV)
		printf("figure,row,design,metric,value\n");
	if (f == JSON)
		write_json(s, t, n, stdout);
	for (int i = 0; f != JSON && i < n; i++)
		emit(&t[i], f, NULL);
	if (plot_dir && (plot_all(s, t, n, plot_dir) || save(s, t, n, plot_dir)))
		return -1;
	return 0;
}

/* ---- command ---- */

static void usage(FILE *f)
{
	fprintf(f, "usage: dlasim study nvm [--quick] [--tx N] [--seed N] [--json | --csv] [--plot DIR]\n"
		   "  Figures 3.1, 3.7-3.10 and 4.5-4.8 of the off-chip memory dissertation\n"
		   "  (docs/validation/nvm.md); each core's workload is %d transactions\n"
		   "  (--quick: %d; --tx N), the kernels' random numbers come from --seed (1);\n"
		   "  --plot DIR: the figures as PNG and SVG with gnuplot (docs/figures.md)\n",
		STUDY_TX, QUICK_TX);
}

static int collect(struct study *s, struct dl_job_result *r)
{
	for (int i = 0; i < s->n; i++) {
		/* Every figure needs every run: a failed one ends the study. */
		if (r[i].failed || r[i].len != sizeof(s->res[i]))
			return dl_err("%s: run %s under %s/%s failed%s%s", CMD, s->jobs[i].workload,
				      s->jobs[i].persist, s->jobs[i].log_alloc,
				      r[i].reason ? ": " : "", r[i].reason ? r[i].reason : "");
		memcpy(&s->res[i], r[i].data, sizeof(s->res[i]));
	}
	return 0;
}

int study_nvm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "quick", no_argument, NULL, 'q' },
		{ "tx", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 'S' },
		{ "plot", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct study s;
	struct dl_jobs jobs = { .what = CMD, .run = run_job, .arg = &s,
				.result_size = sizeof(struct nvm_result) };
	struct dl_job_result *r;
	enum fmt f = HUMAN;
	const char *why, *plot_dir = NULL;
	long v;
	int c, ret = DL_EXIT_ERROR;

	s.ntx = STUDY_TX;
	s.seed = 1;
	while ((c = dl_getopt(argc, argv, CMD, NULL, opts)) != -1) {
		switch (c) {
		case 'j': f = JSON; break;
		case 'c': f = CSV; break;
		case 'q': s.ntx = QUICK_TX; break;
		case 't':
			if ((why = dl_parse_int(optarg, 1, 10000000, &v)))
				return dl_bad_option(CMD, "--tx", optarg, why);
			s.ntx = (int)v;
			break;
		case 'S':
			if ((why = dl_parse_int(optarg, 0, 1L << 40, &s.seed)))
				return dl_bad_option(CMD, "--seed", optarg, why);
			break;
		case 'p': plot_dir = optarg; break;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (dl_no_operands(argc, argv, CMD))
		return DL_EXIT_USAGE;
	if (s.ntx < STUDY_TX)
		snprintf(s.reduced, sizeof(s.reduced), "%d transactions a core (the study's %d)",
			 s.ntx, STUDY_TX);
	/* A directory that cannot be made is known before the runs. */
	if (plot_dir && dl_plot_dir(plot_dir, "--plot"))
		return DL_EXIT_ERROR;
	plan(&s);
	r = calloc((size_t)s.n, sizeof(*r));
	if (!r)
		return dl_err("out of memory"), DL_EXIT_ERROR;
	jobs.count = s.n;
	if (dl_jobs_run(&jobs, r) >= 0 && collect(&s, r) == 0 &&
	    report(&s, f, plot_dir) == 0)
		ret = fflush(stdout) ? DL_EXIT_ERROR : DL_EXIT_OK;
	dl_jobs_free(r, s.n);
	free(r);
	return ret;
}

/* ---- dlasim plot: the figures again from the study's JSON ---- */

/* Cell i into its table: row under the table's row name, its design. */
static int read_cell(struct table *t, int n, const struct dl_jv *c, int i, const char *file)
{
	const char *fig = dl_jv_str(dl_jv_get(c, "figure"));
	const char *rows[MAXROWS];
	const struct dl_jv *row;
	int k, r, col;

	for (k = 0; fig && k < n && strcmp(t[k].id, fig); k++)
		;
	if (!fig || k == n)
		return dl_err("%s: cells[%d]: no figure %s in study nvm", file, i, fig ? fig : "");
	for (r = 0; r < t[k].nrows; r++)
		rows[r] = t[k].rows[r];
	/* The row under the table's row name (JSON), or "row" (CSV). */
	row = dl_jv_get(c, t[k].rowname);
	r = dl_str_index(rows, t[k].nrows, dl_jv_str(row ? row : dl_jv_get(c, "row")));
	col = dl_str_index(t[k].cols, t[k].ncols, dl_jv_str(dl_jv_get(c, "design")));
	if (r < 0 || col < 0)
		return dl_err("%s: cells[%d]: no such %s or design in study nvm's %s", file, i,
			      t[k].rowname, fig);
	t[k].v[r][col] = dl_jv_num(dl_jv_get(c, t[k].metric));
	return 0;
}

int study_nvm_replot(const struct dl_jv *doc, const char *file, const char *dir)
{
	static struct study s;
	static struct table t[NTABLES];
	const struct dl_jv *cells = dl_jv_get(doc, "cells");
	const char *reduced = dl_jv_str(dl_jv_get(doc, "reduced"));
	int n;

	if (!cells || cells->type != DL_JV_ARR)
		return dl_err("%s: no cells of study nvm", file);
	memset(&s, 0, sizeof(s));
	s.shape_only = true;
	snprintf(s.reduced, sizeof(s.reduced), "%s", reduced ? reduced : "");
	plan(&s);	/* runs of no result: the tables' shape */
	if ((n = tables(&s, t)) < 0)
		return -1;
	for (int k = 0; k < n; k++)
		for (int r = 0; r < MAXROWS; r++)
			for (int c = 0; c < MAXCOLS; c++)
				t[k].v[r][c] = NAN;
	for (int i = 0; i < cells->n; i++)
		if (read_cell(t, n, &cells->item[i], i, file))
			return -1;
	return plot_all(&s, t, n, dir);
}
