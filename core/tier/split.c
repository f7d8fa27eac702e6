/* SPDX-License-Identifier: MIT */
#include "split.h"

#include <math.h>
#include <stdbool.h>

static double clamp01(double r)
{
	return r < 0 ? 0 : r > 1 ? 1 : r;
}

/*
 * Algorithm 1: if the request interval leaves time to fetch the data from
 * both tiers at once (compute-bound), put in tier 2 exactly what tier 2
 * can deliver within the interval; otherwise (memory-bound) split so that
 * both tiers finish together.
 */
double split_approx(double tc_s, double bytes, double bw1_Bps, double bw2_Bps)
{
	double t_min;

	if (bytes <= 0)
		return 0;
	t_min = bytes / (bw1_Bps + bw2_Bps);
	if (tc_s >= t_min)
		return clamp01(1 - tc_s * bw2_Bps / bytes);
	return bw1_Bps / (bw1_Bps + bw2_Bps);
}

/* Time tier 2 adds to the use; the listing's value goes negative when
 * tier 2 finishes early, which is no gain: the interval is fixed. */
double split_runtime_overhead(const struct split_use *u, double r)
{
	double t = u->bytes * (1 - r) / u->bw2_Bps - u->tc_s;

	return t > 0 ? t : 0;
}

/* Line 7: the tier-1 share costs two HBM accesses a pass (Algorithm 2's
 * OFFCHIPENERGY: D n accesses), the tier-2 share one flash read; the HBM
 * static energy shrinks with the tier-1 capacity and the flash adds its
 * own. */
double split_energy_overhead(const struct split_use *u, double r)
{
	double e_off_d = u->bytes * u->fetches * u->e1_j_per_byte;
	double e_off_s = u->static1_w * u->tr_s;
	double e_r = 2 * r * e_off_d + (1 - r) * u->bytes * u->e2_j_per_byte +
		     u->tier1_share * e_off_s + u->static2_w * u->tr_s;

	return e_r - (e_off_d + e_off_s);
}

/* Throughput per watt is work per joule; run-time overhead burns the
 * system's static power. */
double split_efficiency(const struct split_use *u, double r)
{
	double e = u->base_j + split_energy_overhead(u, r) +
		   u->system_static_w * split_runtime_overhead(u, r);

	return e > 0 ? 1 / e : INFINITY;
}

/* The performance requirement Section 4.2 allows between lines 19 and 20:
 * a step that would make tier 2 delay the use is not taken (TM-Training
 * keeps the HBM-only run time beyond 100:1, Figure 12). */
static bool allowed(const struct split_use *u, double r)
{
	return r >= u->r_min - 1e-12 && split_runtime_overhead(u, r) <= 0;
}

double split_adjust(const struct split_use *u, double r_approx, int seq)
{
	double step = 1.0 / (seq > 0 ? seq : 1);
	double r1 = r_approx, r2 = r_approx - step;

	while (allowed(u, r2)) {
		if (split_efficiency(u, r1) >= split_efficiency(u, r2))
			break;
		r1 = r2;
		r2 -= step;
	}
	return clamp01(r1);
}

/*
 * Above the bend where tier 2 starts to delay the use (r_b) the
 * efficiency is linear in r: a descent with an infinitely small step goes
 * down to r_b (or r_min) or stays.
 */
double split_adjust_exact(const struct split_use *u, double r_approx)
{
	double r_b = u->bytes > 0 ? 1 - u->tc_s * u->bw2_Bps / u->bytes : 0;
	double below = fmax(fmax(r_b, u->r_min), 0), r = clamp01(r_approx);

	if (below < r && split_efficiency(u, (r + below) / 2) > split_efficiency(u, r))
		return below;
	return r;
}

double split_round_up(double r, int units)
{
	double n;

	if (units <= 0)
		return clamp01(r);
	n = ceil(r * units - 1e-9);
	return clamp01(n / units);
}
