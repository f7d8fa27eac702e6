/* SPDX-License-Identifier: MIT */
/*
 * vadr: virtual ADR buffers with redo logging and a DRAM cache
 * (VADR-RdLog, dissertation section 3.4, Figure 3.5).
 *
 * Each core writes into its own virtual ADR, as large as the ADR.  A
 * transaction that overflows it becomes a log-transaction: its lines there
 * and all later ones are redo-logged from it, and it commits when its log
 * is durable.  Any other transaction ends with all its lines in its
 * virtual ADR and waits for admission: when the ADR has as many free
 * entries as it has lines, they all move there and it commits at once.
 * Only such logless transactions ever use the ADR.  Admission is first
 * come first served (admission=fcfs) or smallest write set first
 * (admission=mudf); the first in that order waits until it fits.  Under
 * MUDF a transaction overtaken as many times as there are cores goes
 * first, so that small ones cannot starve a large one.
 * Options: admission=fcfs|mudf, blom=0|1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/persist.h>

static const struct dlasim_persist_services *pm;

struct vadr {
	unsigned features;
	bool mudf;
	long log_tx[DLASIM_PM_MAX_CORES];	/* id of the core's log-transaction */
	int queue[DLASIM_PM_MAX_CORES];		/* cores waiting, in tx_end order */
	int passed[DLASIM_PM_MAX_CORES];	/* times each was overtaken */
	int nq;
};

static bool is_log(const struct vadr *s, const struct dlasim_pm_tx *tx)
{
	return s->log_tx[tx->core] == tx->id;
}

static int vadr_on_write(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k)
{
	struct vadr *s = st;
	int room = pm->capacity(ctx, DLASIM_PM_VBUF) - pm->used(ctx, DLASIM_PM_VBUF, tx->core);

	if (room > 0) {
		if (pm->place(ctx, tx, k, DLASIM_PM_VBUF))
			return DLASIM_ERR;
		return is_log(s, tx) ? pm->log(ctx, tx, k, DLASIM_PM_REDO) : DLASIM_OK;
	}
	if (!is_log(s, tx)) {
		/* Overflow: log what it holds; this line waits for an entry. */
		s->log_tx[tx->core] = tx->id;
		for (int j = 0; j < k; j++)
			if (pm->line(ctx, tx, j)->log_state == DLASIM_PM_LOG_NONE &&
			    pm->log(ctx, tx, j, DLASIM_PM_REDO))
				return DLASIM_ERR;
	}
	return DLASIM_PM_WAIT;
}

/* The next transaction to admit: the queue's head; under MUDF the one
 * with the fewest lines (the earliest of those), unless one was overtaken
 * too often. */
static int next_in_queue(struct vadr *s, struct dlasim_pm_ctx *ctx)
{
	int best = 0;

	if (!s->mudf)
		return 0;
	for (int i = 0; i < s->nq; i++)
		if (s->passed[i] >= pm->cores(ctx))
			return i;
	for (int i = 1; i < s->nq; i++)
		if (pm->tx_on(ctx, s->queue[i])->lines < pm->tx_on(ctx, s->queue[best])->lines)
			best = i;
	return best;
}

static int admit(struct vadr *s, struct dlasim_pm_ctx *ctx)
{
	while (s->nq) {
		int i = next_in_queue(s, ctx);
		const struct dlasim_pm_tx *tx = pm->tx_on(ctx, s->queue[i]);
		int free_adr = pm->capacity(ctx, DLASIM_PM_ADR) - pm->used(ctx, DLASIM_PM_ADR, -1);

		if (tx->lines > free_adr)
			return DLASIM_OK;
		for (int k = 0; k < tx->lines; k++)
			if (pm->place(ctx, tx, k, DLASIM_PM_ADR))
				return DLASIM_ERR;
		for (int j = 0; j < i; j++)
			s->passed[j]++;
		for (s->nq--; i < s->nq; i++) {
			s->queue[i] = s->queue[i + 1];
			s->passed[i] = s->passed[i + 1];
		}
		if (pm->commit(ctx, tx))
			return DLASIM_ERR;
	}
	return DLASIM_OK;
}

static int vadr_on_tx_end(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx)
{
	struct vadr *s = st;

	if (is_log(s, tx))
		return dlasim_pm_can_commit(tx) ? pm->commit(ctx, tx) : DLASIM_OK;
	s->passed[s->nq] = 0;
	s->queue[s->nq++] = tx->core;
	return admit(s, ctx);
}

static int vadr_on_done(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k,
			enum dlasim_pm_event ev)
{
	if (ev == DLASIM_PM_EV_DURABLE && dlasim_pm_can_commit(tx))
		return pm->commit(ctx, tx);
	return DLASIM_OK;
}

static int vadr_on_space(void *st, struct dlasim_pm_ctx *ctx)
{
	return admit(st, ctx);
}

static unsigned vadr_features(void *st)
{
	return ((struct vadr *)st)->features;
}

static int vadr_option(const struct dlasim_host_api *host, const char *key, const char *value,
		       void *arg, char *err, size_t errlen)
{
	struct vadr *s = arg;

	if (strcmp(key, "admission"))
		return 0;
	if (strcmp(value, "fcfs") && strcmp(value, "mudf")) {
		snprintf(err, errlen, "admission=%s: not fcfs or mudf", value);
		return -1;
	}
	s->mudf = value[0] == 'm';
	return 1;
}

static int vadr_init(const struct dlasim_host_api *host, const char *options, void **state,
		     char *err, size_t errlen)
{
	struct vadr *s;

	if (!(pm = dlasim_pm_services(host, err, errlen)))
		return DLASIM_ERR;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return DLASIM_ERR;
	}
	s->features = DLASIM_PM_USES_VBUF | DLASIM_PM_DRAM_CACHE;
	for (int c = 0; c < DLASIM_PM_MAX_CORES; c++)
		s->log_tx[c] = -1;
	if (dlasim_pm_options(host, options, &s->features, NULL, vadr_option, s, "admission, blom",
			      err, errlen)) {
		free(s);
		return DLASIM_ERR;
	}
	*state = s;
	return DLASIM_OK;
}

static void vadr_fini(void *st)
{
	free(st);
}

static const struct dlasim_pm_ops vadr_ops = {
	.size = sizeof(struct dlasim_pm_ops),
	.features = vadr_features,
	.on_write = vadr_on_write,
	.on_tx_end = vadr_on_tx_end,
	.on_done = vadr_on_done,
	.on_space = vadr_on_space,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PERSIST,
	.ops_version = DLASIM_PERSIST_OPS_VERSION,
	.name = "vadr",
	.description = "VADR-RdLog: a virtual ADR per core, logless transactions admitted whole to the ADR",
	.init = vadr_init,
	.fini = vadr_fini,
	.ops = &vadr_ops,
};
