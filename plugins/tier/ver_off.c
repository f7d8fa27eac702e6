/* SPDX-License-Identifier: MIT */
/*
 * Ver_Off (TM-Training Section 2): tier 1 caches tier 2 with Belady's
 * replacement, and the operands of the next op are fetched into it one op
 * ahead (data still being written back are taken back: promote_missing).
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES_WITH(svc, promote_missing)

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	if (op->index + 1 >= svc->op_count(ctx))
		return DLASIM_OK;
	return dlasim_tier_promote_inputs(svc, ctx, op->index + 1);
}

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->belady_victim(ctx, 0);
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_VERTICAL,
	.prepare = prepare,
	.victim = victim,
	.flags = DLASIM_TIER_OFFLINE,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "ver_off",
	.description = "vertical tiers (tier 1 caches tier 2), Belady, fetch one op ahead",
	.init = dlasim_tier_init,
	.ops = &ops,
};
