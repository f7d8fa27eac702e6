/* SPDX-License-Identifier: MIT */
/*
 * AutoTM (Hildebrand et al., ASPLOS 2020) as TM-Training models it: for
 * each op, the best of the four cases (operands in tier 1 or tier 2,
 * output in tier 1 or tier 2), whole tensors only.  Room in tier 1 is made
 * when the op needs it, the op waiting for it (an out-of-memory fault);
 * tier 1 evicts the least recently used data.  Offline: the integer
 * program knows every op's time and data in advance (best_io_tiers).
 */
#include <stdlib.h>

#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static signed char *out_tier1;	/* per op: -1 undecided, 0, 1 */

static double output_bytes(struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	double b = 0;

	for (int k = 0; k < op->noutputs; k++)
		b += svc->tensor(ctx, op->outputs[k])->bytes;
	return b;
}

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	bool in1, out1;

	if (!out_tier1) {
		out_tier1 = calloc((size_t)svc->op_count(ctx), 1);
		if (!out_tier1)
			return DLASIM_ERR;
	}
	svc->best_io_tiers(ctx, op->index, &in1, &out1);
	out_tier1[op->index] = out1 ? 1 : 0;
	for (int k = 0; in1 && k < op->ninputs; k++) {
		const struct dlasim_tier_tensor *t = svc->tensor(ctx, op->inputs[k].tensor);

		if (t->tier2_bytes > 0 && svc->promote(ctx, t->id, t->tier2_bytes, DLASIM_TIER_WAIT) < 0)
			return DLASIM_ERR;
	}
	if (out1 && svc->make_room(ctx, output_bytes(ctx, op), DLASIM_TIER_WAIT) < 0)
		return DLASIM_ERR;
	return DLASIM_OK;
}

static double place(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_tensor *t)
{
	return !out_tier1 || t->producer < 0 || out_tier1[t->producer] ? 1 : 0;
}

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->lru_victim(ctx, 0);
}

static void fini(void *state)
{
	free(out_tier1);
	out_tier1 = NULL;
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HORIZONTAL,
	.place = place,
	.prepare = prepare,
	.victim = victim,
	.flags = DLASIM_TIER_WHOLE_TENSORS | DLASIM_TIER_STAGE_MISSES | DLASIM_TIER_OFFLINE,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "autotm",
	.description = "AutoTM: best of four input/output tier cases per op, whole tensors",
	.init = dlasim_tier_init,
	.fini = fini,
	.ops = &ops,
};
