/* SPDX-License-Identifier: MIT */
#include "audit.h"

#include "pmc.h"
#include "pmsvc.h"

/* One line: what a crash now would find must be recoverable. */
static int audit_line(struct dlasim_pm_ctx *c, const struct pm_tx *tx, int k)
{
	const struct dlasim_pm_line *l = &tx->line[k].pub;
	bool committed = tx->pub.committed;
	bool undo_safe = l->log == DLASIM_PM_UNDO && l->log_state == DLASIM_PM_LOG_DURABLE;

	if (l->flushable && (!committed || l->place != DLASIM_PM_ADR))
		return pmc_violation(c, PMC_PERSIST, tx, "line %d is flushable %s (I3)", k,
				     committed ? "outside the ADR" : "before the commit");
	if (!committed && (l->home_issued || l->place == DLASIM_PM_HOME) && !undo_safe)
		return pmc_violation(c, PMC_PERSIST, tx,
				     "line %d of an uncommitted transaction is written in place without a durable undo entry (I1/I2)",
				     k);
	if (l->place == DLASIM_PM_DRAM &&
	    (l->log != DLASIM_PM_REDO || l->log_state < DLASIM_PM_LOG_PERSISTED))
		return pmc_violation(c, PMC_PERSIST, tx,
				     "line %d is in the DRAM cache without a persisted redo entry (I6)", k);
	if (committed && l->log == DLASIM_PM_REDO && l->log_state != DLASIM_PM_LOG_DURABLE)
		return pmc_violation(c, PMC_PERSIST, tx,
				     "line %d: committed with its redo log not durable (I2)", k);
	if (committed && l->place != DLASIM_PM_HOME && l->place != DLASIM_PM_DRAM &&
	    !(l->place == DLASIM_PM_ADR && l->flushable))
		return pmc_violation(c, PMC_PERSIST, tx,
				     "line %d: committed while in %s (I4)", k, pm_place_name(l->place));
	return 0;
}

/* Recount every place: the buffers' counters and the transactions'
 * (I5, I6). */
int pm_audit(struct dlasim_pm_ctx *c)
{
	int used[DLASIM_PM_PLACES] = { 0 }, speculative = 0;
	int vbuf[PMC_MAX_CORES] = { 0 };

	for (const struct pm_tx *tx = c->head; tx; tx = tx->next) {
		int in[DLASIM_PM_PLACES] = { 0 };

		for (int k = 0; k < tx->pub.lines; k++) {
			enum dlasim_pm_place p = tx->line[k].pub.place;

			if (p < 0 || p >= DLASIM_PM_PLACES)
				return pmc_violation(c, PMC_PERSIST, tx, "line %d is nowhere known (I6)", k);
			in[p]++;
			used[p]++;
			if (p == DLASIM_PM_VBUF && tx->pub.core < PMC_MAX_CORES)
				vbuf[tx->pub.core]++;
			if (p == DLASIM_PM_ADR && !tx->pub.committed)
				speculative++;
			if (audit_line(c, tx, k))
				return -1;
		}
		for (int p = 0; p < DLASIM_PM_PLACES; p++)
			if (in[p] != tx->pub.in[p])
				return pmc_violation(c, PMC_PERSIST, tx,
						     "%d lines are in %s, its count says %d (I6)",
						     in[p], pm_place_name(p), tx->pub.in[p]);
	}
	for (int p = DLASIM_PM_ADR; p <= DLASIM_PM_LOGQ; p++)
		if (used[p] != c->used[p])
			return pmc_violation(c, PMC_PERSIST, NULL,
					     "%s holds %d lines, its count says %d (I6)",
					     pm_place_name(p), used[p], c->used[p]);
	if (speculative != c->speculative)
		return pmc_violation(c, PMC_PERSIST, NULL,
				     "the ADR holds %d uncommitted lines, its count says %d (I6)",
				     speculative, c->speculative);
	if (used[DLASIM_PM_ADR] + c->adr_headers > c->cap[DLASIM_PM_ADR])
		return pmc_violation(c, PMC_PERSIST, NULL,
				     "the ADR holds %d lines and %d header blocks, more than its %d entries (I5)",
				     used[DLASIM_PM_ADR], c->adr_headers, c->cap[DLASIM_PM_ADR]);
	for (int p = DLASIM_PM_STAGE; p <= DLASIM_PM_LOGQ; p++)
		if (p != DLASIM_PM_VBUF && used[p] > c->cap[p])
			return pmc_violation(c, PMC_PERSIST, NULL,
					     "%s holds %d lines, more than its %d entries (I5)",
					     pm_place_name(p), used[p], c->cap[p]);
	for (int core = 0; core < c->cores; core++)
		if (vbuf[core] != c->vbuf_used[core] || vbuf[core] > c->cap[DLASIM_PM_VBUF])
			return pmc_violation(c, PMC_PERSIST, NULL,
					     "the virtual ADR of core %d holds %d lines (count %d, %d entries) (I5/I6)",
					     core, vbuf[core], c->vbuf_used[core], c->cap[DLASIM_PM_VBUF]);
	return 0;
}
