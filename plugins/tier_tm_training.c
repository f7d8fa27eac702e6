/* SPDX-License-Identifier: MIT */
/*
 * TM-Training (Park et al., ACM TOS 2025): horizontal tiers; each tensor is
 * split along its sequence length, a share r in tier 1 and 1 - r in
 * tier 2, r given by Algorithms 1 and 3 from the request timing monitor's
 * record of its data label (tier 1 whole until the label is measured).
 * One op ahead, operands whose tier-1 share was evicted are promoted back
 * to it, and tier 1 is made room for proactively, before it is full, for
 * what the next ops will write; evictions take the least recently used
 * data but spare data promoted and not yet used.
 *
 * Built three times: tm_training (this file), tm_training_off (Belady's
 * replacement) and ideal (Belady, ratio not rounded to 1/seq).
 */
#include <dlasim/tier.h>

#ifndef TM_NAME
#define TM_NAME "tm_training"
#define TM_DESCRIPTION "TM-Training: split ratio from the request timing monitor, LRU sparing promoted data"
#define TM_RATIO_FLAGS 0u
#define TM_VICTIM(ctx) svc->lru_victim(ctx, DLASIM_TIER_SPARE_PROMOTED)
#endif

DLASIM_TIER_SERVICES(svc)

static double ratio_of(struct dlasim_tier_ctx *ctx, const struct dlasim_tier_tensor *t)
{
	double r = svc->split_ratio(ctx, t->id, TM_RATIO_FLAGS);

	return r < 0 ? 1 : r;
}

static double place(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_tensor *t)
{
	return ratio_of(ctx, t);
}

/* Bring the operands of `op` back to their tier-1 share. */
static double restore_shares(struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	double moved = 0;

	for (int k = 0; k < op->ninputs; k++) {
		const struct dlasim_tier_tensor *t = svc->tensor(ctx, op->inputs[k].tensor);
		double want = ratio_of(ctx, t) * t->bytes - t->tier1_bytes - t->moving_bytes;

		if (t->live && want > t->bytes / t->units) {
			double got = svc->promote(ctx, t->id, want, 0);

			if (got < 0)
				return -1;
			moved += got;
		}
	}
	return moved;
}

static double tier1_writes(struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	double b = 0;

	for (int k = 0; k < op->noutputs; k++) {
		const struct dlasim_tier_tensor *t = svc->tensor(ctx, op->outputs[k]);

		b += ratio_of(ctx, t) * t->bytes;
	}
	return b;
}

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	const struct dlasim_tier_op *next;

	if (op->index + 1 >= svc->op_count(ctx))
		return DLASIM_OK;
	next = svc->op(ctx, op->index + 1);
	if (restore_shares(ctx, next) < 0)
		return DLASIM_ERR;
	/* Proactive eviction: room for what this op and the next write. */
	if (svc->make_room(ctx, tier1_writes(ctx, op) + tier1_writes(ctx, next), 0) < 0)
		return DLASIM_ERR;
	return DLASIM_OK;
}

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return TM_VICTIM(ctx);
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HORIZONTAL,
	.place = place,
	.prepare = prepare,
	.victim = victim,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = TM_NAME,
	.description = TM_DESCRIPTION,
	.init = dlasim_tier_init,
	.ops = &ops,
};
