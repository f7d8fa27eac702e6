/* SPDX-License-Identifier: MIT */
#include "figures.h"

#include <math.h>
#include <string.h>

const char *const tm_workloads[TM_NW] = { "bert-large", "t5", "chinchilla", "gpt3", "palm" };
const double tm_ratios[TM_NR] = { 5, 10, 25, 50, 100, 150 };

int tm_job_index(const struct tm_study *s, const char *w, const char *p, double r, double b,
		 double bw)
{
	if (!strcmp(p, "hbm_only"))
		r = 25, bw = 1;	/* the baseline has no tier 2 */
	for (int i = 0; i < s->n; i++) {
		const struct tm_job *j = &s->jobs[i];

		if (!strcmp(j->workload, w) && !strcmp(j->policy, p) && j->ratio == r &&
		    j->batch == b && j->bw == bw)
			return i;
	}
	return -1;
}

const struct tier_result *tm_find(const struct tm_study *s, const char *w, const char *p,
				  double r, double b, double bw)
{
	int i = tm_job_index(s, w, p, r, b, bw);

	return i >= 0 && s->ok[i] ? &s->res[i] : NULL;
}

double tm_value(const struct tier_result *x, size_t off)
{
	return x ? *(const double *)((const char *)x + off) : NAN;
}

double tm_eff(const struct tm_study *s, const char *w, const char *p, double r, double b,
	      double bw)
{
	return TM_FIELD(tm_find(s, w, p, r, b, bw), throughput_per_watt) /
	       TM_FIELD(tm_find(s, w, "hbm_only", r, b, 1), throughput_per_watt);
}

double tm_eff_floor(const struct tm_study *s, const char *w, const char *p, double r, double b,
		    double bw)
{
	return TM_FIELD(tm_find(s, w, p, r, b, bw), throughput_per_watt) /
	       TM_FIELD(tm_find(s, w, "tm_training", r, b, bw), floor_throughput_per_watt);
}

double tm_thr(const struct tm_study *s, const char *w, const char *p, double r, double b,
	      double bw)
{
	return TM_FIELD(tm_find(s, w, p, r, b, bw), throughput_samples_per_s) /
	       TM_FIELD(tm_find(s, w, "hbm_only", r, b, 1), throughput_samples_per_s);
}

double tm_mig_data(const struct tm_study *s, const char *w, const char *p, double r, double b,
		   double bw)
{
	const struct tier_result *x = tm_find(s, w, p, r, b, bw);

	return TM_FIELD(x, migration_bytes) / TM_FIELD(x, data_bytes);
}

double tm_mig_ideal(const struct tm_study *s, const char *w, const char *p, double r, double b,
		    double bw)
{
	return TM_FIELD(tm_find(s, w, p, r, b, bw), migration_bytes) /
	       TM_FIELD(tm_find(s, w, "ideal", r, b, bw), migration_bytes);
}

double tm_eff_at(const struct tier_result *x, unsigned reading)
{
	double e = TM_FIELD(x, energy_j), t = TM_FIELD(x, iteration_time_s);

	if (reading & TM_HBM_PER_GIB)
		e += (TM_FIELD(x, tier1_static_per_gib_w) - TM_FIELD(x, tier1_static_w)) * t;
	if (reading & TM_NO_IDLE)
		e -= TM_FIELD(x, energy_idle_j);
	return TM_FIELD(x, samples) / e;
}

double tm_mem_energy(const struct tier_result *x)
{
	return TM_FIELD(x, energy_migration_j) + TM_FIELD(x, energy_prefetch_j) +
	       TM_FIELD(x, energy_static_j);
}

double tm_mean(const struct tm_study *s, tm_metric m, const char *p, const char *q, double r,
	       double b, double bw)
{
	double sum = 0;

	for (int w = 0; w < TM_NW; w++)
		sum += m(s, tm_workloads[w], p, r, b, bw) /
		       (q ? m(s, tm_workloads[w], q, r, b, bw) : 1);
	return sum / TM_NW;
}

double tm_geomean(const struct tm_study *s, tm_metric m, const char *p, double r, double b,
		  double bw)
{
	double lg = 0;

	for (int w = 0; w < TM_NW; w++)
		lg += log(m(s, tm_workloads[w], p, r, b, bw));
	return exp(lg / TM_NW);
}
