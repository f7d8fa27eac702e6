/* SPDX-License-Identifier: MIT */
/*
 * One NVM channel: each bank serves its requests one at a time in arrival
 * order, a read occupying it read_ns and a write write_ns (seed 003's NVM:
 * DRAMSim2 with 48 ns reads and 300 ns writes).  The data bus is not the
 * bottleneck at these occupancies (a 64 B line moves in under 4 ns on a
 * DDR4-2400 x64 bus) and is not modelled.  At most trans_queue_size
 * requests wait in the channel, reads and writes together, as in
 * DRAMSim2's one transaction queue (0, set from code: no bound).
 * docs/memdev.md.
 */
#include <math.h>
#include <stdlib.h>

#include "chan.h"

struct nbank {
	struct memdev_req *head, *tail;	/* waiting, oldest first */
	struct memdev_req *serving;
	int64_t done;			/* end of the service */
};

struct nvm {
	int nb;
	int limit, waiting;		/* trans_queue_size (0: none); requests waiting */
	int64_t read_cyc, write_cyc;
	struct nbank *bank;
};

static void *nvm_open(struct md_chan *ch)
{
	const struct memdev_config *c = &ch->d->cfg;
	struct nvm *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->nb = c->ranks * c->banks;
	x->bank = calloc(x->nb, sizeof(*x->bank));
	if (!x->bank) {
		free(x);
		return NULL;
	}
	x->limit = c->trans_queue_size;
	x->read_cyc = llround(c->read_ns / c->tCK_ns);
	x->write_cyc = llround(c->write_ns / c->tCK_ns);
	if (x->read_cyc < 1)
		x->read_cyc = 1;
	if (x->write_cyc < 1)
		x->write_cyc = 1;
	return x;
}

static void nvm_free(void *impl)
{
	struct nvm *x = impl;

	if (x)
		free(x->bank);
	free(x);
}

static int64_t nvm_next(struct md_chan *ch)
{
	struct nvm *x = ch->impl;
	int64_t t = MD_NEVER;

	for (int i = 0; i < x->nb; i++) {
		struct nbank *b = &x->bank[i];
		int64_t e = b->serving ? b->done : b->head ? b->head->arrive_cyc : MD_NEVER;

		if (e < t)
			t = e;
	}
	return t < ch->clk ? ch->clk : t;
}

static void nvm_step(struct md_chan *ch, int64_t e)
{
	struct nvm *x = ch->impl;
	struct memdev *d = ch->d;

	for (int i = 0; i < x->nb; i++) {
		struct nbank *b = &x->bank[i];

		if (b->serving && b->done <= e) {
			struct memdev_req *r = b->serving;

			b->serving = NULL;
			md_complete(ch, r, b->done);
		}
		if (!b->serving && b->head && b->head->arrive_cyc <= e) {
			struct memdev_req *r = b->head;

			b->head = r->next;
			if (!b->head)
				b->tail = NULL;
			x->waiting--;
			b->serving = r;
			b->done = e + (r->write ? x->write_cyc : x->read_cyc);
			if (r->write)
				d->writes++;
			else
				d->reads++;
			d->bytes += d->cfg.line_bytes;
		}
	}
}

static bool nvm_room(const struct md_chan *ch, bool write)
{
	const struct nvm *x = ch->impl;

	return !x->limit || x->waiting < x->limit;
}

static void nvm_accept(struct md_chan *ch, struct memdev_req *r)
{
	struct nvm *x = ch->impl;
	struct nbank *b = &x->bank[r->bank - ch->index * x->nb];	/* r->bank % nb */

	r->next = NULL;
	if (b->tail)
		b->tail->next = r;
	else
		b->head = r;
	b->tail = r;
	x->waiting++;
}

const struct md_kind md_nvm = {
	.open = nvm_open,
	.free = nvm_free,
	.next = nvm_next,
	.step = nvm_step,
	.room = nvm_room,
	.accept = nvm_accept,
};
