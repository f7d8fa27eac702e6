/* SPDX-License-Identifier: MIT */
/*
 * The placement manager: an actor that owns every call into the
 * tier-placement plugin.  The DMA controller asks it to prepare an op
 * before fetching the op's operands; output writers ask it where a tensor
 * goes.  Each request is a message; the requester waits for the answer.
 */
#include "manager.h"

#include <math.h>

#include <simgrid/actor.h>
#include <simgrid/mailbox.h>

#include "kernel/engine.h"
#include "kernel/plugin.h"
#include "estimate.h"
#include "mem.h"
#include "place.h"
#include "split.h"

enum { REQ_PREPARE, REQ_PLACE, REQ_START };

struct request {
	int type;
	int arg;		/* op */
	bool done;
};

static bool in_prepare;

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

/* A vertical tier 1 must hold what the DMA reads: fetch what is missing. */
static void fill_operands(struct dlasim_tier_ctx *run, const struct tg_op *o)
{
	for (int k = 0; k < o->pub.ninputs; k++) {
		const struct dlasim_tier_tensor *t = &run->g.t[o->in[k].tensor].pub;
		double missing = t->bytes - t->tier1_bytes - t->moving_bytes;

		if (missing > 0)
			mem_promote(run, t->id, missing, 0);
	}
}

static void do_prepare(struct dlasim_tier_ctx *run, int op)
{
	const struct tg_op *o = &run->g.ops[op];

	run->cur_op = op;
	if (run->ops->prepare) {
		in_prepare = true;
		if (run->ops->prepare(run->state, run, &o->pub) != DLASIM_OK)
			run_plugin_fail(run, "prepare(%s) failed", o->name);
		in_prepare = false;
	}
	if (run->sys.arrangement == DLASIM_TIER_VERTICAL)
		fill_operands(run, o);
}

static void do_start(struct dlasim_tier_ctx *run, int op)
{
	const struct tg_op *o = &run->g.ops[op];

	in_prepare = true;
	if (run->ops->start(run->state, run, &o->pub) != DLASIM_OK)
		run_plugin_fail(run, "start(%s) failed", o->name);
	in_prepare = false;
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

		if (req->type == REQ_PREPARE)
			do_prepare(run, req->arg);
		else if (req->type == REQ_START)
			do_start(run, req->arg);
		else
			do_place(run, req->arg);
		req->done = true;
		run_changed(run);
	}
}

void manager_start(struct dlasim_tier_ctx *run)
{
	run->manager_mb = sg_mailbox_by_name("tier.manager");
	sg_actor_daemonize(dl_actor_start("placement-manager", run->chip, manager_main, run));
}

/* ---- the services handed to the plugin ---- */

static int svc_op_count(const struct dlasim_tier_ctx *run)
{
	return run->g.nops;
}

static void check_id(const struct dlasim_tier_ctx *run, int v, int n, const char *what,
		     const char *fn)
{
	if (v < 0 || v >= n)
		run_plugin_fail((struct dlasim_tier_ctx *)run, "%s(): %s %d out of range [0, %d)",
				fn, what, v, n);
}

static const struct dlasim_tier_op *svc_op(const struct dlasim_tier_ctx *run, int i)
{
	check_id(run, i, run->g.nops, "op", "op");
	return &run->g.ops[i].pub;
}

static int svc_tensor_count(const struct dlasim_tier_ctx *run)
{
	return run->g.nt;
}

static const struct dlasim_tier_tensor *svc_tensor(const struct dlasim_tier_ctx *run, int id)
{
	check_id(run, id, run->g.nt, "tensor", "tensor");
	return &run->g.t[id].pub;
}

static const struct dlasim_tier_system *svc_system(const struct dlasim_tier_ctx *run)
{
	return &run->sys;
}

static int svc_next_use(const struct dlasim_tier_ctx *run, int id, int after)
{
	check_id(run, id, run->g.nt, "tensor", "next_use");
	return tier_graph_next_use(&run->g, id, after);
}

static bool svc_evictable(const struct dlasim_tier_ctx *run, int id)
{
	check_id(run, id, run->g.nt, "tensor", "evictable");
	return mem_evictable(run, id);
}

static void check_action(struct dlasim_tier_ctx *run, const char *fn, double bytes)
{
	if (!in_prepare)
		run_plugin_fail(run, "%s() called outside prepare() or start()", fn);
	if (!(bytes >= 0))
		run_plugin_fail(run, "%s(): %g is not a byte count", fn, bytes);
}

static double svc_promote(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags)
{
	check_action(run, "promote", bytes);
	check_id(run, id, run->g.nt, "tensor", "promote");
	return mem_promote(run, id, bytes, flags);
}

static double svc_evict(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags)
{
	check_action(run, "evict", bytes);
	check_id(run, id, run->g.nt, "tensor", "evict");
	if (run->ts[id].pins > 0 && run->g.t[id].pub.tier1_bytes > 0)
		run_plugin_fail(run, "evict() of %s while op %s uses it",
				run->g.t[id].name, run->g.ops[run->cur_op].name);
	return mem_evict(run, id, bytes, flags);
}

static double svc_make_room(struct dlasim_tier_ctx *run, double bytes, unsigned flags)
{
	check_action(run, "make_room", bytes);
	return mem_make_room(run, bytes, flags);
}

static double svc_split_place(struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	check_id(run, id, run->g.nt, "tensor", "split_place");
	return place_split(run, id, flags);
}

static double svc_promote_essential(struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	check_action(run, "promote_essential", 0);
	check_id(run, op, run->g.nops, "op", "promote_essential");
	return place_essential(run, op, flags);
}

static int svc_split_prepare(struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	check_action(run, "split_prepare", 0);
	check_id(run, op, run->g.nops, "op", "split_prepare");
	return place_prepare(run, op, flags);
}

static const struct dlasim_tier_timing *svc_timing(const struct dlasim_tier_ctx *run,
						   unsigned label, enum dlasim_tier_phase phase)
{
	if (label >= DLASIM_TIER_LABELS || (unsigned)phase >= DLASIM_TIER_PHASES)
		run_plugin_fail((struct dlasim_tier_ctx *)run, "timing(): no label %u phase %d",
				label, phase);
	return &run->timing[label][phase];
}

bool tier_ops_check(const void *p, const char **why)
{
	const struct dlasim_tier_ops *ops = p;

	if (ops->size < sizeof(size_t) + sizeof(enum dlasim_tier_arrangement)) {
		*why = "ops size too small";
		return false;
	}
	if ((unsigned)ops->arrangement > DLASIM_TIER_VERTICAL) {
		*why = "unknown tier arrangement";
		return false;
	}
	return true;
}

const struct dlasim_tier_services tier_services = {
	.size = sizeof(struct dlasim_tier_services),
	.op_count = svc_op_count,
	.op = svc_op,
	.tensor_count = svc_tensor_count,
	.tensor = svc_tensor,
	.system = svc_system,
	.next_use = svc_next_use,
	.tier1_free = mem_tier1_free,
	.evictable = svc_evictable,
	.lru_victim = mem_lru_victim,
	.belady_victim = mem_belady_victim,
	.evictable_after = mem_evictable_after,
	.promote = svc_promote,
	.evict = svc_evict,
	.make_room = svc_make_room,
	.timing = svc_timing,
	.split_approx = split_approx,
	.split_ratio = est_split_ratio,
	.window = est_window,
	.fetch_time = est_fetch_time,
	.best_io_tiers = est_best_io_tiers,
	.split_place = svc_split_place,
	.promote_essential = svc_promote_essential,
	.split_prepare = svc_split_prepare,
};
