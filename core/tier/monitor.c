/* SPDX-License-Identifier: MIT */
/*
 * The request timing monitor (TM-Training Section 4.1).  A data type is
 * an operand of a kind of op (Table 4: Get Q's input, Get Q's weight, ...;
 * the same op in every layer is one kind): for each, the cycle count at
 * which the first op of that kind began fetching the operand (T1), started
 * on the MXUs (T2) and ended (T3), so that T_c = T2 - T1 is the window in
 * which that use is fetched.  The DMA controller and the MXU send it
 * events; it keeps the first value of each.  Claiming a record for an op
 * is the monitor's comparator ("already measured?"), done by the sender as
 * the hardware would.  It also keeps Table 4's coarser records, per 4-bit
 * label and phase, for the timing() service.
 */
#include "monitor.h"

#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>

#include "lib/diag.h"
#include "machine/engine.h"

#define RING 16

static struct monitor_event ring[RING];
static unsigned ring_next;

static void send(struct dlasim_tier_ctx *run, int kind, int label, int phase, int key,
		 double bytes)
{
	struct monitor_event *e = &ring[ring_next++ % RING];

	*e = (struct monitor_event){ kind, label, phase, key, simgrid_get_clock(), bytes };
	/* Synchronous: the monitor holds the event before the sender goes on,
	 * and has read it before a later event can reuse the slot. */
	sg_mailbox_put(run->monitor_mb, e, 0);
}

/* Claim a record for op `op` if no op has yet: true if it is op's. */
static bool claim(int *owner, int op)
{
	if (*owner >= 0 && *owner != op)
		return false;
	*owner = op;
	return true;
}

/* The DMA begins fetching operand `slot` of op `op`.  A label's T1 is when
 * the op's data of that label can all be in SRAM: its last fetch. */
void monitor_fetch(struct dlasim_tier_ctx *run, int op, int slot, double bytes)
{
	const struct tg_op *o = &run->g.ops[op];
	int phase = o->pub.phase, label = (int)o->in[slot].label;
	int key = use_key(run, op, slot);

	if (!claim(&run->use_owner[key], op))
		key = -1;
	if (!claim(&run->timing_op[label][phase], op))
		label = -1;
	if (key >= 0 || label >= 0)
		send(run, 1, label, phase, key, bytes);
}

/* Op `op` starts (kind 2) or ends (kind 3). */
void monitor_op(struct dlasim_tier_ctx *run, int op, int kind)
{
	const struct tg_op *o = &run->g.ops[op];
	unsigned sent = 0;

	for (int k = 0; k < o->pub.ninputs; k++) {
		int label = (int)o->in[k].label, key = use_key(run, op, k);

		if (run->timing_op[label][o->pub.phase] != op || (sent & (1u << label)))
			label = -1;
		else
			sent |= 1u << label;
		if (run->use_owner[key] != op)
			key = -1;
		if (key >= 0 || label >= 0)
			send(run, kind, label, o->pub.phase, key, 0);
	}
}

static void record(struct dlasim_tier_timing *r, const struct monitor_event *e)
{
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

static void monitor_main(void *arg)
{
	struct dlasim_tier_ctx *run = arg;

	for (;;) {
		struct monitor_event *e = sg_mailbox_get(run->monitor_mb);

		if (e->label >= 0)
			record(&run->timing[e->label][e->phase], e);
		if (e->key >= 0)
			record(&run->use_timing[e->key], e);
	}
}

int monitor_start(struct dlasim_tier_ctx *run)
{
	int n = run->g.nkinds * TG_MAX_IN;

	for (int l = 0; l < DLASIM_TIER_LABELS; l++) {
		for (int p = 0; p < DLASIM_TIER_PHASES; p++) {
			run->timing[l][p].size = sizeof(run->timing[l][p]);
			run->timing_op[l][p] = -1;
		}
	}
	run->use_timing = calloc((size_t)n, sizeof(*run->use_timing));
	run->use_owner = malloc((size_t)n * sizeof(int));
	if (!run->use_timing || !run->use_owner)
		return dl_err("out of memory");
	for (int i = 0; i < n; i++) {
		run->use_timing[i].size = sizeof(run->use_timing[i]);
		run->use_owner[i] = -1;
	}
	run->monitor_mb = sg_mailbox_by_name("tier.monitor");
	sg_actor_daemonize(dl_actor_start("monitor", run->chip, monitor_main, run));
	return 0;
}

static void write_record(FILE *f, const char *what, const char *kind, int slot, int label,
			 int phase, const struct dlasim_tier_timing *r)
{
	static const char *const phases[] = { "forward", "recompute", "backward" };

	fprintf(f, "%s,%s,%d,%d,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", what, kind, slot, label,
		phases[phase], r->t1_s, r->t2_s, r->t3_s, r->t2_s - r->t1_s, r->t3_s - r->t1_s,
		r->bytes);
}

void monitor_write(const struct dlasim_tier_ctx *run, FILE *f)
{
	fprintf(f, "record,kind,operand,label,phase,t1_s,t2_s,t3_s,tc_s,tr_s,bytes\n");
	for (int op = 0; op < run->g.nops; op++) {
		const struct tg_op *o = &run->g.ops[op];

		for (int k = 0; k < o->pub.ninputs; k++) {
			int key = use_key(run, op, k);

			if (run->use_owner[key] == op && run->use_timing[key].measured)
				write_record(f, "use", run->g.kinds[o->pub.kind], k, (int)o->in[k].label,
					     o->pub.phase, &run->use_timing[key]);
		}
	}
	for (int l = 0; l < DLASIM_TIER_LABELS; l++)
		for (int p = 0; p < DLASIM_TIER_PHASES; p++)
			if (run->timing[l][p].measured)
				write_record(f, "label", "", -1, l, p, &run->timing[l][p]);
}

void monitor_free(struct dlasim_tier_ctx *run)
{
	free(run->use_timing);
	free(run->use_owner);
	run->use_timing = NULL;
	run->use_owner = NULL;
}
