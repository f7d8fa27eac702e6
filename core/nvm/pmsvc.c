/* SPDX-License-Identifier: MIT */
/*
 * The services a persist plugin receives (host->persist): queries, and
 * requests checked against the crash-consistency invariants I1-I6
 * (<dlasim/persist.h>) before the controller carries them out.
 */
#include "pmsvc.h"

#include <stdbool.h>

#include "pmc.h"

static const char *const place_names[DLASIM_PM_PLACES] = {
	"no place", "the ADR", "the staging buffer", "the virtual ADR", "the log queue",
	"the DRAM cache", "home"
};

const char *pm_place_name(enum dlasim_pm_place p)
{
	return p >= 0 && p < DLASIM_PM_PLACES ? place_names[p] : "an unknown place";
}

static bool is_buffer(enum dlasim_pm_place p)
{
	return p == DLASIM_PM_ADR || p == DLASIM_PM_STAGE || p == DLASIM_PM_VBUF ||
	       p == DLASIM_PM_LOGQ;
}

/* The live transaction behind `t` and its line k, or a violation. */
static struct pm_line *line_of(struct dlasim_pm_ctx *c, const struct dlasim_pm_tx *t, int k,
			       const char *what, struct pm_tx **txp)
{
	struct pm_tx *tx = pmc_find_tx(c, t);

	*txp = tx;
	if (!tx) {
		pmc_violation(c, PMC_PERSIST, NULL, "%s(): not a transaction of this run", what);
		return NULL;
	}
	if (k < 0 || k >= tx->pub.lines) {
		pmc_violation(c, PMC_PERSIST, tx, "%s(): no line %d (it has %d so far)", what, k,
			      tx->pub.lines);
		return NULL;
	}
	return &tx->line[k];
}

/* ---- queries ---- */

static int q_cores(const struct dlasim_pm_ctx *c)
{
	return c->cores;
}

static int q_capacity(const struct dlasim_pm_ctx *c, enum dlasim_pm_place where)
{
	return is_buffer(where) ? c->cap[where] : 0;
}

static int q_used(const struct dlasim_pm_ctx *c, enum dlasim_pm_place where, int core)
{
	if (where == DLASIM_PM_VBUF)
		return core >= 0 && core < c->cores ? c->vbuf_used[core] : 0;
	if (where == DLASIM_PM_ADR)
		return c->used[where] + c->adr_headers;
	return is_buffer(where) ? c->used[where] : 0;
}

static int q_speculative(const struct dlasim_pm_ctx *c)
{
	return c->speculative;
}

static const struct dlasim_pm_tx *q_tx_on(const struct dlasim_pm_ctx *c, int core)
{
	return core >= 0 && core < c->cores && c->cur[core] ? &c->cur[core]->pub : NULL;
}

static const struct dlasim_pm_line *q_line(const struct dlasim_pm_ctx *c,
					   const struct dlasim_pm_tx *t, int k)
{
	struct pm_tx *tx = pmc_find_tx(c, t);

	return tx && k >= 0 && k < tx->pub.lines ? &tx->line[k].pub : NULL;
}

static int q_banks(const struct dlasim_pm_ctx *c)
{
	return c->env.banks;
}

static int q_bank_of(const struct dlasim_pm_ctx *c, long addr)
{
	return c->env.bank_of(c->env.arg, addr);
}

static int q_bank_pending(const struct dlasim_pm_ctx *c, int bank)
{
	return bank >= 0 && bank < c->env.banks ? c->env.bank_pending(c->env.arg, bank) : 0;
}

/* ---- requests ---- */

static int r_place(struct dlasim_pm_ctx *c, const struct dlasim_pm_tx *t, int k,
		   enum dlasim_pm_place to)
{
	struct pm_tx *tx;
	struct pm_line *l = line_of(c, t, k, "place", &tx);
	enum dlasim_pm_place from;

	if (!l)
		return DLASIM_ERR;
	from = l->pub.place;
	if (!is_buffer(to))
		return pmc_violation(c, PMC_PERSIST, tx, "place(): line %d to %s, which is not a buffer",
				     k, pm_place_name(to));
	if (!c->cap[to])
		return pmc_violation(c, PMC_PERSIST, tx,
				     "place(): line %d to %s, which this plugin's features() did not ask for",
				     k, pm_place_name(to));
	if (from == to)
		return DLASIM_OK;
	if (from != DLASIM_PM_NONE && !is_buffer(from))
		return pmc_violation(c, PMC_PERSIST, tx, "place(): line %d is already %s", k,
				     from == DLASIM_PM_HOME ? "home" : "in the DRAM cache");
	if (tx->pub.committed || l->pub.flushable)
		return pmc_violation(c, PMC_PERSIST, tx,
				     "place(): line %d of a committed transaction (I3)", k);
	if (l->pub.log_state != DLASIM_PM_LOG_NONE || l->pub.home_issued)
		return pmc_violation(c, PMC_PERSIST, tx,
				     "place(): line %d has its %s issued; it stays in %s", k,
				     l->pub.home_issued ? "in-place write" : "log entry",
				     pm_place_name(from));
	if (pmc_room(c, to, tx->pub.core) < 1)
		return pmc_violation(c, PMC_PERSIST, tx, "place(): line %d to %s, which is full (I5)",
				     k, pm_place_name(to));
	pmc_move(c, tx, k, to);
	return DLASIM_OK;
}

