/* SPDX-License-Identifier: MIT */
/*
 * Hor_On (TM-Training Section 2): horizontal tiers, online.  New data goes
 * to tier 1; whatever an op needs from tier 2 is promoted before it is
 * read, as much as fits, without asking whether reading it from tier 2
 * would have stalled; tier 1 evicts the least recently used data.
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static double place(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_tensor *t)
{
	return 1;
}

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	for (int k = 0; k < op->ninputs; k++) {
		const struct dlasim_tier_tensor *t = svc->tensor(ctx, op->inputs[k].tensor);

		if (t->tier2_bytes > 0 && svc->promote(ctx, t->id, t->tier2_bytes, 0) < 0)
			return DLASIM_ERR;
	}
	return DLASIM_OK;
}

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->lru_victim(ctx, 0);
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HORIZONTAL,
	.place = place,
	.prepare = prepare,
	.victim = victim,
	.flags = DLASIM_TIER_STAGE_MISSES,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "hor_on",
	.description = "horizontal tiers, LRU, promote everything read from tier 2",
	.init = dlasim_tier_init,
	.ops = &ops,
};
