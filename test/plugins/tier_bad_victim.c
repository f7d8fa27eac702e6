/* SPDX-License-Identifier: MIT */
/* A tier plugin that evicts an operand of the op being fetched: the host
 * must stop. */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static int current = -1;

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	current = op->index;
	return DLASIM_OK;
}

/* The operand of the current op with the most bytes in tier 1. */
static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	const struct dlasim_tier_op *op = svc->op(ctx, current);
	int best = -1;

	for (int k = 0; k < op->ninputs; k++) {
		const struct dlasim_tier_tensor *t = svc->tensor(ctx, op->inputs[k].tensor);

		if (t->tier1_bytes > 0 && (best < 0 || t->tier1_bytes > svc->tensor(ctx, best)->tier1_bytes))
			best = t->id;
	}
	return best >= 0 ? best : svc->lru_victim(ctx, 0);
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HORIZONTAL,
	.prepare = prepare,
	.victim = victim,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "bad_victim",
	.description = "evicts data the current op is using",
	.init = dlasim_tier_init,
	.ops = &ops,
};
