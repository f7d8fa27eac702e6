/* SPDX-License-Identifier: MIT */
/*
 * The chip's actors.  The DMA controller fetches one pass of the operands
 * of op i into on-chip SRAM while the MXUs compute op i-1 (one op of
 * look-ahead); the MXUs start op i once that pass is in and the results of
 * op i-2 have left (two output buffers).  An operand that Algorithm 2
 * fetches N times streams its other N - 1 passes while op i computes, and
 * op i ends when both are done.  A writer actor stores each op's results
 * as the MXUs produce them, where the placement manager puts them.
 *
 * A read takes a tensor's tier-1 and tier-2 shares at once.  Bytes being
 * moved between the tiers are read from where they come from (a move
 * copies, the source stays valid until it ends); a vertical tier 1 must
 * hold what is read, so there reads wait for the fills (not for
 * write-backs: their bytes are still in tier 1).
 */
#include "chip.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "manager.h"
#include "mem.h"
#include "monitor.h"
#include "tmgraph/npu.h"
#include "xfer.h"

static struct dlasim_tier_tensor *T(struct dlasim_tier_ctx *run, int id)
{
	return &run->g.t[id].pub;
}

static bool vertical(const struct dlasim_tier_ctx *run)
{
	return run->sys.arrangement == DLASIM_TIER_VERTICAL;
}

static bool readable(struct dlasim_tier_ctx *run, int id)
{
	return run->ts[id].written && (!vertical(run) || run->ts[id].promoting <= 0);
}

/* A read from tier 1 of bytes still being promoted: it starts when they
 * have landed. */
struct late_read {
	struct dlasim_tier_ctx *run;
	int id;
	double bytes;
	struct xfer_group *group;
};

/* Also runs when a failed simulation kills the actor. */
static void late_read_exit(int failed, void *arg)
{
	free(arg);
}

static void late_read_main(void *arg)
{
	struct late_read *lr = arg;
	struct dlasim_tier_ctx *run = lr->run;

	sg_actor_on_exit(late_read_exit, lr);
	RUN_WAIT_UNTIL(run, run->ts[lr->id].promoting <= 0);
	xfer_start(run->hbm, run->chip, lr->bytes, NULL, NULL, lr->group);
	xfer_group_release(lr->group);
}

static void read_late(struct dlasim_tier_ctx *run, int id, double bytes,
		      struct xfer_group *group)
{
	struct late_read *lr = malloc(sizeof(*lr));

	if (!lr) {
		dl_err("out of memory");
		dl_sim_fail();
	}
	*lr = (struct late_read){ run, id, bytes, group };
	xfer_group_hold(group);
	dl_actor_start("late-read", run->chip, late_read_main, lr);
}

/* Read operand `in` of op `o` from where its bytes are now: one pass
 * (`stream` false) or the other passes.  The other passes re-read the
 * tier-1 share each time (bytes being promoted once they have landed)
 * and the tier-2 share unless a core's SRAM holds it.  Through tier 1,
 * the first pass of a use refills tier 1 with the missing bytes (one
 * migration per use) and the other passes stream them through it. */
static void read_operand(struct dlasim_tier_ctx *run, const struct tg_op *o,
			 const struct dlasim_tier_operand *in, bool stream,
			 struct xfer_group *group)
{
	struct dlasim_tier_tensor *t = T(run, in->tensor);
	const struct tstate *st = &run->ts[in->tensor];
	double pass = t->bytes * in->fraction, s1 = 1, sp = 0, b1, bp, b2;
	double n = stream ? in->fetches - 1 : 1, n2 = n;
	bool staged = mem_through_tier1(run);

	if (run->sys.arrangement != DLASIM_TIER_HBM_ONLY && t->bytes > 0) {
		s1 = fmin(1, (t->tier1_bytes + st->demoting - st->kept) / t->bytes);
		sp = stream && !vertical(run) ? fmin(1 - s1, st->promoting / t->bytes) : 0;
	}
	if (stream)
		n2 = tg_tier2_fetches(o, in, (1 - s1 - sp) * t->bytes) - 1;
	b1 = pass * s1 * n;
	bp = pass * sp * n;
	b2 = pass * (1 - s1 - sp) * n2;
	run->res->tier1_read_bytes += b1 + bp;
	xfer_start(run->hbm, run->chip, b1, NULL, NULL, group);
	if (staged) {
		run->res->tier1_read_bytes += b2;
		if (stream)
			run->res->tier2_read_bytes += b2;
		else
			mem_account_move(run, b2, true);
		xfer_start(run->flash, run->hbm, b2, NULL, NULL, group);
		xfer_start(run->hbm, run->chip, b2, NULL, NULL, group);
	} else {
		run->res->tier2_read_bytes += b2;
		xfer_start(run->flash, run->chip, b2, NULL, NULL, group);
	}
	if (bp > 0)
		read_late(run, in->tensor, bp, group);
}

