/* SPDX-License-Identifier: MIT */
/*
 * TM-Training (Park et al., ACM TOS 2025): horizontal tiers.  A tensor is
 * written split along its sequence: the share r of Algorithms 1 and 3
 * (from the request timing monitor's record of its data label, in steps
 * of 1/seq; all of it before the label is measured) to tier 1, the rest
 * straight to tier 2.  Only essential data are promoted; room is made
 * before tier 1 is full (proactive eviction) by evicting the least
 * recently used data, sparing data promoted and not yet used.
 *
 * Room for the share r is made ahead of the write and waited for
 * (DLASIM_TIER_WAIT, Section 3.2), so that r is in tier 1 when the op
 * writes.  The op sequence is the one the first layer showed (every layer
 * repeats it; Section 5.2: "using the information obtained during the
 * initial operation"), so the plugin declares DLASIM_TIER_OFFLINE to plan
 * over the ops ahead; every time it plans with is the monitor's
 * measurement (no DLASIM_TIER_ORACLE).  The machinery is the host's
 * (DLASIM_TIER_SPLIT_PLUGIN, docs/tier.md).
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->lru_victim(ctx, DLASIM_TIER_SPARE_PROMOTED);
}

DLASIM_TIER_SPLIT_PLUGIN_FLAGS("tm_training",
			       "TM-Training: split ratio from the request timing monitor, LRU sparing promoted data",
			       DLASIM_TIER_WAIT, victim, DLASIM_TIER_OFFLINE);
