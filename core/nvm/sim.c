/* SPDX-License-Identifier: MIT */
#include "sim.h"

#include <simgrid/engine.h>
#include <simgrid/semaphore.h>

#include "machine/engine.h"
#include "plugin/plugin.h"
#include "memdev/actor.h"
#include "memdev/memdev.h"

double sim_now(void *arg)
{
	return simgrid_get_clock();
}

void sim_wake(void *arg, int core)
{
	struct nvm_sim *s = arg;

	s->core[core].wake_due = true;
}

void sim_flush(struct nvm_sim *s)
{
	if (s->kick_due) {
		s->kick_due = false;
		memdev_actor_kick(s->drv);
	}
	for (int c = 0; c < s->ncores; c++) {
		if (!s->core[c].wake_due)
			continue;
		s->core[c].wake_due = false;
		sg_sem_release(s->core[c].wake);
	}
}

void sim_fail(struct nvm_sim *s)
{
	dl_sim_plugin_error(nvm_ctl_culprit(&s->ctl), "", "%s", s->ctl.pmc.why);
}

/* NVM requests issued so far, and the busiest bank's share of writes. */
static void count_nvm(struct nvm_sim *s)
{
	long busiest = 0;

	for (int b = 0; b < memdev_banks(s->mem); b++) {
		s->nvm_reads += s->bank_reads[b];
		s->nvm_writes += s->bank_writes[b];
		if (s->bank_writes[b] > busiest)
			busiest = s->bank_writes[b];
	}
	s->busiest_write_share = s->nvm_writes ? (double)busiest / s->nvm_writes : 0;
}

void sim_core_done(struct nvm_sim *s, struct nvm_core *c)
{
	c->done = true;
	if (++s->finished < s->ncores)
		return;
	s->stop = true;
	s->end_s = simgrid_get_clock();
	s->at_end = s->ctl.pmc.st;
	s->llc_hits = s->llc.hits;
	s->llc_misses = s->llc.misses;
	count_nvm(s);
}
