/* SPDX-License-Identifier: MIT */
/*
 * The persistent memory controller as the cores and the NVM see it: a
 * core's transaction begins, its lines arrive, it ends (and waits for the
 * commit); reads that missed the caches; NVM operations complete.  Each
 * call hands the event to the persist plugin, then delivers what followed
 * (completions, freed entries, stalled lines offered again) until nothing
 * is left, checking the plugin's every answer.
 *
 * Calls return MC_GO, MC_WAIT (the core sleeps until the controller wakes
 * it: exactly one wake follows, maybe already during the call) or -1 when
 * a plugin broke an invariant (c->why says which and how).
 */
#ifndef DL_NVM_MC_H
#define DL_NVM_MC_H

#include <stdbool.h>

#include "pmc.h"

#define MC_GO 0
#define MC_WAIT 1

/* With `audit`, the whole state is checked after every event. */
void mc_set_audit(struct dlasim_pm_ctx *c, bool audit);

int mc_tx_begin(struct dlasim_pm_ctx *c, int core);
int mc_write(struct dlasim_pm_ctx *c, int core, long addr);
int mc_tx_end(struct dlasim_pm_ctx *c, int core);
/* A read that missed the LLC, after the DRAM cache lookup missed. */
int mc_read(struct dlasim_pm_ctx *c, int core, long addr);
int mc_nvm_done(struct dlasim_pm_ctx *c, struct pmc_op *op);

#endif
