/* SPDX-License-Identifier: MIT */
/*
 * The runs of study tm and the quantities TM-Training's figures plot,
 * normalized as the paper normalizes them (efficiency and throughput by
 * the HBM-only chip's, migration by the data used or by the ideal case's).
 */
#ifndef DL_TIER_FIGURES_H
#define DL_TIER_FIGURES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "result.h"

#define TM_MAXJOBS 400
#define TM_NW 5
#define TM_NR 6

extern const char *const tm_workloads[TM_NW];	/* Table 3's */
extern const double tm_ratios[TM_NR];		/* R of R:1, Figures 10-12 */

struct tm_job {
	const char *workload, *policy;	/* policy: plugin[:options] */
	double ratio, batch, bw;	/* --tier1-ratio, --batch-scale, --tier2-bw-scale */
};

struct tm_study {
	char dir[PATH_MAX];
	struct tm_job jobs[TM_MAXJOBS];
	struct tier_result res[TM_MAXJOBS];
	bool ok[TM_MAXJOBS];	/* false: the run failed, its cells are n/a */
	int n;
	const char *npu_device;	/* --npu-device, or NULL */
};

/* A table of study tm (one of the paper's figures): v[row][col], NAN n/a. */
#define TM_MAXROWS 12
#define TM_MAXCOLS 12
struct tm_table {
	const char *id, *title, *metric;	/* metric names its unit */
	const char *rowname;
	char rows[TM_MAXROWS][32];
	const char *cols[TM_MAXCOLS];
	double v[TM_MAXROWS][TM_MAXCOLS];
	int nrows, ncols;
};

typedef double (*tm_metric)(const struct tm_study *s, const char *w, const char *p,
			    double r, double b, double bw);

/* The index of a setting's run in jobs[], -1 if not planned (HBM-only:
 * any ratio, bw). */
int tm_job_index(const struct tm_study *s, const char *w, const char *p, double r, double b,
		 double bw);
/* The result of a setting, NULL if not planned or failed (HBM-only: any ratio, bw). */
const struct tier_result *tm_find(const struct tm_study *s, const char *w, const char *p,
				  double r, double b, double bw);
/* A double field of a result (offsetof), NAN without a result. */
double tm_value(const struct tier_result *x, size_t off);
#define TM_FIELD(x, field) tm_value((x), offsetof(struct tier_result, field))

/* Throughput per watt, and throughput, against the HBM-only chip's. */
double tm_eff(const struct tm_study *s, const char *w, const char *p, double r, double b,
	      double bw);
/* Efficiency over the floor of the horizontal tiers at that setting (the
 * floor of TM-Training's run: docs/tier.md, "The floor"). */
double tm_eff_floor(const struct tm_study *s, const char *w, const char *p, double r, double b,
		    double bw);
double tm_thr(const struct tm_study *s, const char *w, const char *p, double r, double b,
	      double bw);
/* Migration against the data the iteration uses, or the ideal case's. */
double tm_mig_data(const struct tm_study *s, const char *w, const char *p, double r, double b,
		   double bw);
double tm_mig_ideal(const struct tm_study *s, const char *w, const char *p, double r, double b,
		    double bw);
/* Throughput per watt of a run with its energy taken at another reading
 * of two powers: tier 1's HBM static power per GiB instead of per device,
 * and the chip's idle power left out.  The run is the same (its time and
 * bytes as simulated at the shipped powers). */
#define TM_HBM_PER_GIB 0x1u
#define TM_NO_IDLE 0x2u
double tm_eff_at(const struct tier_result *x, unsigned reading);
/* The off-chip memory's energy: migration, prefetch, static. */
double tm_mem_energy(const struct tier_result *x);
/* Over the five workloads: the mean of m(p) / m(q) (q NULL: of m(p)), and
 * the geometric mean of m(p). */
double tm_mean(const struct tm_study *s, tm_metric m, const char *p, const char *q, double r,
	       double b, double bw);
double tm_geomean(const struct tm_study *s, tm_metric m, const char *p, double r, double b,
		  double bw);

#endif
