/* SPDX-License-Identifier: MIT */
#include "core.h"

#include <stdio.h>

#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

#include "machine/engine.h"
#include "mc.h"

/* The controller answered: go on, wait for its wake-up, or fail. */
static void follow(struct nvm_core *c, int ret)
{
	if (ret < 0)
		sim_fail(c->sim);
	sim_flush(c->sim);
	if (ret == MC_WAIT)
		sg_sem_acquire(c->wake);
}

static void spend(double *pending)
{
	if (*pending > 0)
		sg_actor_sleep_for(*pending);
	*pending = 0;
}

static void run_tx(struct nvm_core *c, int i)
{
	struct nvm_sim *s = c->sim;
	struct dlasim_pm_ctx *pmc = &s->ctl.pmc;
	const struct ktrace *t = &c->trace;
	double pending = 0, lookup;

	follow(c, mc_tx_begin(pmc, c->id));
	for (long o = t->first[i]; o < t->first[i + 1]; o++) {
		const struct kop *op = &t->op[o];

		pending += op->insns * s->insn_s;
		if (op->write) {
			spend(&pending);
			follow(c, mc_write(pmc, c->id, op->addr));
			continue;
		}
		/* An LLC hit costs no more than the instructions around it. */
		if (nvm_cache_access(&s->llc, op->addr / 64, true))
			continue;
		spend(&pending);
		if (pmc_dram_lookup(pmc, op->addr, &lookup)) {
			pending = lookup;
			continue;
		}
		pending = lookup;
		spend(&pending);
		follow(c, mc_read(pmc, c->id, op->addr));
	}
	pending += t->tail[i] * s->insn_s;
	spend(&pending);
	follow(c, mc_tx_end(pmc, c->id));
}

static void core_main(void *arg)
{
	struct nvm_core *c = arg;
	struct nvm_sim *s = c->sim;

	while (!s->stop) {
		for (int i = 0; i < c->trace.ntx && !s->stop; i++) {
			run_tx(c, i);
			if (s->stop)
				break;
			c->committed++;
			if (!c->done && i == c->trace.ntx - 1)
				sim_core_done(s, c);
		}
	}
}

void core_start(struct nvm_sim *s, struct nvm_core *c)
{
	char name[32];

	snprintf(name, sizeof(name), "core%d", c->id);
	dl_actor_start(name, sg_host_by_name("cpu"), core_main, c);
}
