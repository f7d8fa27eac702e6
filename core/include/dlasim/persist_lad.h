/* SPDX-License-Identifier: MIT */
/*
 * LAD's policy (Gupta et al., MICRO 2019, as the off-chip memory
 * dissertation evaluates it with one memory controller), for persist
 * plugins built on it: plugins/persist/lad.c logs with undo entries,
 * lad_rdlog.c with redo entries and a DRAM cache.
 *
 * Every transaction's lines collect in the ADR, not drainable.  At tx_end
 * they become flushable and the transaction commits at once: the ADR is
 * in the persistence domain.  When a line would bring the ADR's lines of
 * uncommitted transactions above `threshold` of its entries, the
 * transaction writing it becomes a log-transaction (fallback=trigger; or
 * every transaction holding ADR lines, fallback=all): its ADR lines are
 * logged at once (one batch of records) and so is every later line.
 * When a line finds the ADR depleted (no free entry), its transaction
 * falls back in the same way and the line waits for its log entry in the
 * log queue of the logging hardware instead of the ADR (depleted=log, the
 * default: "when the ADR buffer overflows, LAD falls back to hardware
 * logging", dissertation sections 1.2, 2.1.4, 4.5.2); with depleted=stall
 * the core stalls until an ADR entry frees.  A line waits only when the
 * log queue is full too.
 *   undo: read the old value, write the entry; once the entry and its
 *         record header persist, write the line in place; the transaction
 *         commits when all its lines are home;
 *   redo: write the entry (the line then leaves the ADR for the DRAM
 *         cache); the transaction commits when all entries and headers
 *         are durable and is written in place afterwards.
 * Options: threshold=F (0.8), fallback=trigger|all, depleted=log|stall,
 * blom=0|1.
 */
#ifndef DLASIM_PERSIST_LAD_H
#define DLASIM_PERSIST_LAD_H

#include <stdlib.h>

#include <dlasim/persist.h>

struct dlasim_lad {
	enum dlasim_pm_log kind;
	unsigned features;
	double threshold;
	bool fallback_all;
	long log_tx[DLASIM_PM_MAX_CORES];	/* id of the core's log-transaction */
	bool depleted_stall;	/* on a full ADR the core stalls, no fallback */
};

static const struct dlasim_persist_services *dlasim_lad_svc;

static bool dlasim_lad_is_log(const struct dlasim_lad *s, const struct dlasim_pm_tx *tx)
{
	return s->log_tx[tx->core] == tx->id;
}

/* `tx` becomes a log-transaction: log its lines in the ADR as one batch. */
static int dlasim_lad_fall_back(struct dlasim_lad *s, struct dlasim_pm_ctx *ctx,
				const struct dlasim_pm_tx *tx)
{
	const struct dlasim_persist_services *pm = dlasim_lad_svc;

	s->log_tx[tx->core] = tx->id;
	for (int k = 0; k < tx->lines; k++) {
		const struct dlasim_pm_line *l = pm->line(ctx, tx, k);

		if (l->place == DLASIM_PM_ADR && l->log_state == DLASIM_PM_LOG_NONE &&
		    pm->log(ctx, tx, k, s->kind))
			return DLASIM_ERR;
	}
	return pm->close_record(ctx, tx);
}

/* `tx` (and with fallback=all every transaction holding ADR lines) falls
 * back to logging. */
static int dlasim_lad_fall_back_all(struct dlasim_lad *s, struct dlasim_pm_ctx *ctx,
				    const struct dlasim_pm_tx *tx)
{
	const struct dlasim_persist_services *pm = dlasim_lad_svc;

	for (int c = 0; s->fallback_all && c < pm->cores(ctx); c++) {
		const struct dlasim_pm_tx *t = pm->tx_on(ctx, c);

		if (t && t != tx && t->in[DLASIM_PM_ADR] && !dlasim_lad_is_log(s, t) &&
		    dlasim_lad_fall_back(s, ctx, t))
			return DLASIM_ERR;
	}
	return dlasim_lad_is_log(s, tx) ? DLASIM_OK : dlasim_lad_fall_back(s, ctx, tx);
}

/* The ADR is depleted: log the line from the log queue, or stall. */
static int dlasim_lad_on_depleted(struct dlasim_lad *s, struct dlasim_pm_ctx *ctx,
				  const struct dlasim_pm_tx *tx, int k)
{
	const struct dlasim_persist_services *pm = dlasim_lad_svc;

	if (s->depleted_stall ||
	    pm->used(ctx, DLASIM_PM_LOGQ, -1) >= pm->capacity(ctx, DLASIM_PM_LOGQ))
		return DLASIM_PM_WAIT;
	if (dlasim_lad_fall_back_all(s, ctx, tx) || pm->place(ctx, tx, k, DLASIM_PM_LOGQ))
		return DLASIM_ERR;
	return pm->log(ctx, tx, k, s->kind);
}

