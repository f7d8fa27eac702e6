/* SPDX-License-Identifier: MIT */
/*
 * TM-Training's split ratio (Algorithms 1 and 3): the share r of a tensor
 * kept in tier 1, the rest (1 - r) being streamed from tier 2 directly.
 * Pure arithmetic, no simulation state.  Formulas: docs/tier.md.
 */
#ifndef DL_TIER_SPLIT_H
#define DL_TIER_SPLIT_H

/* What Algorithm 3 knows of one use of a tensor in the HBM-only run. */
struct split_use {
	double bytes;		/* D: bytes of one pass of the use */
	double fetches;		/* n: passes over its tier-1 share (Alg. 2) */
	double r_min;		/* no lower: the tier-2 share would not fit SRAM */
	double tc_s;		/* T_c = T2 - T1: the request interval */
	double tr_s;		/* T_r = T3 - T1: the use's run time */
	double bw1_Bps, bw2_Bps;	/* tier 1, tier 2 (read) bandwidth */
	double e1_j_per_byte;	/* HBMDynamicEnergy */
	double e2_j_per_byte;	/* T2ReadEnergy */
	double static1_w;	/* HBMStaticPower of the HBM-only system */
	double tier1_share;	/* tier-1 capacity / address space */
	double static2_w;	/* T2Static */
	double system_static_w;	/* static power burnt while the chip stalls */
	double base_j;		/* E: baseline energy of the use (cancels out) */
};

/* Algorithm 1. */
double split_approx(double tc_s, double bytes, double bw1_Bps, double bw2_Bps);

/* Algorithm 3's RUNTIMEOVERHEAD (never negative) and ENERGYOVERHEAD. */
double split_runtime_overhead(const struct split_use *u, double r);
double split_energy_overhead(const struct split_use *u, double r);
/* EFFICIENCY: work per joule of the use at ratio r (work = 1). */
double split_efficiency(const struct split_use *u, double r);
/* RATIOADJUSTMENT: step r down by 1/seq while the efficiency improves,
 * not below r_min nor to where tier 2 would delay the use. */
double split_adjust(const struct split_use *u, double r_approx, int seq);
/* The same descent with an infinitely fine step (DLASIM_TIER_EXACT). */
double split_adjust_exact(const struct split_use *u, double r_approx);

/* Smallest multiple of 1/units that is >= r (within rounding), in [0, 1]. */
double split_round_up(double r, int units);

#endif
