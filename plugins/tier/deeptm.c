/* SPDX-License-Identifier: MIT */
/*
 * DeepTM (Zhou et al., TPDS 2024) as TM-Training models it: the first
 * time a kind of op runs (the first layer), AutoTM's integer program
 * (best of four cases, the op waiting for the room it needs); afterwards
 * outputs are written to tier 1 without out-of-memory faults (room is made
 * ahead and waited for before the op, as every policy may: docs/tier.md)
 * and operands are promoted when AutoTM's
 * cases say so, again without stalling (those written meanwhile when the
 * op starts).  Whole tensors only.  Evictions take the data read furthest
 * in the future (DeepTM weighs lifetime, size, frequency and recency;
 * lifetime dominates for a fixed op sequence).  Offline, as AutoTM.
 */
#include <stdlib.h>
#include <string.h>

#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

#define KINDS 128

static char kinds[KINDS][48];	/* op names without their layer, seen */
static int nkinds;
static signed char *out_tier1, *in_tier1;	/* per op */

static const char *kind_of(const char *name)
{
	const char *dot = name[0] == 'l' ? strchr(name, '.') : NULL;

	return dot ? dot + 1 : name;
}

/* The first op of its kind is the first layer's: planned by the ILP. */
static bool first_of_kind(const struct dlasim_tier_op *op)
{
	const char *kind = kind_of(op->name);

	for (int i = 0; i < nkinds; i++)
		if (strcmp(kinds[i], kind) == 0)
			return false;
	if (nkinds < KINDS)
		strncpy(kinds[nkinds++], kind, sizeof(kinds[0]) - 1);
	return true;
}

static int promote_inputs(struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op,
			  unsigned wait)
{
	for (int k = 0; k < op->ninputs; k++) {
		const struct dlasim_tier_tensor *t = svc->tensor(ctx, op->inputs[k].tensor);

		if (t->tier2_bytes > 0 && svc->promote(ctx, t->id, t->tier2_bytes, wait) < 0)
			return DLASIM_ERR;
	}
	return DLASIM_OK;
}

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	unsigned wait = first_of_kind(op) ? DLASIM_TIER_WAIT : 0;
	double out = 0;
	bool in1, out1;

	if (!out_tier1) {
		out_tier1 = calloc((size_t)svc->op_count(ctx), 1);
		in_tier1 = calloc((size_t)svc->op_count(ctx), 1);
		if (!out_tier1 || !in_tier1)
			return DLASIM_ERR;
	}
	svc->best_io_tiers(ctx, op->index, &in1, &out1);
	if (!wait)
		out1 = true;
	out_tier1[op->index] = out1 ? 1 : 0;
	in_tier1[op->index] = in1 ? 1 : 0;
	if (in1 && promote_inputs(ctx, op, wait) < 0)
		return DLASIM_ERR;
	for (int k = 0; out1 && k < op->noutputs; k++)
		out += svc->tensor(ctx, op->outputs[k])->bytes;
	/* The paper's DeepTM writes into tier 1 without out-of-memory faults:
	 * the room is reserved (made and waited for) before the op. */
	if (out > 0 && svc->make_room(ctx, out, DLASIM_TIER_WAIT) < 0)
		return DLASIM_ERR;
	return DLASIM_OK;
}

/* The op starts: inputs written since prepare() are promoted now. */
static int start(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	return in_tier1 && in_tier1[op->index] ? promote_inputs(ctx, op, 0) : DLASIM_OK;
}

static double place(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_tensor *t)
{
	return !out_tier1 || t->producer < 0 || out_tier1[t->producer] ? 1 : 0;
}

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->belady_victim(ctx, 0);
}

static void fini(void *state)
{
	free(out_tier1);
	free(in_tier1);
	out_tier1 = in_tier1 = NULL;
	nkinds = 0;
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HORIZONTAL,
	.place = place,
	.prepare = prepare,
	.victim = victim,
	.start = start,
	.flags = DLASIM_TIER_WHOLE_TENSORS | DLASIM_TIER_STAGE_MISSES | DLASIM_TIER_OFFLINE,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "deeptm",
	.description = "DeepTM: AutoTM on the first layer, then tier-1 writes without stalls, lifetime-aware eviction",
	.init = dlasim_tier_init,
	.fini = fini,
	.ops = &ops,
};