static int r_log(struct dlasim_pm_ctx *c, const struct dlasim_pm_tx *t, int k,
		 enum dlasim_pm_log kind)
{
	struct pm_tx *tx;
	struct pm_line *l = line_of(c, t, k, "log", &tx);

	if (!l)
		return DLASIM_ERR;
	if (kind != DLASIM_PM_UNDO && kind != DLASIM_PM_REDO)
		return pmc_violation(c, PMC_PERSIST, tx, "log(): line %d: kind %d is not undo or redo",
				     k, (int)kind);
	if (tx->pub.committed)
		return pmc_violation(c, PMC_PERSIST, tx, "log(): line %d after the commit", k);
	if (l->pub.log_state != DLASIM_PM_LOG_NONE)
		return pmc_violation(c, PMC_PERSIST, tx, "log(): line %d is logged already", k);
	if (!is_buffer(l->pub.place))
		return pmc_violation(c, PMC_PERSIST, tx,
				     "log(): line %d is %s; only a line in a buffer can be logged", k,
				     pm_place_name(l->pub.place));
	pmc_log(c, tx, k, kind);
	return c->violated ? DLASIM_ERR : DLASIM_OK;
}

static int r_close_record(struct dlasim_pm_ctx *c, const struct dlasim_pm_tx *t)
{
	struct pm_tx *tx = pmc_find_tx(c, t);

	if (!tx)
		return pmc_violation(c, PMC_PERSIST, NULL,
				     "close_record(): not a transaction of this run");
	pmc_close_record(c, tx);
	return c->violated ? DLASIM_ERR : DLASIM_OK;
}

static int r_home_write(struct dlasim_pm_ctx *c, const struct dlasim_pm_tx *t, int k)
{
	struct pm_tx *tx;
	struct pm_line *l = line_of(c, t, k, "home_write", &tx);

	if (!l)
		return DLASIM_ERR;
	if (tx->pub.committed)
		return pmc_violation(c, PMC_PERSIST, tx,
				     "home_write(): line %d of a committed transaction (the host writes those)",
				     k);
	if (l->pub.home_issued)
		return pmc_violation(c, PMC_PERSIST, tx, "home_write(): line %d a second time", k);
	if (l->pub.log == DLASIM_PM_REDO)
		return pmc_violation(c, PMC_PERSIST, tx,
				     "home_write(): redo-logged line %d in place before the commit (I2)",
				     k);
	if (l->pub.log != DLASIM_PM_UNDO || l->pub.log_state != DLASIM_PM_LOG_DURABLE)
		return pmc_violation(c, PMC_PERSIST, tx,
				     "home_write(): line %d in place before its undo entry is durable (I1)",
				     k);
	if (!is_buffer(l->pub.place))
		return pmc_violation(c, PMC_PERSIST, tx, "home_write(): line %d is %s, in no buffer",
				     k, pm_place_name(l->pub.place));
	pmc_home_write(c, tx, k);
	return c->violated ? DLASIM_ERR : DLASIM_OK;
}

static int r_commit(struct dlasim_pm_ctx *c, const struct dlasim_pm_tx *t)
{
	struct pm_tx *tx = pmc_find_tx(c, t);

	if (!tx)
		return pmc_violation(c, PMC_PERSIST, NULL, "commit(): not a transaction of this run");
	if (tx->pub.committed)
		return pmc_violation(c, PMC_PERSIST, tx, "commit() a second time");
	if (!tx->pub.ended)
		return pmc_violation(c, PMC_PERSIST, tx,
				     "commit() before tx_end, while lines may still come (I4)");
	for (int k = 0; k < tx->pub.lines; k++) {
		const struct dlasim_pm_line *l = &tx->line[k].pub;

		if (l->log == DLASIM_PM_REDO && l->log_state != DLASIM_PM_LOG_DURABLE)
			return pmc_violation(c, PMC_PERSIST, tx,
					     "commit() before the redo log of line %d is durable (%s) (I2)",
					     k, l->log_state == DLASIM_PM_LOG_PERSISTED ?
					     "its record header is not" : "its entry has not persisted");
		if (l->place != DLASIM_PM_ADR && l->place != DLASIM_PM_DRAM &&
		    l->place != DLASIM_PM_HOME)
			return pmc_violation(c, PMC_PERSIST, tx,
					     "commit() while line %d is in %s, neither in the ADR nor logged nor home (I4)",
					     k, pm_place_name(l->place));
	}
	pmc_commit(c, tx);
	return c->violated ? DLASIM_ERR : DLASIM_OK;
}

bool pm_ops_ok(const void *ops, const char **why)
{
	const struct dlasim_pm_ops *o = ops;

	if (o->size < sizeof(*o))
		*why = "its dlasim_pm_ops is smaller than version 1's";
	else if (!o->on_write || !o->on_tx_end)
		*why = "on_write and on_tx_end are required";
	else
		return true;
	return false;
}

const struct dlasim_persist_services nvm_pm_services = {
	.size = sizeof(struct dlasim_persist_services),
	.cores = q_cores,
	.capacity = q_capacity,
	.used = q_used,
	.speculative = q_speculative,
	.tx_on = q_tx_on,
	.line = q_line,
	.place = r_place,
	.log = r_log,
	.close_record = r_close_record,
	.home_write = r_home_write,
	.commit = r_commit,
	.banks = q_banks,
	.bank_of = q_bank_of,
	.bank_pending = q_bank_pending,
};
