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
 * All the channels of a rank that sit on one host run in one actor
 * (run_channels): each phase starts on every such channel together, each
 * channel's flow after its own latencies, and the phase ends when all of
 * them have; on the generated machines a rank's rings have the same route,
 * so the channels would end together anyway.
 */
#include <stdbool.h>
#include <stdlib.h>

#include <dlasim/coll.h>

/* Channels of one rank driven by one actor (at most this many at once). */
#define MAX_CHANNELS 4096

struct chan {
	struct dlasim_coll_ctx *ctx;
	struct dlasim_ring_plan plan;
	int next;		/* ring successor */
	double latency;		/* of the hop to it */
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

/* Wait for comms[0..n) (each handle is consumed). */
static int wait_all(const struct dlasim_coll_services *s, struct dlasim_comm **comms, int n)
{
	return n ? s->wait_all(comms, n) : DLASIM_OK;
}

/*
 * One phase on every channel: channel k sends steps x chunk to its
 * successor after (steps - 1) of its hop latencies (the latencies the
 * steps would have paid) and receives as much from its predecessor.
 * ch[] is sorted by latency, so the flows start in order.
 */
static int phase(const struct dlasim_host_api *host, struct chan *ch, int count,
		 struct dlasim_comm **comms)
{
	const struct dlasim_coll_services *s = host->coll;
	double t0 = host->now();
	int n = 0;

	for (int k = 0; k < count; k++) {
		double start = t0 + (ch[k].plan.steps - 1) * ch[k].latency;

		if (start > host->now())
			host->sleep(start - host->now());
		comms[n++] = s->isend(ch[k].ctx, ch[k].next, 0, ch[k].plan.steps * ch[k].plan.chunk);
		comms[n++] = s->irecv(ch[k].ctx, 0);
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
	struct dlasim_comm **comms = calloc(2 * (size_t)count, sizeof(*comms));
	struct chan *ch = calloc(count, sizeof(*ch));
	int ret = DLASIM_ERR;

	(void)state;
	if (!comms || !ch || count > MAX_CHANNELS)
		goto out;
	for (int k = 0; k < count; k++) {
		ch[k].ctx = ctx[k];
		ch[k].next = s->ring_next(ctx[k], s->channel(ctx[k]), s->rank(ctx[k]));
		ch[k].latency = s->latency(ctx[k], ch[k].next);
		if (s->ring_plan(ctx[k], 0, &ch[k].plan) != DLASIM_OK)
			goto out;
	}
	qsort(ch, count, sizeof(*ch), by_latency);
	if (ch[0].plan.pieces) {
		ret = broadcast(host, ch, count, comms);
		goto out;
	}
	for (int i = 0; i < ch[0].plan.phases; i++)
		if (phase(host, ch, count, comms) != DLASIM_OK)
			goto out;
	ret = DLASIM_OK;
out:
	free(comms);
	free(ch);
	return ret;
}

static int flow_run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	return flow_run_channels(state, host, &ctx, 1);
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
	.description = "ring algorithm as one flow per rank, ring and phase: O(N) transfers",
	.ops = &flow_ops,
};