static int dlasim_lad_on_write(void *st, struct dlasim_pm_ctx *ctx,
			       const struct dlasim_pm_tx *tx, int k)
{
	const struct dlasim_persist_services *pm = dlasim_lad_svc;
	struct dlasim_lad *s = st;
	int adr = pm->capacity(ctx, DLASIM_PM_ADR);

	if (!dlasim_lad_is_log(s, tx) && pm->speculative(ctx) + 1 > s->threshold * adr &&
	    dlasim_lad_fall_back_all(s, ctx, tx))
		return DLASIM_ERR;
	if (pm->used(ctx, DLASIM_PM_ADR, -1) >= adr)
		return dlasim_lad_on_depleted(s, ctx, tx, k);
	if (pm->place(ctx, tx, k, DLASIM_PM_ADR))
		return DLASIM_ERR;
	return dlasim_lad_is_log(s, tx) ? pm->log(ctx, tx, k, s->kind) : DLASIM_OK;
}

static int dlasim_lad_try_commit(struct dlasim_lad *s, struct dlasim_pm_ctx *ctx,
				 const struct dlasim_pm_tx *tx)
{
	/* Undo: only once every line is home. */
	if (!dlasim_pm_can_commit(tx) ||
	    (s->kind == DLASIM_PM_UNDO && tx->in[DLASIM_PM_HOME] != tx->lines))
		return DLASIM_OK;
	return dlasim_lad_svc->commit(ctx, tx);
}

static int dlasim_lad_on_tx_end(void *st, struct dlasim_pm_ctx *ctx,
				const struct dlasim_pm_tx *tx)
{
	struct dlasim_lad *s = st;

	if (!dlasim_lad_is_log(s, tx))
		return dlasim_lad_svc->commit(ctx, tx);
	return dlasim_lad_try_commit(s, ctx, tx);
}

static int dlasim_lad_on_done(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx,
			      int k, enum dlasim_pm_event ev)
{
	struct dlasim_lad *s = st;

	if (ev == DLASIM_PM_EV_DURABLE && s->kind == DLASIM_PM_UNDO && !tx->committed)
		return dlasim_lad_svc->home_write(ctx, tx, k);
	return dlasim_lad_try_commit(s, ctx, tx);
}

static unsigned dlasim_lad_features(void *st)
{
	return ((struct dlasim_lad *)st)->features;
}

static void dlasim_lad_fini(void *st)
{
	free(st);
}

static int dlasim_lad_option(const struct dlasim_host_api *host, const char *key,
			     const char *value, void *arg, char *err, size_t errlen)
{
	struct dlasim_lad *s = arg;

	if (strcmp(key, "threshold") == 0) {
		if (host->parse_number(value, 0, &s->threshold) || s->threshold > 1) {
			snprintf(err, errlen, "threshold=%s: not a number in [0, 1]", value);
			return -1;
		}
		return 1;
	}
	if (strcmp(key, "fallback") == 0) {
		if (strcmp(value, "trigger") && strcmp(value, "all")) {
			snprintf(err, errlen, "fallback=%s: not trigger or all", value);
			return -1;
		}
		s->fallback_all = value[0] == 'a';
		return 1;
	}
	if (strcmp(key, "depleted") == 0) {
		if (strcmp(value, "log") && strcmp(value, "stall")) {
			snprintf(err, errlen, "depleted=%s: not log or stall", value);
			return -1;
		}
		s->depleted_stall = value[0] == 's';
		return 1;
	}
	return 0;
}

/* init() of a LAD plugin logging with `kind`. */
static int dlasim_lad_init(const struct dlasim_host_api *host, const char *options, void **state,
			   char *err, size_t errlen, enum dlasim_pm_log kind)
{
	struct dlasim_lad *s;

	if (!(dlasim_lad_svc = dlasim_pm_services(host, err, errlen)))
		return DLASIM_ERR;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return DLASIM_ERR;
	}
	s->kind = kind;
	s->threshold = 0.8;	/* "more than 80 %" of the ADR (dissertation, section 3.3) */
	s->features = kind == DLASIM_PM_REDO ? DLASIM_PM_DRAM_CACHE : 0;
	for (int c = 0; c < DLASIM_PM_MAX_CORES; c++)
		s->log_tx[c] = -1;
	if (dlasim_pm_options(host, options, &s->features, NULL, dlasim_lad_option, s,
			      "threshold, fallback, depleted, blom", err, errlen)) {
		free(s);
		return DLASIM_ERR;
	}
	/* The fallback on depletion logs from the log queue. */
	if (!s->depleted_stall)
		s->features |= DLASIM_PM_USES_LOGQ;
	*state = s;
	return DLASIM_OK;
}

static const struct dlasim_pm_ops dlasim_lad_ops = {
	.size = sizeof(struct dlasim_pm_ops),
	.features = dlasim_lad_features,
	.on_write = dlasim_lad_on_write,
	.on_tx_end = dlasim_lad_on_tx_end,
	.on_done = dlasim_lad_on_done,
};

#endif /* DLASIM_PERSIST_LAD_H */
