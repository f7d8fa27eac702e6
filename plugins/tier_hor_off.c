/* SPDX-License-Identifier: MIT */
/*
 * Hor_Off (TM-Training Section 2): horizontal tiers, offline optimal.
 * Belady's replacement: a new tensor goes to tier 1 only as far as room
 * can be made from data read later than it; tier 1 evicts the data read
 * furthest in the future.  One op ahead, the operands of the next op are
 * promoted only if fetching them from tier 2 would stall the MXUs.
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

/* Promote the operands of `op` fetched most often first, until tier 2
 * no longer holds the op back. */
static int promote_if_stalling(struct dlasim_tier_ctx *ctx, int op)
{
	const struct dlasim_tier_op *o = svc->op(ctx, op);
	double w = svc->window(ctx, op), f1, f2;
	bool done[64] = { false };

	for (;;) {
		int best = -1;

		svc->fetch_time(ctx, op, &f1, &f2);
		if (f2 <= w)
			return DLASIM_OK;
		for (int k = 0; k < o->ninputs && k < 64; k++) {
			const struct dlasim_tier_tensor *t = svc->tensor(ctx, o->inputs[k].tensor);

			if (!done[k] && t->tier2_bytes > 0 &&
			    (best < 0 || o->inputs[k].fetches > o->inputs[best].fetches))
				best = k;
		}
		if (best < 0)
			return DLASIM_OK;
		done[best] = true;
		if (svc->promote(ctx, o->inputs[best].tensor,
				 svc->tensor(ctx, o->inputs[best].tensor)->tier2_bytes, 0) < 0)
			return DLASIM_ERR;
	}
}

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	if (op->index + 1 >= svc->op_count(ctx))
		return DLASIM_OK;
	return promote_if_stalling(ctx, op->index + 1);
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
