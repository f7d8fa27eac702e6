/* SPDX-License-Identifier: MIT */
/*
 * redu: hardware redo logging with a DRAM cache (ReDU, Jeong et al.,
 * MICRO 2018, as the dissertation's Chapter 4 baseline).  Start here: the
 * smallest complete persist plugin.
 *
 * Every line goes to the log queue and its redo entry is written at once
 * ("REDU can immediately initiate log requests as soon as they arrive").
 * When an entry persists the host moves the line to the DRAM cache and
 * frees its log-queue entry.  The transaction commits when it has ended
 * and all its entries and record headers are durable; the host then
 * writes its lines in place in the background.  Option blom=1 keeps the
 * record headers in the ADR (BLOM, dissertation section 4.4).
 */
#include <stdio.h>
#include <stdlib.h>

#include <dlasim/persist.h>

static const struct dlasim_persist_services *pm;

struct redu {
	unsigned features;
};

static int redu_on_write(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k)
{
	if (pm->used(ctx, DLASIM_PM_LOGQ, -1) >= pm->capacity(ctx, DLASIM_PM_LOGQ))
		return DLASIM_PM_WAIT;	/* the core stalls until an entry persists */
	if (pm->place(ctx, tx, k, DLASIM_PM_LOGQ))
		return DLASIM_ERR;
	return pm->log(ctx, tx, k, DLASIM_PM_REDO);
}

/* Commit as soon as the host would accept it: ended, every entry durable. */
static int redu_try_commit(struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx)
{
	return dlasim_pm_can_commit(tx) ? pm->commit(ctx, tx) : DLASIM_OK;
}

static int redu_on_tx_end(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx)
{
	return redu_try_commit(ctx, tx);
}

static int redu_on_done(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k,
			enum dlasim_pm_event ev)
{
	return ev == DLASIM_PM_EV_DURABLE ? redu_try_commit(ctx, tx) : DLASIM_OK;
}

static unsigned redu_features(void *st)
{
	return ((struct redu *)st)->features;
}

static int redu_init(const struct dlasim_host_api *host, const char *options, void **state,
		     char *err, size_t errlen)
{
	struct redu *s;

	if (!(pm = dlasim_pm_services(host, err, errlen)))
		return DLASIM_ERR;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return DLASIM_ERR;
	}
	s->features = DLASIM_PM_USES_LOGQ | DLASIM_PM_DRAM_CACHE;
	if (dlasim_pm_options(host, options, &s->features, NULL, NULL, NULL, "blom", err, errlen)) {
		free(s);
		return DLASIM_ERR;
	}
	*state = s;
	return DLASIM_OK;
}

static void redu_fini(void *st)
{
	free(st);
}

static const struct dlasim_pm_ops redu_ops = {
	.size = sizeof(struct dlasim_pm_ops),
	.features = redu_features,
	.on_write = redu_on_write,
	.on_tx_end = redu_on_tx_end,
	.on_done = redu_on_done,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PERSIST,
	.ops_version = DLASIM_PERSIST_OPS_VERSION,
	.name = "redu",
	.description = "REDU: every line redo-logged at once, DRAM cache, commit when the log is durable",
	.init = redu_init,
	.fini = redu_fini,
	.ops = &redu_ops,
};
