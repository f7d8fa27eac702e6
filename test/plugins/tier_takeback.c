/* SPDX-License-Identifier: MIT */
/*
 * A vertical tier plugin that demotes data the next op reads and, in the
 * same prepare(), asks for them back with promote_missing(): each operand
 * of op i + 1 that is in tier 1 (and that it has not demoted before) is
 * evicted whole, which writes its dirty bytes back to tier 2, and at once
 * taken back while that write is under way.  The bytes are still in tier
 * 1, so none has to come from tier 2.  At fini() it writes to the file of
 * its option out=PATH:
 *   demoted_bytes taken_back_bytes mismatches
 * (what evict() and promote_missing() returned, and the tensors that were
 * not whole in tier 1, with nothing moving, right after being taken back).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/tier.h>

static const struct dlasim_tier_services *svc;
static char out[512];
static char *done;	/* per tensor: demoted once already */
static double demoted, taken_back;
static int mismatches;

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	*state = NULL;
	svc = host->tier;
	if (!svc || !DLASIM_HAS_MEMBER(svc, struct dlasim_tier_services, promote_missing))
		return dlasim_tier_refuse(err, errlen, "needs promote_missing()");
	if (!options || strncmp(options, "out=", 4) != 0)
		return dlasim_tier_refuse(err, errlen, "needs out=PATH");
	snprintf(out, sizeof(out), "%s", options + 4);
	return DLASIM_OK;
}

static int setup(void *state, struct dlasim_tier_ctx *ctx)
{
	done = calloc((size_t)svc->tensor_count(ctx), 1);
	return done ? DLASIM_OK : DLASIM_ERR;
}

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	const struct dlasim_tier_op *next;

	if (op->index + 1 >= svc->op_count(ctx))
		return DLASIM_OK;
	next = svc->op(ctx, op->index + 1);
	for (int k = 0; k < next->ninputs; k++) {
		const struct dlasim_tier_tensor *t = svc->tensor(ctx, next->inputs[k].tensor);
		double x, y;

		if (done[t->id] || !svc->evictable(ctx, t->id))
			continue;
		done[t->id] = 1;
		x = svc->evict(ctx, t->id, t->tier1_bytes, 0);
		y = svc->promote_missing(ctx, t->id, 0);
		if (x < 0 || y < 0)
			return DLASIM_ERR;
		demoted += x;
		taken_back += y;
		if (t->tier1_bytes != t->bytes || t->moving_bytes != 0)
			mismatches++;
	}
	return DLASIM_OK;
}

static void fini(void *state)
{
	FILE *f = fopen(out, "w");

	if (f) {
		fprintf(f, "%.17g %.17g %d\n", demoted, taken_back, mismatches);
		fclose(f);
	}
	free(done);
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_VERTICAL,
	.prepare = prepare,
	.setup = setup,
	.flags = DLASIM_TIER_OFFLINE,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "takeback",
	.description = "test: demotes the next op's operands and takes them back at once",
	.init = init,
	.fini = fini,
	.ops = &ops,
};
