/* SPDX-License-Identifier: MIT */
#include "xfer.h"

#include <stdbool.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>

#include "kernel/diag.h"
#include "kernel/engine.h"

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

static void xfer_main(void *arg)
{
	struct xfer *x = arg;

	sg_actor_on_exit(xfer_exit, x);
	sg_host_sendto(x->src, x->dst, x->bytes);
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
