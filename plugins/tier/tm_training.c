/* SPDX-License-Identifier: MIT */
/*
 * TM-Training (Park et al., ACM TOS 2025): horizontal tiers.  A tensor is
 * written split along its sequence: the share r of Algorithms 1 and 3
 * (from the request timing monitor's record of its data label, in steps
 * of 1/seq; all of it before the label is measured) to tier 1, the rest
 * straight to tier 2.  Only essential data are promoted; room is made
 * before tier 1 is full (proactive eviction) by evicting the least
 * recently used data, sparing data promoted and not yet used.  The
 * machinery is the host's (DLASIM_TIER_SPLIT_PLUGIN, docs/tier.md).
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->lru_victim(ctx, DLASIM_TIER_SPARE_PROMOTED);
}

DLASIM_TIER_SPLIT_PLUGIN("tm_training",
			 "TM-Training: split ratio from the request timing monitor, LRU sparing promoted data",
			 DLASIM_TIER_WAIT, victim);
