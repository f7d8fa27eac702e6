/* SPDX-License-Identifier: MIT */
/*
 * TM-Training_Off (Figure 14): TM-Training with the offline optimal
 * replacement (the data read furthest in the future per pass leave tier 1
 * first) instead of LRU, still sparing data promoted and not yet used.
 * Everything else is TM-Training's: room for the share r made ahead and
 * waited for, windows from the request timing monitor.
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->belady_victim(ctx, DLASIM_TIER_SPARE_PROMOTED);
}

DLASIM_TIER_SPLIT_PLUGIN_FLAGS("tm_training_off",
			       "TM-Training with Belady's replacement instead of LRU", DLASIM_TIER_WAIT,
			       victim, DLASIM_TIER_OFFLINE);
