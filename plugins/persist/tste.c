/* SPDX-License-Identifier: MIT */
/*
 * tste: two-stage transaction execution with redo logging and a DRAM cache
 * (TSTE-RdLog, dissertation section 3.3, Figures 3.3 and 3.4).
 *
 * While no transaction owns the ADR, transactions share it as under LAD.
 * When it overflows, the oldest transaction with lines in it becomes the
 * priority transaction: its lines stay; the others' lines move to the
 * staging buffer and are redo-logged (case a), and so is every later line
 * of theirs and of transactions that start meanwhile (case b).  At most
 * `logpar` log entries of one transaction are in flight; the rest of its
 * staged lines wait ("pending").  When an ADR entry frees, the oldest
 * ended non-priority transaction whose pending lines fit in the free ADR
 * entries is promoted: its pending lines move to the ADR unlogged, and it
 * commits once its issued entries are durable (case c).  If the priority
 * transaction itself fills the ADR, its remaining lines are staged and
 * logged; it commits when they are durable (first stage), then its ADR
 * lines drain (second stage, case d).  A transaction whose lines all sit
 * in the ADR commits at tx_end.  The priority role ends at its commit.
 * That is Figure 3.4's reading (priority=figure, the default): its initial
 * state has two transactions sharing the ADR.  Section 3.3's text gives
 * another rule (priority=text): a transaction whose first line reaches an
 * empty ADR becomes the priority one; while the ADR holds lines of a
 * priority or secondary transaction every newcomer is non-priority, so
 * the role lasts while its lines are in the ADR.
 * Options: logpar=N (8), priority=figure|text, blom=0|1.
 */
#include <stdio.h>
#include <stdlib.h>

#include <dlasim/persist.h>

static const struct dlasim_persist_services *pm;

enum role { SHARED = 0, PRIORITY, NONPRIO, SECONDARY };

struct tste {
	unsigned features;
	int logpar;
	long id[DLASIM_PM_MAX_CORES];		/* the transaction role[] is of */
	enum role role[DLASIM_PM_MAX_CORES];
	int priority;				/* its core, -1 none */
	int secondaries;
	bool text_rule;				/* priority=text */
};

static enum role role_of(const struct tste *s, const struct dlasim_pm_tx *tx)
{
	return s->id[tx->core] == tx->id ? s->role[tx->core] : SHARED;
}

static void set_role(struct tste *s, const struct dlasim_pm_tx *tx, enum role r)
{
	s->id[tx->core] = tx->id;
	s->role[tx->core] = r;
	if (r == PRIORITY)
		s->priority = tx->core;
	if (r == SECONDARY)
		s->secondaries++;
}

static int room(struct dlasim_pm_ctx *ctx, enum dlasim_pm_place where)
{
	return pm->capacity(ctx, where) - pm->used(ctx, where, -1);
}

static bool pending(struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k)
{
	const struct dlasim_pm_line *l = pm->line(ctx, tx, k);

	return l->place == DLASIM_PM_STAGE && l->log_state == DLASIM_PM_LOG_NONE;
}

/* Log staged lines, oldest first, while fewer than logpar are in flight. */
static int issue_logs(struct tste *s, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx)
{
	for (int k = 0; k < tx->lines && (!s->logpar || tx->logs_inflight < s->logpar); k++)
		if (pending(ctx, tx, k) && pm->log(ctx, tx, k, DLASIM_PM_REDO))
			return DLASIM_ERR;
	return DLASIM_OK;
}

static int stage(struct tste *s, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k)
{
	if (room(ctx, DLASIM_PM_STAGE) < 1)
		return DLASIM_PM_WAIT;
	if (pm->place(ctx, tx, k, DLASIM_PM_STAGE))
		return DLASIM_ERR;
	return issue_logs(s, ctx, tx);
}

