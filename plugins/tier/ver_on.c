/* SPDX-License-Identifier: MIT */
/*
 * Ver_On (TM-Training Section 2): tier 1 is a cache of tier 2 (every read
 * and write goes through it); data are fetched into it when an op needs
 * them (the host fills what an op's operands miss) and it evicts the least
 * recently used data.
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->lru_victim(ctx, 0);
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_VERTICAL,
	.victim = victim,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "ver_on",
	.description = "vertical tiers (tier 1 caches tier 2), LRU, fetch on demand",
	.init = dlasim_tier_init,
	.ops = &ops,
};
