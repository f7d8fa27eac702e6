/* SPDX-License-Identifier: MIT */
/*
 * A first-in first-out tier plugin written with the hooks of the appended
 * ABI: setup() sizes its bookkeeping, victim() walks tier 1 with
 * tier1_next() for the data placed first, evicted() hears of the host's
 * evictions, op_done() adds up what each op cost.  At fini() it writes
 * what it saw to the file of its option out=PATH, for test/cli/tier.sh to
 * compare with the run's totals:
 *   setup_calls ops_done energy_j promoted_bytes demoted_bytes
 *   evicted_bytes stall_s prepares_before_setup tier1_overflow
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/tier.h>

static const struct dlasim_tier_services *svc;
static char out[512];
static double *placed_at;	/* per tensor: order it was placed in */
static double order, energy, promoted, demoted, evicted_bytes, stall;
static int setups, done, early, overflow;

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	*state = NULL;
	svc = host->tier;
	if (!svc || !DLASIM_HAS_MEMBER(svc, struct dlasim_tier_services, use_timing))
		return dlasim_tier_refuse(err, errlen, "needs tier1_next() and use_timing()");
	if (!options || strncmp(options, "out=", 4) != 0)
		return dlasim_tier_refuse(err, errlen, "needs out=PATH");
	snprintf(out, sizeof(out), "%s", options + 4);
	return DLASIM_OK;
}

static int setup(void *state, struct dlasim_tier_ctx *ctx)
{
	setups++;
	placed_at = calloc((size_t)svc->tensor_count(ctx), sizeof(double));
	return placed_at ? DLASIM_OK : DLASIM_ERR;
}

static double place(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_tensor *t)
{
	if (placed_at)
		placed_at[t->id] = ++order;
	return 1;
}

/* What tier 1 holds never exceeds its capacity. */
static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	int cursor = 0, id;
	double held = 0;

	if (!placed_at)
		early++;
	while ((id = svc->tier1_next(ctx, &cursor)) >= 0)
		held += svc->tensor(ctx, id)->tier1_bytes;
	if (held > svc->system(ctx)->tier1_capacity_bytes * (1 + 1e-9))
		overflow++;
	return DLASIM_OK;
}

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	int cursor = 0, id, best = -1;

	while ((id = svc->tier1_next(ctx, &cursor)) >= 0)
		if (svc->evictable(ctx, id) && (best < 0 || placed_at[id] < placed_at[best]))
			best = id;
	return best;
}

static void evicted(void *state, struct dlasim_tier_ctx *ctx, int tensor, double bytes)
{
	evicted_bytes += bytes;
}

static void op_done(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op,
		    const struct dlasim_tier_feedback *fb)
{
	done++;
	energy += fb->energy_j;
	promoted += fb->promoted_bytes;
	demoted += fb->demoted_bytes;
	stall += fb->stall_s;
}

static void fini(void *state)
{
	FILE *f = fopen(out, "w");

	if (f) {
		fprintf(f, "%d %d %.17g %.17g %.17g %.17g %.17g %d %d\n", setups, done, energy,
			promoted, demoted, evicted_bytes, stall, early, overflow);
		fclose(f);
	}
	free(placed_at);
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HORIZONTAL,
	.place = place,
	.prepare = prepare,
	.victim = victim,
	.setup = setup,
	.evicted = evicted,
	.op_done = op_done,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "fifo",
	.description = "first in, first out, written with the setup, tier-1, eviction and feedback hooks",
	.init = init,
	.fini = fini,
	.ops = &ops,
};
