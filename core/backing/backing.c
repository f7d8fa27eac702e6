/* SPDX-License-Identifier: MIT */
/* Backing-store controllers and transfers. */
#include "backing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "lib/grow.h"

#define MAX_SHARES 64
/* Read requests and end-of-work notes carry a DMA descriptor. */
#define DESCRIPTOR_BYTES 64

/* A read request; a write carries the marker below, only its bytes. */
struct read_req {
	double bytes;
	sg_mailbox_t reply;
};

static struct read_req write_marker, done_marker;

struct controller_arg {
	sg_mailbox_t mb;
	int clients;		/* devices that will send done_marker */
};

/* The controller's replies in flight; slot 0 is its pending receive. */
struct inflight {
	sg_comm_t *comm;
	int count, cap;
};

static void inflight_add(struct inflight *f, sg_comm_t c)
{
	if (dl_grow((void **)&f->comm, &f->cap, f->count + 1, sizeof(*f->comm)))
		dl_sim_error("out of memory");
	f->comm[f->count++] = c;
}

/*
 * The controller of one store.  It is the permanent receiver of its
 * mailbox, so writes from several devices flow at once as soon as they
 * are sent; reads are answered by a send back to the device.  The replies
 * stay the controller's own activities, reaped as they end, rather than
 * detached: SimGrid keeps every detached communication in one global list
 * that each of them scans when it ends, which made a layer's reads cost
 * O(N^2) on N devices.  It ends when every device it serves has said it
 * is done and its last reply has arrived.
 */
static void controller(void *arg)
{
	struct controller_arg *c = arg;
	struct inflight f = { 0 };
	int clients = c->clients;
	void *data = NULL;

	sg_mailbox_set_receiver(sg_mailbox_get_name(c->mb));
	inflight_add(&f, sg_mailbox_get_async(c->mb, &data));
	while (clients > 0 || f.count > 1) {
		int skip = clients > 0 ? 0 : 1;	/* no receive pending */
		ssize_t i = sg_comm_wait_any(f.comm + skip, f.count - skip) + skip;
		struct read_req *r = data;

		if (i > 0) {
			f.comm[i] = f.comm[--f.count];
			continue;
		}
		if (r == &done_marker)
			clients--;
		else if (r != &write_marker)
			inflight_add(&f, sg_mailbox_put_async(r->reply, r, (long)llround(r->bytes)));
		if (clients > 0)
			f.comm[0] = sg_mailbox_get_async(c->mb, &data);
	}
	free(f.comm);
}

static int check_routes(const struct bk_pages *pg)
{
	const struct dl_platform *p = pg->p;

	for (int r = 0; r < p->ndevices; r++) {
		const struct dl_host *d = &p->hosts[p->devices[r]];

		for (int s = 0; s < pg->dev_nshares[r]; s++) {
			int hi = pg->store[pg->dev_store[r][s]].host;
			const struct dl_host *h = &p->hosts[hi];

			if (!dl_route_exists(p, p->devices[r], hi) || !dl_route_exists(p, hi, p->devices[r]))
				return dl_err("%s: no route between device '%s' and its backing host '%s'",
					      p->file, d->name, h->name);
		}
	}
	return 0;
}

int bk_backing_start(struct bk_backing **out, struct bk_pages *pg, struct bk_links *links)
{
	return bk_backing_start_for(out, pg, links, NULL);
}

int bk_backing_start_for(struct bk_backing **out, struct bk_pages *pg, struct bk_links *links,
			 const bool *client)
{
	struct bk_backing *b = calloc(1, sizeof(*b));
	char name[128];

	*out = NULL;
	if (!b || !(b->store_mb = calloc(pg->nstores, sizeof(sg_mailbox_t))) ||
	    !(b->ctl = calloc(pg->nstores, sizeof(*b->ctl)))) {
		bk_backing_free(b);
		return dl_err("out of memory");
	}
	b->pg = pg;
	b->links = links;
	if (check_routes(pg)) {
		bk_backing_free(b);
		return -1;
	}
	for (int r = 0; r < pg->p->ndevices; r++)
		for (int s = 0; (!client || client[r]) && s < pg->dev_nshares[r]; s++)
			b->ctl[pg->dev_store[r][s]].clients++;
	for (int i = 0; i < pg->nstores; i++) {
		const struct dl_host *h = &pg->p->hosts[pg->store[i].host];

		snprintf(name, sizeof(name), "bk.store.%s", h->name);
		b->store_mb[i] = b->ctl[i].mb = sg_mailbox_by_name(name);
		if (b->ctl[i].clients)	/* else no one would let it end */
			dl_actor_start("memory-controller", h->sg, controller, &b->ctl[i]);
	}
	*out = b;
	return 0;
}

