/* SPDX-License-Identifier: MIT */
/*
 * The placement manager: an actor that owns every call into the
 * tier-placement plugin.  The DMA controller asks it to prepare an op
 * before fetching the op's operands; output writers ask it where a tensor
 * goes; the MXUs tell it an op starts.  Each request is a message; the
 * requester waits for the answer.  Around each request it delivers what
 * the plugin is to be told (evictions made for it, ops that ended).
 */
#include "manager.h"

#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/mailbox.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "plugin/plugin.h"
#include "mem.h"
#include "services.h"

enum { REQ_PREPARE, REQ_PLACE, REQ_START };

struct request {
	int type;
	int arg;		/* op */
	bool done;
};

static void ask(struct dlasim_tier_ctx *run, int type, int arg)
{
	struct request req = { type, arg, false };

	sg_mailbox_put(run->manager_mb, &req, 0);
	RUN_WAIT_UNTIL(run, req.done);
}

void manager_prepare(struct dlasim_tier_ctx *run, int op)
{
	ask(run, REQ_PREPARE, op);
}

/* All the results of an op are placed in one request: a manager waiting
 * in prepare() for one of them to be written cannot hold the others. */
void manager_place(struct dlasim_tier_ctx *run, int op)
{
	ask(run, REQ_PLACE, op);
}

void manager_start_op(struct dlasim_tier_ctx *run, int op)
{
	if (!run->ops->start)
		return;
	run->start_pending = true;
	run_changed(run);
	ask(run, REQ_START, op);
	run->start_pending = false;
}

/* Call prepare() or start() of the plugin: it may move data meanwhile. */
static void call(struct dlasim_tier_ctx *run, int (*fn)(void *, struct dlasim_tier_ctx *,
							 const struct dlasim_tier_op *),
		 int op, const char *what)
{
	run->in_callback = true;
	if (fn(run->state, run, services_op(run, op)) != DLASIM_OK)
		run_plugin_fail(run, "%s(%s) failed", what, run->g.ops[op].name);
	run->in_callback = false;
}

/* A vertical tier 1 must hold what the DMA reads: fetch what is missing
 * (bytes being written back are kept: a hit). */
static void fill_operands(struct dlasim_tier_ctx *run, const struct tg_op *o)
{
	for (int k = 0; k < o->pub.ninputs; k++)
		if (mem_missing(run, o->in[k].tensor) > 0)
			mem_promote_missing(run, o->in[k].tensor, 0);
}

static void do_prepare(struct dlasim_tier_ctx *run, int op)
{
	run->cur_op = op;
	if (run->ops->prepare)
		call(run, run->ops->prepare, op, "prepare");
	if (run->sys.arrangement == DLASIM_TIER_VERTICAL)
		fill_operands(run, &run->g.ops[op]);
}

static void do_place(struct dlasim_tier_ctx *run, int op)
{
	const struct tg_op *o = &run->g.ops[op];

	for (int k = 0; k < o->pub.noutputs; k++) {
		const struct dlasim_tier_tensor *t = &run->g.t[o->out[k]].pub;
		double r = 1;

		if (run->sys.arrangement == DLASIM_TIER_HORIZONTAL && run->ops->place) {
			r = run->ops->place(run->state, run, t);
			if (!(r >= 0 && r <= 1))
				run_plugin_fail(run, "place(%s) returned %g, not a split ratio in [0, 1]",
						t->name, r);
		}
		mem_place(run, t->id, r);
	}
}

static void manager_main(void *arg)
{
	struct dlasim_tier_ctx *run = arg;

	for (;;) {
		struct request *req = sg_mailbox_get(run->manager_mb);

		manager_notify(run);
		if (req->type == REQ_PREPARE)
			do_prepare(run, req->arg);
		else if (req->type == REQ_START)
			call(run, run->ops->start, req->arg, "start");
		else
			do_place(run, req->arg);
		manager_notify(run);
		req->done = true;
		run_changed(run);
	}
}

void manager_notify(struct dlasim_tier_ctx *run)
{
	const struct dlasim_tier_ops *ops = run->ops;

	/* The plugin may only read meanwhile: nothing new is queued. */
	for (int i = 0; i < run->nnotices; i++) {
		const struct notice *n = &run->notices[i];

		if (n->op_done && ops->op_done)
			ops->op_done(run->state, run, services_op(run, n->id), &n->fb);
		else if (!n->op_done && ops->evicted)
			ops->evicted(run->state, run, n->id, n->bytes);
	}
	run->nnotices = 0;
}

int manager_start(struct dlasim_tier_ctx *run)
{
	if (run->online) {
		run->op_view = calloc((size_t)run->g.nops, sizeof(*run->op_view));
		if (!run->op_view)
			return dl_err("out of memory");
	}
	if (run->ops->setup && run->ops->setup(run->state, run) != DLASIM_OK)
		run_plugin_fail(run, "setup() failed");
	run->manager_mb = sg_mailbox_by_name("tier.manager");
	sg_actor_daemonize(dl_actor_start("placement-manager", run->chip, manager_main, run));
	return 0;
}
