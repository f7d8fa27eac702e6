/* SPDX-License-Identifier: MIT */
#include "mc.h"

#include "audit.h"

void mc_set_audit(struct dlasim_pm_ctx *c, bool audit)
{
	c->audit = audit;
}

/* What a plugin callback returned, checked. */
static int answer(struct dlasim_pm_ctx *c, const struct pm_tx *tx, int ret, const char *what)
{
	if (c->violated)
		return -1;
	if (ret == DLASIM_OK)
		return 0;
	if (ret == DLASIM_ERR)
		pmc_violation(c, PMC_PERSIST, tx, "%s failed", what);
	else
		pmc_violation(c, PMC_PERSIST, tx, "%s returned %d, not DLASIM_OK or DLASIM_ERR", what,
			      ret);
	return -1;
}

/* Offer line k of tx to the plugin: MC_GO (placed), MC_WAIT or -1. */
static int offer(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k)
{
	int ret = c->ops->on_write(c->state, c, &tx->pub, k);
	enum dlasim_pm_place p = tx->line[k].pub.place;

	if (c->violated)
		return -1;
	if (ret == DLASIM_PM_WAIT) {
		if (p != DLASIM_PM_NONE)
			return pmc_violation(c, PMC_PERSIST, tx,
					     "on_write() returned DLASIM_PM_WAIT for line %d but placed it",
					     k), -1;
		return MC_WAIT;
	}
	if (answer(c, tx, ret, "on_write()"))
		return -1;
	if (p == DLASIM_PM_NONE)
		return pmc_violation(c, PMC_PERSIST, tx,
				     "on_write() took line %d but left it in no buffer (I6)", k), -1;
	return MC_GO;
}

/* Offer the stalled lines again, oldest stall first. */
static int reoffer(struct dlasim_pm_ctx *c)
{
	int n = c->nstalled, order[PMC_MAX_CORES];

	for (int i = 0; i < n; i++)
		order[i] = c->stall_order[i];
	for (int i = 0; i < n; i++) {
		int core = order[i], ret, j;
		struct pm_tx *tx = c->cur[core];

		ret = offer(c, tx, tx->pub.lines - 1);
		if (ret < 0)
			return -1;
		if (ret == MC_WAIT)
			continue;
		for (j = 0; c->stall_order[j] != core; j++)
			;
		for (; j + 1 < c->nstalled; j++)
			c->stall_order[j] = c->stall_order[j + 1];
		c->nstalled--;
		c->waits[core] = CORE_RUNS;
		c->env.wake(c->env.arg, core);
	}
	return 0;
}

/* Deliver what the last event set off, until nothing is left. */
static int pump(struct dlasim_pm_ctx *c)
{
	struct pm_event e;

	while (!c->violated) {
		if (pmc_next_event(c, &e)) {
			if (c->ops->on_done)
				answer(c, e.tx, c->ops->on_done(c->state, c, &e.tx->pub, e.k, e.ev),
				       "on_done()");
			continue;
		}
		if (c->space_freed) {
			c->space_freed = false;
			if (c->ops->on_space && answer(c, NULL, c->ops->on_space(c->state, c), "on_space()"))
				break;
			if (reoffer(c))
				break;
			continue;
		}
		pmc_retire_done(c);
		if (c->space_freed || c->ev_len)
			continue;
		if (c->audit && pm_audit(c) == 0)
			c->st.audits++;
		break;
	}
	return c->violated ? -1 : 0;
}

int mc_tx_begin(struct dlasim_pm_ctx *c, int core)
{
	if (!pmc_tx_begin(c, core))
		return pmc_violation(c, PMC_PERSIST, NULL, "out of memory for transactions"), -1;
	return MC_GO;
}

int mc_write(struct dlasim_pm_ctx *c, int core, long addr)
{
	struct pm_tx *tx = c->cur[core];
	int k = pmc_add_line(c, tx, addr), ret;

	if (k < 0)
		return pmc_violation(c, PMC_PERSIST, tx, "out of memory for lines"), -1;
	ret = offer(c, tx, k);
	if (ret == MC_WAIT) {
		c->waits[core] = CORE_STALLED;
		c->stall_order[c->nstalled++] = core;
		c->st.stalls++;
		/* Its open record would wait for entries that wait for room:
		 * it closes now. */
		pmc_close_record(c, tx);
	}
	if (ret < 0 || pump(c))
		return -1;
	return ret;
}

int mc_tx_end(struct dlasim_pm_ctx *c, int core)
{
	struct pm_tx *tx = c->cur[core];
	bool wait;

	pmc_tx_end(c, tx);
	if (answer(c, tx, c->ops->on_tx_end(c->state, c, &tx->pub), "on_tx_end()"))
		return -1;
	wait = !tx->pub.committed;
	if (wait)
		c->waits[core] = CORE_ENDING;
	if (pump(c))
		return -1;
	return wait ? MC_WAIT : MC_GO;
}

int mc_read(struct dlasim_pm_ctx *c, int core, long addr)
{
	pmc_nvm_read(c, core, addr);
	if (pump(c))
		return -1;
	return MC_WAIT;
}

int mc_nvm_done(struct dlasim_pm_ctx *c, struct pmc_op *op)
{
	pmc_op_done(c, op);
	return pump(c);
}