/* The first pass of an operand, before the op starts. */
static void fetch(struct dlasim_tier_ctx *run, int op, int slot, struct xfer_group *group)
{
	const struct dlasim_tier_operand *in = &run->g.ops[op].in[slot];
	struct dlasim_tier_tensor *t = T(run, in->tensor);

	monitor_fetch(run, op, slot, t->bytes * in->fraction * in->fetches);
	t->last_access_s = simgrid_get_clock();
	t->promoted_unused = false;
	read_operand(run, &run->g.ops[op], in, false, group);
}

/* An operand not fetched yet whose data can be read now, or -1. */
static int next_readable(struct dlasim_tier_ctx *run, const struct tg_op *o, const bool *issued)
{
	for (int k = 0; k < o->pub.ninputs; k++)
		if (!issued[k] && readable(run, o->in[k].tensor))
			return k;
	return -1;
}

static void fetch_operands(struct dlasim_tier_ctx *run, int op)
{
	const struct tg_op *o = &run->g.ops[op];
	bool issued[TG_MAX_IN] = { false };
	struct xfer_group group;

	xfer_group_init(&group);
	for (int left = o->pub.ninputs; left > 0; left--) {
		int k;

		RUN_WAIT_UNTIL(run, (k = next_readable(run, o, issued)) >= 0);
		fetch(run, op, k, &group);
		issued[k] = true;
	}
	xfer_group_wait(&group);
	xfer_group_destroy(&group);
}

static void dma_main(void *arg)
{
	struct dlasim_tier_ctx *run = arg;

	for (int i = 0; i < run->g.nops; i++) {
		const struct tg_op *o = &run->g.ops[i];

		RUN_WAIT_UNTIL(run, i == 0 || run->t2[i - 1] >= 0);
		for (int k = 0; k < o->pub.ninputs; k++)
			run->ts[o->in[k].tensor].pins++;
		manager_prepare(run, i);
		fetch_operands(run, i);
		run->ready[i] = true;
		run_changed(run);
	}
}

/* Store the results of an op as it produces them; they count as written
 * when the transfers are done and the op has ended. */
static void writer_main(void *arg)
{
	struct writer *wr = arg;
	struct dlasim_tier_ctx *run = wr->run;
	const struct tg_op *o = &run->g.ops[wr->op];
	struct xfer_group group;

	xfer_group_init(&group);
	manager_place(run, wr->op);
	for (int k = 0; k < o->pub.noutputs; k++) {
		int id = o->out[k];
		double b = T(run, id)->bytes, a = T(run, id)->tier1_bytes;

		run->res->tier1_write_bytes += a;
		xfer_start(run->chip, run->hbm, a, NULL, NULL, &group);
		if (mem_through_tier1(run)) {
			/* Written to tier 2 through tier 1. */
			run->res->tier1_write_bytes += b - a;
			mem_account_move(run, b - a, false);
			xfer_start(run->chip, run->hbm, b - a, NULL, NULL, &group);
			xfer_start(run->hbm, run->flash, b - a, NULL, NULL, &group);
		} else {
			run->res->tier2_write_bytes += b - a;
			xfer_start(run->chip, run->flash, b - a, NULL, NULL, &group);
		}
	}
	xfer_group_wait(&group);
	xfer_group_destroy(&group);
	RUN_WAIT_UNTIL(run, run->t3[wr->op] >= 0);
	for (int k = 0; k < o->pub.noutputs; k++) {
		int id = o->out[k];

		mem_written(run, id);
		run->ts[id].pins--;
		if (T(run, id)->first_use == DLASIM_TIER_NEVER)
			mem_release(run, id);
	}
	run->written[wr->op] = true;
	if (simgrid_get_clock() > run->end_s)
		run->end_s = simgrid_get_clock();
	run_changed(run);
}

static void start_writer(struct dlasim_tier_ctx *run, int i)
{
	const struct tg_op *o = &run->g.ops[i];
	struct writer *wr = &run->writers_of[i];

	for (int k = 0; k < o->pub.noutputs; k++)
		run->ts[o->out[k]].pins++;
	*wr = (struct writer){ run, i };
	dl_actor_start("writer", run->chip, writer_main, wr);
}

/* Compute op i while its operands' other passes stream in. */
static void compute(struct dlasim_tier_ctx *run, int i)
{
	const struct tg_op *o = &run->g.ops[i];
	struct xfer_group group;

	xfer_group_init(&group);
	for (int k = 0; k < o->pub.ninputs; k++)
		if (o->in[k].fetches > 1)
			read_operand(run, o, &o->in[k], true, &group);
	if (o->pub.compute_s > 0)
		sg_actor_execute(o->pub.compute_s * run->clock_hz);
	xfer_group_wait(&group);
	xfer_group_destroy(&group);
}

static void finish_op(struct dlasim_tier_ctx *run, int i)
{
	const struct tg_op *o = &run->g.ops[i];

	for (int k = 0; k < o->pub.ninputs; k++)
		run->ts[o->in[k].tensor].pins--;
	for (int k = 0; k < o->pub.ninputs; k++)
		if (T(run, o->in[k].tensor)->last_use == i)
			mem_release(run, o->in[k].tensor);
}