static int try_commit(struct tste *s, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx)
{
	enum role r = role_of(s, tx);

	if (!dlasim_pm_can_commit(tx))
		return DLASIM_OK;
	if (r == PRIORITY)
		s->priority = -1;
	if (r == SECONDARY)
		s->secondaries--;
	s->id[tx->core] = -1;
	return pm->commit(ctx, tx);
}

/* Case a: a non-priority transaction's ADR lines move to staging (as far
 * as it has room) and are logged. */
static int migrate(struct tste *s, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx)
{
	set_role(s, tx, NONPRIO);
	for (int k = 0; k < tx->lines && room(ctx, DLASIM_PM_STAGE) > 0; k++) {
		const struct dlasim_pm_line *l = pm->line(ctx, tx, k);

		if (l->place == DLASIM_PM_ADR && pm->place(ctx, tx, k, DLASIM_PM_STAGE))
			return DLASIM_ERR;
	}
	return issue_logs(s, ctx, tx);
}

/* The ADR overflowed while shared: the oldest transaction with lines in it
 * becomes the priority one, the others migrate.  False if none has any. */
static int pick_priority(struct tste *s, struct dlasim_pm_ctx *ctx)
{
	const struct dlasim_pm_tx *p = NULL;

	for (int c = 0; c < pm->cores(ctx); c++) {
		const struct dlasim_pm_tx *t = pm->tx_on(ctx, c);

		if (t && role_of(s, t) == SHARED && t->in[DLASIM_PM_ADR] && (!p || t->id < p->id))
			p = t;
	}
	if (!p)
		return 0;
	set_role(s, p, PRIORITY);
	for (int c = 0; c < pm->cores(ctx); c++) {
		const struct dlasim_pm_tx *t = pm->tx_on(ctx, c);

		if (t && t != p && role_of(s, t) == SHARED && t->in[DLASIM_PM_ADR] &&
		    migrate(s, ctx, t))
			return DLASIM_ERR;
	}
	return 1;
}

/* Section 3.3's rule for a transaction's first line: an empty ADR makes
 * it the priority transaction; otherwise the ADR holds lines of the
 * priority or a secondary transaction (only those enter it), and it is
 * non-priority.  The role lasts while its lines are in the ADR. */
static int text_rule(struct tste *s, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx,
		     int k)
{
	if (s->priority < 0 && !s->secondaries && pm->used(ctx, DLASIM_PM_ADR, -1) == 0) {
		set_role(s, tx, PRIORITY);
		return pm->place(ctx, tx, k, DLASIM_PM_ADR);
	}
	set_role(s, tx, NONPRIO);
	return stage(s, ctx, tx, k);
}

static int tste_on_write(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k)
{
	struct tste *s = st;
	int picked;

	switch (role_of(s, tx)) {
	case NONPRIO:
		return stage(s, ctx, tx, k);
	case PRIORITY:
		if (room(ctx, DLASIM_PM_ADR) < 1)
			return stage(s, ctx, tx, k);	/* case d */
		return pm->place(ctx, tx, k, DLASIM_PM_ADR);
	case SECONDARY:
		return DLASIM_ERR;	/* ended: no more lines */
	default:
		break;
	}
	if (s->text_rule)
		return text_rule(s, ctx, tx, k);
	/* The ADR is owned: a newcomer is non-priority (case b). */
	if ((s->priority >= 0 || s->secondaries) && !tx->in[DLASIM_PM_ADR]) {
		set_role(s, tx, NONPRIO);
		return stage(s, ctx, tx, k);
	}
	if (room(ctx, DLASIM_PM_ADR) > 0)
		return pm->place(ctx, tx, k, DLASIM_PM_ADR);
	picked = pick_priority(s, ctx);
	if (picked < 0)
		return DLASIM_ERR;
	if (!picked)
		return DLASIM_PM_WAIT;	/* full of lines draining: they free soon */
	return tste_on_write(st, ctx, tx, k);
}

