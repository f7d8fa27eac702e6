/* SPDX-License-Identifier: MIT */
/*
 * ring_flow: the ring algorithm as one flow per rank, ring and phase.
 *
 * The step-by-step ring makes 2(N-1) transfers per rank and ring, O(N^2)
 * in all.  Here each phase of N-1 steps is a single transfer of the N-1
 * chunks to the ring successor, preceded by the N-2 hop latencies the
 * steps would have paid, so that on an uncontended ring a phase lasts
 *   (N-1) * alpha + (N-1) * chunk / B
 * exactly as the step-by-step ring, with O(N) transfers.  Under contention
 * the flow shares links max-min fairly with the other traffic (memory
 * virtualization, other collectives) for the whole phase.
 *
 * Broadcast: the first pipeline piece goes hop by hop (it sets when each
 * rank starts forwarding), then the k-1 other pieces go as one flow per
 * hop; the hop latencies those pieces would have paid one by one,
 * (k - 2) * alpha, are added on arrival.  Two transfers per rank and ring.
 *
 * Option bidir=1 (as ring's): each phase sends half of its bytes to the
 * successor and half to the predecessor, after the hop latencies of each
 * direction; a broadcast stays one pipeline in the ring's direction.
 *
 * All the channels of a rank that sit on one host run in one actor
 * (run_channels): each phase starts on every such channel together, each
 * channel's flow after its own latencies, and the phase ends when all of
 * them have; on the generated machines a rank's rings have the same route,
 * so the channels would end together anyway.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/coll.h>

/* Channels of one rank driven by one actor (at most this many at once). */
#define MAX_CHANNELS 4096

/* Tags of the two directions. */
#define FORWARD 0
#define BACKWARD 1

struct flow_opts {
	bool bidir;
};

struct chan {
	struct dlasim_coll_ctx *ctx;
	struct dlasim_ring_plan plan;
	int next, prev;		/* ring successor and predecessor */
	double latency;		/* of the hop to next */
	double prev_latency;	/* of the hop to prev */
};

/* A phase's flow: when it leaves (after its hop latencies), where to. */
struct send {
	double start;
	struct dlasim_coll_ctx *ctx;
	int dst, tag;
	double bytes;
};

static int flow_channels(void *state, const struct dlasim_coll_call *call)
{
	(void)state;
	return call->rings;
}

static int by_latency(const void *a, const void *b)
{
	const struct chan *x = a, *y = b;

	return (x->latency > y->latency) - (x->latency < y->latency);
}

