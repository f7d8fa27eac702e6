/* SPDX-License-Identifier: MIT */
/*
 * Sentinel (Ren et al., HPCA 2021) as TM-Training models it: the chip
 * reads only tier 1 (a vertical arrangement); data needed by the ops of
 * the next migration interval are promoted ahead of time, and data just
 * used that no op of that interval reads again are demoted at once.
 * Data needed again while their demotion is still under way are taken
 * back (promote_missing): they are in tier 1 until the move ends.  Room
 * for what an op writes is made before it and waited for: Sentinel
 * manages tier 1 ahead of the ops (Section 5.1 of TM-Training).
 * Tier 1 evicts the least recently used data.  Option: interval=N ops
 * (default 2).  Offline: Sentinel profiles a first iteration to learn
 * which data each interval uses (next_use here).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/tier.h>

static const struct dlasim_tier_services *svc;
static int interval = 2;

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	const char *cursor = options;
	char key[32], value[64];
	double v;
	int rc;

	*state = NULL;
	if (!host->tier)
		return dlasim_tier_refuse(err, errlen, "this dlasim has no tier services");
	if (!DLASIM_HAS_MEMBER(host->tier, struct dlasim_tier_services, promote_missing))
		return dlasim_tier_refuse(err, errlen, "this dlasim's tier services have no promote_missing");
	svc = host->tier;
	while ((rc = host->next_option(&cursor, key, sizeof(key), value, sizeof(value))) > 0) {
		const char *why = strcmp(key, "interval") ? "unknown option (interval=N)"
							 : host->parse_number(value, 1, &v);

		if (why) {
			snprintf(err, errlen, "%s=%s: %s", key, value, why);
			return DLASIM_ERR;
		}
		interval = (int)v;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", value);
		return DLASIM_ERR;
	}
	return DLASIM_OK;
}

static int demote_used(struct dlasim_tier_ctx *ctx, int op, int horizon)
{
	const struct dlasim_tier_op *o = svc->op(ctx, op);

	for (int k = 0; k < o->ninputs; k++) {
		const struct dlasim_tier_tensor *t = svc->tensor(ctx, o->inputs[k].tensor);

		if (svc->evictable(ctx, t->id) && svc->next_use(ctx, t->id, op) > horizon &&
		    svc->evict(ctx, t->id, t->tier1_bytes, 0) < 0)
			return DLASIM_ERR;
	}
	return DLASIM_OK;
}

/* Room for what the op writes, made before it and waited for (the room
 * reservation every policy may use, docs/tier.md): a vertical tier 1
 * holds every result. */
static int reserve_outputs(struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	double out = 0;

	for (int k = 0; k < op->noutputs; k++)
		out += svc->tensor(ctx, op->outputs[k])->bytes;
	return out > 0 && svc->make_room(ctx, out, DLASIM_TIER_WAIT) < 0 ? DLASIM_ERR : DLASIM_OK;
}

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	int n = svc->op_count(ctx), last = op->index + interval;

	if (op->index >= 2 && demote_used(ctx, op->index - 2, last) < 0)
		return DLASIM_ERR;
	if (reserve_outputs(ctx, op) < 0)
		return DLASIM_ERR;
	for (int j = op->index + 1; j <= last && j < n; j++)
		if (dlasim_tier_promote_inputs(svc, ctx, j) < 0)
			return DLASIM_ERR;
	return DLASIM_OK;
}

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->lru_victim(ctx, 0);
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
	.name = "sentinel",
	.description = "Sentinel: reads from tier 1 only, promotes an interval ahead, demotes used data",
	.init = init,
	.ops = &ops,
};
