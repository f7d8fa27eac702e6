/* SPDX-License-Identifier: MIT */
/*
 * An online tier plugin (no DLASIM_TIER_OFFLINE) that calls the oracle
 * service named by its option (next_use, belady_victim, evictable_after,
 * window, best_io_tiers, op_ahead, oracle_ratio) in prepare(), or reads
 * the MXU time of the op it prepares (compute) into the file of out=PATH:
 * in online-only mode the oracle services must stop the run, and the MXU
 * time reads as measured.
 */
#include <stdio.h>
#include <string.h>

#include <dlasim/tier.h>

static const struct dlasim_tier_services *svc;
static char what[64], out[512];
static int ops_seen, unmeasured;

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	const char *comma;

	*state = NULL;
	svc = host->tier;
	if (!svc || !options)
		return dlasim_tier_refuse(err, errlen, "needs an oracle to call");
	comma = strchr(options, ',');
	snprintf(what, sizeof(what), "%.*s", comma ? (int)(comma - options) : (int)strlen(options),
		 options);
	if (comma && strncmp(comma + 1, "out=", 4) == 0)
		snprintf(out, sizeof(out), "%s", comma + 5);
	return DLASIM_OK;
}

static int prepare(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op)
{
	double a, b;
	bool x, y;

	ops_seen++;
	if (strcmp(what, "compute") == 0)
		unmeasured += op->compute_s < 0;
	else if (strcmp(what, "next_use") == 0)
		svc->next_use(ctx, 0, op->index);
	else if (strcmp(what, "belady_victim") == 0)
		svc->belady_victim(ctx, 0);
	else if (strcmp(what, "evictable_after") == 0)
		svc->evictable_after(ctx, op->index);
	else if (strcmp(what, "window") == 0)
		svc->window(ctx, op->index);
	else if (strcmp(what, "best_io_tiers") == 0)
		svc->best_io_tiers(ctx, op->index, &x, &y);
	else if (strcmp(what, "op_ahead") == 0 && op->index + 1 < svc->op_count(ctx))
		svc->op(ctx, op->index + 1);
	else if (strcmp(what, "oracle_ratio") == 0 && op->noutputs > 0)
		svc->split_ratio(ctx, op->outputs[0], DLASIM_TIER_ORACLE);
	else if (strcmp(what, "fetch_time") == 0)
		svc->fetch_time(ctx, op->index, &a, &b);	/* the present: allowed */
	return DLASIM_OK;
}

static void fini(void *state)
{
	FILE *f = *out ? fopen(out, "w") : NULL;

	if (f) {
		fprintf(f, "%d %d\n", ops_seen, unmeasured);
		fclose(f);
	}
}

static const struct dlasim_tier_ops ops = {
	.size = sizeof(ops),
	.arrangement = DLASIM_TIER_HORIZONTAL,
	.prepare = prepare,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_TIER_PLACEMENT,
	.ops_version = DLASIM_TIER_OPS_VERSION,
	.name = "peeks",
	.description = "an online policy that calls an oracle service",
	.init = init,
	.fini = fini,
	.ops = &ops,
};