static int by_start(const void *a, const void *b)
{
	const struct send *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* Wait for comms[0..n) (each handle is consumed). */
static int wait_all(const struct dlasim_coll_services *s, struct dlasim_comm **comms, int n)
{
	return n ? s->wait_all(comms, n) : DLASIM_OK;
}

/*
 * One phase on every channel: channel k sends steps x chunk to its
 * successor after (steps - 1) of its hop latencies (the latencies the
 * steps would have paid) and receives as much from its predecessor; with
 * bidir, half of it each way, each after its own hop's latencies.
 * Receives are posted first: a flow starts when its sender is ready,
 * whatever its receiver's own hop latency, so a phase ends, on every
 * hop, after steps x (a + chunk / b) of that hop, and the slowest hop's
 * ends last: the step-by-step ring's steps x max(a + chunk / b) on rings
 * of unequal hops (the phase after it starts where the slowest ended).
 */
static int phase(const struct dlasim_host_api *host, const struct flow_opts *o,
		 struct chan *ch, int count, struct dlasim_comm **comms, struct send *out)
{
	const struct dlasim_coll_services *s = host->coll;
	double t0 = host->now();
	int n = 0, m = 0;

	for (int k = 0; k < count; k++) {
		double bytes = ch[k].plan.steps * ch[k].plan.chunk / (o->bidir ? 2 : 1);
		int wait = ch[k].plan.steps - 1;

		comms[n++] = s->irecv(ch[k].ctx, FORWARD);
		out[m++] = (struct send){ t0 + wait * ch[k].latency, ch[k].ctx, ch[k].next,
					  FORWARD, bytes };
		if (!o->bidir)
			continue;
		comms[n++] = s->irecv(ch[k].ctx, BACKWARD);
		out[m++] = (struct send){ t0 + wait * ch[k].prev_latency, ch[k].ctx, ch[k].prev,
					  BACKWARD, bytes };
	}
	qsort(out, m, sizeof(*out), by_start);
	for (int i = 0; i < m; i++) {
		if (out[i].start > host->now())
			host->sleep(out[i].start - host->now());
		comms[n++] = s->isend(out[i].ctx, out[i].dst, out[i].tag, out[i].bytes);
	}
	return wait_all(s, comms, n);
}

/* Every channel receives from its predecessor (unless root) while sending
 * to its successor (unless last), `bytes(plan)` under `tag`. */
static int relay(const struct dlasim_coll_services *s, struct chan *ch, int count,
		 struct dlasim_comm **comms, int tag, bool first)
{
	int n = 0;

	for (int k = 0; k < count; k++) {
		const struct dlasim_ring_plan *p = &ch[k].plan;
		double bytes = first ? p->chunk : p->share - p->chunk;

		if (p->distance > 0)
			comms[n++] = s->irecv(ch[k].ctx, tag);
		if (p->distance < p->ring_size - 1 && !first)
			comms[n++] = s->isend(ch[k].ctx, ch[k].next, tag, bytes);
	}
	if (wait_all(s, comms, n) != DLASIM_OK)
		return DLASIM_ERR;
	if (!first)
		return DLASIM_OK;
	/* The first piece is forwarded once it has arrived. */
	n = 0;
	for (int k = 0; k < count; k++)
		if (ch[k].plan.distance < ch[k].plan.ring_size - 1)
			comms[n++] = s->isend(ch[k].ctx, ch[k].next, tag, ch[k].plan.chunk);
	return wait_all(s, comms, n);
}

static int broadcast(const struct dlasim_host_api *host, struct chan *ch, int count,
		     struct dlasim_comm **comms)
{
	const struct dlasim_coll_services *s = host->coll;
	double end = 0;

	/* The first piece travels hop by hop, as in the pipeline... */
	if (relay(s, ch, count, comms, 0, true) != DLASIM_OK)
		return DLASIM_ERR;
	if (ch[0].plan.pieces < 2)
		return DLASIM_OK;
	/* ...then the other pieces follow as one flow per hop, and each
	 * channel ends after the latencies those pieces would have paid. */
	if (relay(s, ch, count, comms, 1, false) != DLASIM_OK)
		return DLASIM_ERR;
	for (int k = 0; k < count; k++)
		if (ch[k].plan.distance > 0 && (ch[k].plan.pieces - 2) * ch[k].latency > end)
			end = (ch[k].plan.pieces - 2) * ch[k].latency;
	if (end > 0)
		host->sleep(end);
	return DLASIM_OK;
}

static int flow_run_channels(void *state, const struct dlasim_host_api *host,
			     struct dlasim_coll_ctx *const *ctx, int count)
{
	const struct dlasim_coll_services *s = host->coll;
	struct dlasim_comm **comms = calloc(4 * (size_t)count, sizeof(*comms));
	struct send *sends = calloc(2 * (size_t)count, sizeof(*sends));
	struct chan *ch = calloc(count, sizeof(*ch));
	const struct flow_opts *o = state;
	int ret = DLASIM_ERR;

	if (!comms || !sends || !ch || count > MAX_CHANNELS)
		goto out;
	for (int k = 0; k < count; k++) {
		int ring = s->channel(ctx[k]), rank = s->rank(ctx[k]);

		ch[k].ctx = ctx[k];
		ch[k].next = s->ring_next(ctx[k], ring, rank);
		ch[k].latency = s->latency(ctx[k], ch[k].next);
		/* The way back is asked only when used (a ring may have none). */
		if (o->bidir) {
			ch[k].prev = s->ring_prev(ctx[k], ring, rank);
			ch[k].prev_latency = s->latency(ctx[k], ch[k].prev);
		}
		if (s->ring_plan(ctx[k], 0, &ch[k].plan) != DLASIM_OK)
			goto out;
	}
	qsort(ch, count, sizeof(*ch), by_latency);
	if (ch[0].plan.pieces) {
		ret = broadcast(host, ch, count, comms);
		goto out;
	}
	for (int i = 0; i < ch[0].plan.phases; i++)
		if (phase(host, o, ch, count, comms, sends) != DLASIM_OK)
			goto out;
	ret = DLASIM_OK;
out:
	free(comms);
	free(sends);
	free(ch);
	return ret;
}

static int flow_run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	return flow_run_channels(state, host, &ctx, 1);
}

/* Options: bidir=0 (the default: one direction, the paper's accounting)
 * or bidir=1. */
static int flow_init(const struct dlasim_host_api *host, const char *options, void **state,
		     char *err, size_t errlen)
{
	struct flow_opts *o;
	int bidir;

	if (!host->coll || !DLASIM_HAS_MEMBER(host->coll, struct dlasim_coll_services, ring_options)) {
		snprintf(err, errlen, "this dlasim does not parse ring options (too old)");
		return DLASIM_ERR;
	}
	if (host->coll->ring_options(options, &bidir, err, errlen) != DLASIM_OK)
		return DLASIM_ERR;
	o = calloc(1, sizeof(*o));
	if (!o) {
		snprintf(err, errlen, "out of memory");
		return DLASIM_ERR;
	}
	o->bidir = bidir;
	*state = o;
	return DLASIM_OK;
}

static void flow_fini(void *state)
{
	free(state);
}

static const struct dlasim_coll_ops flow_ops = {
	.size = sizeof(struct dlasim_coll_ops),
	.channels = flow_channels,
	.run = flow_run,
	.run_channels = flow_run_channels,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "ring_flow",
	.description = "ring algorithm as one flow per rank, ring and phase: O(N) transfers (bidir=1: half each way)",
	.init = flow_init,
	.fini = flow_fini,
	.ops = &flow_ops,
};
