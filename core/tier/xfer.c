/* SPDX-License-Identifier: MIT */
#include "xfer.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/mutex.h>

#include "lib/diag.h"
#include "machine/engine.h"

struct xfer {
	sg_host_t src, dst;
	double bytes;
	xfer_done_fn done;
	void *arg;
	struct xfer_group *group;
	bool finished;
};

void xfer_group_init(struct xfer_group *g)
{
	g->pending = 0;
	g->mutex = sg_mutex_init();
	g->cond = sg_cond_init();
}

void xfer_group_destroy(struct xfer_group *g)
{
	sg_cond_destroy(g->cond);
	sg_mutex_destroy(g->mutex);
}

void xfer_group_wait(struct xfer_group *g)
{
	sg_mutex_lock(g->mutex);
	while (g->pending > 0)
		sg_cond_wait(g->cond, g->mutex);
	sg_mutex_unlock(g->mutex);
}

void xfer_group_hold(struct xfer_group *g)
{
	g->pending++;
}

void xfer_group_release(struct xfer_group *g)
{
	sg_mutex_lock(g->mutex);
	if (--g->pending == 0)
		sg_cond_notify_all(g->cond);
	sg_mutex_unlock(g->mutex);
}

static void finish(struct xfer *x)
{
	x->finished = true;
	if (x->done)
		x->done(x->arg, x->bytes);
	if (x->group)
		xfer_group_release(x->group);
}

/* Also runs when a failed simulation kills the transfer midway. */
static void xfer_exit(int failed, void *data)
{
	struct xfer *x = data;

	if (!x->finished && x->done)
		free(x->arg);
	free(x);
}

/* "xfer:HOST", the transfers to HOST. */
static const char *xfer_mailbox(sg_host_t dst)
{
	static char name[256];

	snprintf(name, sizeof(name), "xfer:%s", sg_host_get_name(dst));
	return name;
}

/* The receiving end: any sink on the destination takes any transfer to
 * it, all of them alike. */
static void xfer_sink(void *arg)
{
	sg_mailbox_get(arg);
}

/*
 * A mailbox transfer to a sink on the destination host rather than
 * sg_host_sendto(), whose actor state SimGrid 3.32 pops from a Paje trace
 * without pushing it first (pajeng then rejects the trace); the network
 * sees the same flow either way.
 */
static void xfer_main(void *arg)
{
	struct xfer *x = arg;
	sg_mailbox_t mb = sg_mailbox_by_name(xfer_mailbox(x->dst));

	sg_actor_on_exit(xfer_exit, x);
	dl_actor_start("xfer-sink", x->dst, xfer_sink, mb);
	sg_mailbox_put(mb, x, x->bytes);
	finish(x);
}

void xfer_start(sg_host_t src, sg_host_t dst, double bytes, xfer_done_fn done,
		void *arg, struct xfer_group *group)
{
	struct xfer *x = malloc(sizeof(*x));

	if (!x) {
		dl_err("out of memory");
		dl_sim_fail();
	}
	*x = (struct xfer){ src, dst, bytes, done, arg, group, false };
	if (group)
		xfer_group_hold(group);
	if (bytes <= 0) {
		finish(x);
		free(x);
		return;
	}
	dl_actor_start("xfer", src, xfer_main, x);
}