/* Case c: promote the oldest ended non-priority transaction whose pending
 * lines fit in the free ADR entries. */
static int try_promote(struct tste *s, struct dlasim_pm_ctx *ctx)
{
	const struct dlasim_pm_tx *best = NULL;
	int free_adr = room(ctx, DLASIM_PM_ADR);

	for (int c = 0; c < pm->cores(ctx); c++) {
		const struct dlasim_pm_tx *t = pm->tx_on(ctx, c);
		int n = 0;

		if (!t || !t->ended || role_of(s, t) != NONPRIO || (best && best->id < t->id))
			continue;
		for (int k = 0; k < t->lines; k++)
			n += pending(ctx, t, k);
		if (n > 0 && n <= free_adr)
			best = t;
	}
	if (!best)
		return DLASIM_OK;
	for (int k = 0; k < best->lines; k++)
		if (pending(ctx, best, k) && pm->place(ctx, best, k, DLASIM_PM_ADR))
			return DLASIM_ERR;
	set_role(s, best, SECONDARY);
	return try_commit(s, ctx, best);
}

static int tste_on_tx_end(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx)
{
	struct tste *s = st;

	if (role_of(s, tx) == NONPRIO && try_promote(s, ctx))
		return DLASIM_ERR;
	return try_commit(s, ctx, tx);
}

static int tste_on_done(void *st, struct dlasim_pm_ctx *ctx, const struct dlasim_pm_tx *tx, int k,
			enum dlasim_pm_event ev)
{
	struct tste *s = st;

	if (tx->committed)
		return DLASIM_OK;
	if (ev == DLASIM_PM_EV_LOGGED)
		return issue_logs(s, ctx, tx);
	return try_commit(s, ctx, tx);
}

static int tste_on_space(void *st, struct dlasim_pm_ctx *ctx)
{
	return try_promote(st, ctx);
}

static unsigned tste_features(void *st)
{
	return ((struct tste *)st)->features;
}

static int tste_option(const struct dlasim_host_api *host, const char *key, const char *value,
		       void *arg, char *err, size_t errlen)
{
	struct tste *s = arg;

	if (strcmp(key, "priority"))
		return 0;
	if (strcmp(value, "figure") && strcmp(value, "text")) {
		snprintf(err, errlen, "priority=%s: not figure or text", value);
		return -1;
	}
	s->text_rule = value[0] == 't';
	return 1;
}

static int tste_init(const struct dlasim_host_api *host, const char *options, void **state,
		     char *err, size_t errlen)
{
	struct tste *s;

	if (!(pm = dlasim_pm_services(host, err, errlen)))
		return DLASIM_ERR;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return DLASIM_ERR;
	}
	s->features = DLASIM_PM_USES_STAGE | DLASIM_PM_DRAM_CACHE;
	s->logpar = 8;		/* "we limit the maximal log parallelism to 8" (3.6.1) */
	s->priority = -1;
	for (int c = 0; c < DLASIM_PM_MAX_CORES; c++)
		s->id[c] = -1;
	if (dlasim_pm_options(host, options, &s->features, &s->logpar, tste_option, s,
			      "logpar, priority, blom", err, errlen)) {
		free(s);
		return DLASIM_ERR;
	}
	*state = s;
	return DLASIM_OK;
}

static void tste_fini(void *st)
{
	free(st);
}

static const struct dlasim_pm_ops tste_ops = {
	.size = sizeof(struct dlasim_pm_ops),
	.features = tste_features,
	.on_write = tste_on_write,
	.on_tx_end = tste_on_tx_end,
	.on_done = tste_on_done,
	.on_space = tste_on_space,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_PERSIST,
	.ops_version = DLASIM_PERSIST_OPS_VERSION,
	.name = "tste",
	.description = "TSTE-RdLog: the ADR for a priority transaction, staged redo logging for the others",
	.init = tste_init,
	.fini = tste_fini,
	.ops = &tste_ops,
};
