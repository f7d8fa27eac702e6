/* SPDX-License-Identifier: MIT */
/* Estimates the placement manager offers plugins (tier services). */
#ifndef DL_TIER_ESTIMATE_H
#define DL_TIER_ESTIMATE_H

#include <stdbool.h>

struct dlasim_tier_ctx;

double est_split_ratio(const struct dlasim_tier_ctx *run, int id, unsigned flags);
double est_window(const struct dlasim_tier_ctx *run, int op);
void est_fetch_time(const struct dlasim_tier_ctx *run, int op, double *tier1_s, double *tier2_s);
void est_best_io_tiers(const struct dlasim_tier_ctx *run, int op, bool *inputs_tier1,
		       bool *output_tier1);

#endif
