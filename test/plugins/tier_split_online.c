/* SPDX-License-Identifier: MIT */
/*
 * TM-Training's placement services as a policy that declares nothing
 * (docs/tier-plugins.md, "tm_like"): online-only, the services must plan
 * from the monitor alone and call nothing that tells the future.
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->lru_victim(ctx, DLASIM_TIER_SPARE_PROMOTED);
}

DLASIM_TIER_SPLIT_PLUGIN("split_online", "split ratios from the monitor, LRU, no future", 0,
			 victim);
