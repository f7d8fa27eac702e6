/* SPDX-License-Identifier: MIT */
/*
 * TM-Training's placement as tier services (split on write, essential
 * promotion, proactive eviction), shared by its variants.  Flags:
 * DLASIM_TIER_ORACLE, _EXACT (the ratio), _BYPASS (Belady room),
 * _WAIT (block on the moves).  Model: docs/tier.md.
 */
#ifndef DL_TIER_PLACE_H
#define DL_TIER_PLACE_H

struct dlasim_tier_ctx;

/* The tier-1 share of a tensor being written. */
double place_split(struct dlasim_tier_ctx *run, int id, unsigned flags);
/* Promote what op `op` cannot stream from tier 2 while it computes;
 * returns the bytes promoted. */
double place_essential(struct dlasim_tier_ctx *run, int op, unsigned flags);
/* Before the DMA fetches op `op`: essential promotion for op + 1 and
 * room for what op and op + 1 write to tier 1. */
int place_prepare(struct dlasim_tier_ctx *run, int op, unsigned flags);

#endif
