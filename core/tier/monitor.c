/* SPDX-License-Identifier: MIT */
/*
 * The request timing monitor (TM-Training Section 4.1): for each data
 * label and phase, the cycle count of the first time such data was fetched
 * (T1), the start of the op using it (T2) and its end (T3).  The DMA
 * controller and the MXU send it events; it keeps the first value of
 * each.  Claiming a label for an op is the monitor's comparator ("already
 * measured?"), done by the sender as the hardware would.
 */
#include "monitor.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>

#include "kernel/engine.h"

#define RING 16

static struct monitor_event ring[RING];
static unsigned ring_next;

static void send(struct dlasim_tier_ctx *run, int kind, unsigned label, int phase,
		 int op, double bytes)
{
	struct monitor_event *e = &ring[ring_next++ % RING];

	*e = (struct monitor_event){ kind, label, phase, op, simgrid_get_clock(), bytes };
	/* Synchronous: the monitor holds the event before the sender goes on,
	 * and has read it before a later event can reuse the slot. */
	sg_mailbox_put(run->monitor_mb, e, 0);
}

/* T1 is when the op's data of that label can all be in SRAM: the last
 * fetch of the label by the op that claimed it. */
void monitor_fetch(struct dlasim_tier_ctx *run, int op, const struct dlasim_tier_operand *in,
		   double bytes)
{
	int phase = run->g.ops[op].pub.phase, *claim = &run->timing_op[in->label][phase];

	if (*claim >= 0 && *claim != op)
		return;
	*claim = op;
	send(run, 1, in->label, phase, op, bytes);
}

void monitor_op(struct dlasim_tier_ctx *run, int op, int kind)
{
	const struct tg_op *o = &run->g.ops[op];
	unsigned sent = 0;

	for (int k = 0; k < o->pub.ninputs; k++) {
		unsigned label = o->in[k].label;

		if (run->timing_op[label][o->pub.phase] != op || (sent & (1u << label)))
			continue;
		sent |= 1u << label;
		send(run, kind, label, o->pub.phase, op, 0);
	}
}

static void monitor_main(void *arg)
{
	struct dlasim_tier_ctx *run = arg;

	for (;;) {
		struct monitor_event *e = sg_mailbox_get(run->monitor_mb);
		struct dlasim_tier_timing *r = &run->timing[e->label][e->phase];

		switch (e->kind) {
		case 1:
			r->t1_s = e->t;
			r->bytes += e->bytes;
			break;
		case 2:
			r->t2_s = e->t;
			break;
		default:
			r->t3_s = e->t;
			r->measured = true;
			break;
		}
	}
}

void monitor_start(struct dlasim_tier_ctx *run)
{
	for (int l = 0; l < DLASIM_TIER_LABELS; l++) {
		for (int p = 0; p < DLASIM_TIER_PHASES; p++) {
			run->timing[l][p].size = sizeof(run->timing[l][p]);
			run->timing_op[l][p] = -1;
		}
	}
	run->monitor_mb = sg_mailbox_by_name("tier.monitor");
	sg_actor_daemonize(dl_actor_start("monitor", run->chip, monitor_main, run));
}
