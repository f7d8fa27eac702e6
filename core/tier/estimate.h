/* SPDX-License-Identifier: MIT */
/* Estimates the placement manager offers plugins (tier services). */
#ifndef DL_TIER_ESTIMATE_H
#define DL_TIER_ESTIMATE_H

#include <stdbool.h>

#include <dlasim/tier.h>

struct dlasim_tier_ctx;

/* The share of tensor `id` that Algorithms 1 and 3 keep in tier 1 (-1
 * before the monitor has measured the window of its first use). */
double est_split_ratio(const struct dlasim_tier_ctx *run, int id, unsigned flags);
/* The monitor's record of the window in which tensor `id` is first read,
 * NULL if none reads it. */
const struct dlasim_tier_timing *est_use_record(const struct dlasim_tier_ctx *run, int id);
double est_window(const struct dlasim_tier_ctx *run, int op);
/* How long op `op` keeps the MXUs: known in advance to the oracle
 * (DLASIM_TIER_ORACLE); else as the monitor measured the first op of its
 * kind (T3 - T2), -1 before that op has ended. */
double est_op_time(const struct dlasim_tier_ctx *run, int op, unsigned flags);
void est_fetch_time(const struct dlasim_tier_ctx *run, int op, double *tier1_s, double *tier2_s);
void est_best_io_tiers(const struct dlasim_tier_ctx *run, int op, bool *inputs_tier1,
		       bool *output_tier1);

#endif