/* What op i cost, for the plugin's op_done(): the bytes moved and the
 * energy spent since the op before it ended, and the time the MXUs waited
 * for it (after the op before them, and beyond its own MXU time). */
static void feedback(struct dlasim_tier_ctx *run, int i)
{
	const struct tg_op *o = &run->g.ops[i];
	struct tier_result *r = run->res, d = { 0 };
	double now = run->t3[i], *last = run->fb_bytes;
	double counts[6] = { r->promoted_bytes, r->demoted_bytes, r->tier1_read_bytes,
			     r->tier2_read_bytes, r->tier1_write_bytes, r->tier2_write_bytes };
	struct notice n = { .op_done = true, .id = i };
	double waited = 0;

	if (!run->ops->op_done)
		return;
	d.promoted_bytes = counts[0] - last[0];
	d.demoted_bytes = counts[1] - last[1];
	d.tier1_read_bytes = counts[2] - last[2];
	d.tier2_read_bytes = counts[3] - last[3];
	d.tier1_write_bytes = counts[4] - last[4];
	d.tier2_write_bytes = counts[5] - last[5];
	memcpy(last, counts, sizeof(counts));
	run_energy(run, &d, o->pub.macs, o->sram_bytes, fmax(0, now - run->fb_end_s));
	run->fb_end_s = fmax(run->fb_end_s, now);
	if (!o->network)
		waited = fmax(0, run->t2[i] - (o->prev_mxu >= 0 ? run->t3[o->prev_mxu] : 0)) +
			 fmax(0, now - run->t2[i] - o->pub.compute_s);
	n.fb = (struct dlasim_tier_feedback){
		.size = sizeof(n.fb), .start_s = run->t2[i], .end_s = now,
		.compute_s = o->pub.compute_s, .stall_s = waited, .energy_j = d.energy_j,
		.promoted_bytes = d.promoted_bytes, .demoted_bytes = d.demoted_bytes,
		.tier1_read_bytes = d.tier1_read_bytes, .tier2_read_bytes = d.tier2_read_bytes,
		.tier1_write_bytes = d.tier1_write_bytes, .tier2_write_bytes = d.tier2_write_bytes,
	};
	run_notify(run, &n);
}

/* A collective's bytes cross the inter-chip network while the MXUs go on;
 * it ends, and frees what it read, when they have. */
struct collective {
	struct dlasim_tier_ctx *run;
	int op;
};

static void collective_exit(int failed, void *arg)
{
	free(arg);
}

static void collective_main(void *arg)
{
	struct collective *c = arg;
	struct dlasim_tier_ctx *run = c->run;
	struct xfer_group group;

	sg_actor_on_exit(collective_exit, c);
	xfer_group_init(&group);
	xfer_start(run->ici, run->chip, run->g.ops[c->op].pub.network_bytes, NULL, NULL, &group);
	xfer_group_wait(&group);
	xfer_group_destroy(&group);
	run->t3[c->op] = simgrid_get_clock();
	monitor_op(run, c->op, 3);
	feedback(run, c->op);
	finish_op(run, c->op);
	run_changed(run);
}

static void start_collective(struct dlasim_tier_ctx *run, int i)
{
	struct collective *c = malloc(sizeof(*c));

	if (!c) {
		dl_err("out of memory");
		dl_sim_fail();
	}
	*c = (struct collective){ run, i };
	dl_actor_start("collective", run->chip, collective_main, c);
}

/* The MXUs have two output buffers: an op starts once the results of the
 * op two before it (collectives aside, which write from the network)
 * have left. */
static bool output_buffer_free(const struct dlasim_tier_ctx *run, const struct tg_op *o)
{
	int p = o->prev_mxu, pp = p >= 0 ? run->g.ops[p].prev_mxu : -1;

	return o->network || pp < 0 || run->written[pp];
}

static void mxu_main(void *arg)
{
	struct dlasim_tier_ctx *run = arg;

	for (int i = 0; i < run->g.nops; i++) {
		const struct tg_op *o = &run->g.ops[i];

		RUN_WAIT_UNTIL(run, run->ready[i] && output_buffer_free(run, o));
		run->t2[i] = simgrid_get_clock();
		/* The plugin hears of the start before the DMA does. */
		if (o->stream_bytes > 0)
			manager_start_op(run, i);
		run_changed(run);
		monitor_op(run, i, 2);
		start_writer(run, i);
		if (o->network) {
			start_collective(run, i);
			continue;
		}
		compute(run, i);
		run->t3[i] = simgrid_get_clock();
		monitor_op(run, i, 3);
		feedback(run, i);
		finish_op(run, i);
		run_changed(run);
	}
}

void chip_start(struct dlasim_tier_ctx *run)
{
	dl_actor_start("dma", run->chip, dma_main, run);
	dl_actor_start("mxu", run->chip, mxu_main, run);
}
