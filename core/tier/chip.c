/* SPDX-License-Identifier: MIT */
/*
 * The chip's actors.  The DMA controller fetches the operands of op i into
 * on-chip SRAM while the MXUs compute op i-1 (one op of look-ahead: the
 * SRAM holds the operands of the op computing and of the next one); the
 * MXUs start op i once its operands are in and the results of op i-2 have
 * left (two output buffers); a writer actor stores each op's results in
 * the tiers where the placement manager puts them.  Operands are fetched
 * as many times as Algorithm 2 says; each fetch reads a tensor's tier-1
 * and tier-2 shares at once.
 */
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "diag.h"
#include "engine.h"
#include "npu.h"
#include "run.h"
#include "xfer.h"

static struct dlasim_tier_tensor *T(struct dlasim_tier_ctx *run, int id)
{
	return &run->g.t[id].pub;
}

static bool readable(struct dlasim_tier_ctx *run, int id)
{
	return run->ts[id].written && T(run, id)->moving_bytes <= 0;
}

static void fetch(struct dlasim_tier_ctx *run, int op, const struct dlasim_tier_operand *in,
		  struct xfer_group *group)
{
	struct dlasim_tier_tensor *t = T(run, in->tensor);
	double req = t->bytes * in->fraction * in->fetches;
	double s1 = t->bytes > 0 ? t->tier1_bytes / t->bytes : 1, b1, b2;

	if (run->sys.arrangement == DLASIM_TIER_HBM_ONLY || s1 > 1)
		s1 = 1;
	b1 = req * s1;
	b2 = req - b1;
	monitor_fetch(run, op, in, req);
	t->last_access_s = simgrid_get_clock();
	t->promoted_unused = false;
	run->res->tier1_read_bytes += b1;
	if (run->sys.arrangement == DLASIM_TIER_VERTICAL) {
		/* What tier 1 could not hold passes through it. */
		run->res->tier1_read_bytes += b2;
		mem_account_move(run, b2, true);
	} else {
		run->res->tier2_read_bytes += b2;
	}
	xfer_start(run->hbm, run->chip, b1, NULL, NULL, group);
	xfer_start(run->flash, run->chip, b2, NULL, NULL, group);
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
		fetch(run, op, &o->in[k], &group);
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

static void writer_main(void *arg)
{
	struct writer *wr = arg;
	struct dlasim_tier_ctx *run = wr->run;
	const struct tg_op *o = &run->g.ops[wr->op];

	struct xfer_group group;

	xfer_group_init(&group);
	for (int k = 0; k < o->pub.noutputs; k++) {
		int id = o->out[k];
		double b = T(run, id)->bytes, a = manager_place(run, id);

		run->res->tier1_write_bytes += a;
		if (run->sys.arrangement == DLASIM_TIER_VERTICAL) {
			/* Written through tier 1 when it has no room. */
			run->res->tier1_write_bytes += b - a;
			mem_account_move(run, b - a, false);
		} else {
			run->res->tier2_write_bytes += b - a;
		}
		xfer_start(run->chip, run->hbm, a, NULL, NULL, &group);
		xfer_start(run->chip, run->flash, b - a, NULL, NULL, &group);
	}
	xfer_group_wait(&group);
	xfer_group_destroy(&group);
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

static void finish_op(struct dlasim_tier_ctx *run, int i)
{
	const struct tg_op *o = &run->g.ops[i];
	struct writer *wr;

	for (int k = 0; k < o->pub.ninputs; k++)
		run->ts[o->in[k].tensor].pins--;
	for (int k = 0; k < o->pub.ninputs; k++)
		if (T(run, o->in[k].tensor)->last_use == i)
			mem_release(run, o->in[k].tensor);
	for (int k = 0; k < o->pub.noutputs; k++)
		run->ts[o->out[k]].pins++;
	wr = &run->writers_of[i];
	*wr = (struct writer){ run, i };
	dl_actor_start("writer", run->chip, writer_main, wr);
}

static void mxu_main(void *arg)
{
	struct dlasim_tier_ctx *run = arg;

	for (int i = 0; i < run->g.nops; i++) {
		const struct tg_op *o = &run->g.ops[i];

		RUN_WAIT_UNTIL(run, run->ready[i] && (i < 2 || run->written[i - 2]));
		run->t2[i] = simgrid_get_clock();
		run_changed(run);
		monitor_op(run, i, 2);
		if (o->pub.compute_s > 0)
			sg_actor_execute(o->pub.compute_s * NPU_CLOCK_HZ);
		run->t3[i] = simgrid_get_clock();
		monitor_op(run, i, 3);
		finish_op(run, i);
		run_changed(run);
	}
}

void chip_start(struct dlasim_tier_ctx *run)
{
	dl_actor_start("dma", run->chip, dma_main, run);
	dl_actor_start("mxu", run->chip, mxu_main, run);
}
