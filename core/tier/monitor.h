/* SPDX-License-Identifier: MIT */
/* The request timing monitor actor (T1/T2/T3 of each use, per label). */
#ifndef DL_TIER_MONITOR_H
#define DL_TIER_MONITOR_H

#include "state.h"

void monitor_start(struct dlasim_tier_ctx *run);
void monitor_fetch(struct dlasim_tier_ctx *run, int op, const struct dlasim_tier_operand *in,
		   double bytes);
void monitor_op(struct dlasim_tier_ctx *run, int op, int kind);

#endif