void bk_backing_free(struct bk_backing *b)
{
	if (!b)
		return;
	free(b->store_mb);
	free(b->ctl);
	free(b);
}

static sg_mailbox_t share_mb(const struct bk_backing *b, const struct bk_alloc *a, int s)
{
	return b->store_mb[b->pg->dev_store[a->rank][s]];
}

/* Count `bytes` moved between device `rank` and its share s, either way,
 * from t0 until now. */
static void count(const struct bk_backing *b, int rank, int s, bool to_store, double bytes,
		  double t0)
{
	const struct dl_platform *p = b->pg->p;
	sg_host_t dev = p->hosts[p->devices[rank]].sg;
	sg_host_t mem = p->hosts[b->pg->store[b->pg->dev_store[rank][s]].host].sg;

	bk_links_transfer(b->links, to_store ? dev : mem, to_store ? mem : dev, bytes, t0,
			  simgrid_get_clock());
}

void bk_backing_write(struct bk_backing *b, const struct bk_alloc *a)
{
	sg_comm_t c[MAX_SHARES];
	int n = 0, shares = b->pg->dev_nshares[a->rank];
	double t0 = simgrid_get_clock();

	for (int s = 0; s < shares && n < MAX_SHARES; s++)
		if (a->share_bytes[s] > 0)
			c[n++] = sg_mailbox_put_async(share_mb(b, a, s), &write_marker,
						      (long)llround(a->share_bytes[s]));
	sg_comm_wait_all(c, n);
	for (int s = 0; s < shares; s++)
		if (a->share_bytes[s] > 0)
			count(b, a->rank, s, true, a->share_bytes[s], t0);
}

void bk_backing_read(struct bk_backing *b, const struct bk_alloc *a)
{
	struct read_req req[MAX_SHARES];
	sg_comm_t c[2 * MAX_SHARES];
	void *data[MAX_SHARES];
	int n = 0, shares = b->pg->dev_nshares[a->rank];
	char name[64];
	sg_mailbox_t reply;
	double t0 = simgrid_get_clock();

	snprintf(name, sizeof(name), "bk.reply.%ld", (long)sg_actor_self_get_pid());
	reply = sg_mailbox_by_name(name);
	for (int s = 0; s < shares && n < MAX_SHARES; s++) {
		if (!(a->share_bytes[s] > 0))
			continue;
		req[n] = (struct read_req){ a->share_bytes[s], reply };
		c[2 * n] = sg_mailbox_put_async(share_mb(b, a, s), &req[n], DESCRIPTOR_BYTES);
		c[2 * n + 1] = sg_mailbox_get_async(reply, &data[n]);
		n++;
	}
	sg_comm_wait_all(c, 2 * n);
	for (int s = 0; s < shares; s++) {
		if (a->share_bytes[s] > 0) {
			count(b, a->rank, s, true, DESCRIPTOR_BYTES, t0);
			count(b, a->rank, s, false, a->share_bytes[s], t0);
		}
	}
}

void bk_backing_done(struct bk_backing *b, int rank)
{
	for (int s = 0; s < b->pg->dev_nshares[rank]; s++) {
		double t0 = simgrid_get_clock();

		sg_mailbox_put(b->store_mb[b->pg->dev_store[rank][s]], &done_marker, DESCRIPTOR_BYTES);
		count(b, rank, s, true, DESCRIPTOR_BYTES, t0);
	}
}
