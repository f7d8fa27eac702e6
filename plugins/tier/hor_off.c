/* SPDX-License-Identifier: MIT */
/*
 * Hor_Off (TM-Training Section 2): horizontal tiers, offline optimal.
 * Belady's replacement: a new tensor goes to tier 1 only as far as room
 * can be made from data read later than it; tier 1 evicts the data read
 * furthest in the future (per read saved).  One op ahead, and when an op
 * starts, operands are promoted only as far as reading them from tier 2
 * would stall the MXUs (the host's promote_essential).
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static double place(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_tensor *t)
{
	double room;

	if (t->bytes <= 0 || t->first_use == DLASIM_TIER_NEVER)
		return 0;
	room = svc->tier1_free(ctx) + svc->evictable_after(ctx, t->first_use);
	return room >= t->bytes ? 1 : room > 0 ? room / t->bytes : 0;
}

/* Hor_Off knows every op's MXU time (ORACLE) and what is read later. */
#define OFFLINE_FLAGS (DLASIM_TIER_BYPASS | DLASIM_TIER_ORACLE)

/* One op ahead: promote only what reading from tier 2 would stall on. */
static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	if (op->index + 1 >= svc->op_count(ctx))
		return DLASIM_OK;
	return svc->promote_essential(ctx, op->index + 1, OFFLINE_FLAGS) < 0 ? DLASIM_ERR
									     : DLASIM_OK;
}

/* The op starts: the same for its other passes. */
static int start(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	return svc->promote_essential(ctx, op->index, OFFLINE_FLAGS) < 0 ? DLASIM_ERR : DLASIM_OK;
}

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->belady_victim(ctx, 0);
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HORIZONTAL,
	.place = place,
	.prepare = prepare,
	.victim = victim,
	.start = start,
	.flags = DLASIM_TIER_OFFLINE,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "hor_off",
	.description = "horizontal tiers, Belady, promote only what would stall",
	.init = dlasim_tier_init,
	.ops = &ops,
};
