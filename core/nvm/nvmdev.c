/* SPDX-License-Identifier: MIT */
#include "nvmdev.h"

#include <stdlib.h>

#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "lib/pool.h"
#include "memdev/actor.h"
#include "memdev/memdev.h"
#include "mc.h"

struct nvmdev {
	struct memdev *dev;
	struct memdev_actor *drv;
	/* device requests, free or in flight; each carries its controller
	 * operation in its tag */
	struct dl_pool reqs;
};

static int dev_bank_of(void *arg, long addr)
{
	const struct nvm_sim *s = arg;

	return memdev_bank_of(s->dev->dev, addr);
}

static int dev_pending(void *arg, int bank)
{
	const struct nvm_sim *s = arg;

	return memdev_bank_pending(s->dev->dev, bank);
}

static void dev_issue(void *arg, struct pmc_op *op)
{
	struct nvm_sim *s = arg;
	struct nvmdev *d = s->dev;
	struct memdev_req *r = dl_pool_get(&d->reqs);

	if (!r)
		dl_sim_error("out of memory for NVM requests");
	*r = (struct memdev_req){ .addr = op->addr, .write = op->write, .tag = op };
	/* Unbounded here (nvmdev_open): only an address outside it fails. */
	if (memdev_enqueue(d->dev, r, simgrid_get_clock()))
		dl_sim_error("NVM request at 0x%lx: %s", op->addr, memdev_check(d->dev, r));
	(op->write ? s->bank_writes : s->bank_reads)[r->bank]++;
	s->kick_due = true;
}

static void dev_done(void *arg, struct memdev_req *r)
{
	struct nvm_sim *s = arg;
	struct pmc_op *op = r->tag;

	dl_pool_put(&s->dev->reqs, r);
	if (mc_nvm_done(&s->ctl.pmc, op))
		sim_fail(s);
	sim_flush(s);
}

struct nvmdev *nvmdev_open(struct nvm_sim *s, bool line_interleave, struct pmc_env *env)
{
	struct memdev_config cfg;
	struct nvmdev *d = calloc(1, sizeof(*d));

	if (!d)
		return dl_err("out of memory"), NULL;
	dl_pool_init(&d->reqs, sizeof(struct memdev_req));
	/* The preset (platforms/dram/nvm.conf; nvm-line.conf interleaves lines). */
	if (memdev_preset("nvm", &cfg))
		goto fail;
	cfg.interleave = line_interleave ? MEMDEV_LINE : MEMDEV_PAGE;
	/* The controller (mc.c) keeps the queues of the study's model; the
	 * device takes what it issues, as it did when the study was validated
	 * (docs/nvm.md, "The NVM"). */
	cfg.trans_queue_size = 0;
	if (memdev_config_finish(&cfg, "nvm") || !(d->dev = memdev_open(&cfg)))
		goto fail;
	if (memdev_banks(d->dev) > NVM_MAX_BANKS) {
		dl_err("nvm: %d banks, more than the %d counted", memdev_banks(d->dev), NVM_MAX_BANKS);
		goto fail;
	}
	s->dev = d;
	s->mem = d->dev;
	s->drv = d->drv = memdev_actor_start(d->dev, 0, sg_host_by_name("cpu"), dev_done, s);
	if (!d->drv) {
		nvmdev_free(d);
		s->dev = NULL;
		return NULL;
	}
	env->issue = dev_issue;
	env->banks = memdev_banks(d->dev);
	env->bank_of = dev_bank_of;
	env->bank_pending = dev_pending;
	return d;
fail:
	memdev_close(d->dev);
	free(d);
	return NULL;
}

void nvmdev_free(struct nvmdev *d)
{
	if (!d)
		return;
	/* In flight at the device or not: the run is over. */
	dl_pool_free(&d->reqs);
	memdev_actor_free(d->drv);
	memdev_close(d->dev);
	free(d);
}
