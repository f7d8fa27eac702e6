/* SPDX-License-Identifier: MIT */
/* The request timing monitor actor (T1/T2/T3 of each use, per label). */
#ifndef DL_TIER_MONITOR_H
#define DL_TIER_MONITOR_H

#include <stdio.h>

#include "state.h"

int monitor_start(struct dlasim_tier_ctx *run);
/* The measured records as CSV: per use (kind of op, operand) and per
 * Table 4 label and phase; T_c = T2 - T1, T_r = T3 - T1. */
void monitor_write(const struct dlasim_tier_ctx *run, FILE *f);
void monitor_free(struct dlasim_tier_ctx *run);
/* The DMA begins fetching operand `slot` of op `op` (`bytes`, passes
 * included); op `op` starts (kind 2) or ends (kind 3). */
void monitor_fetch(struct dlasim_tier_ctx *run, int op, int slot, double bytes);
void monitor_op(struct dlasim_tier_ctx *run, int op, int kind);

#endif
