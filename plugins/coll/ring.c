/* SPDX-License-Identifier: MIT */
/*
 * ring: the bandwidth-optimal ring algorithm, step by step, on every ring
 * the platform declares at once (the buffer is split evenly across rings).
 * All-reduce is a reduce-scatter then an all-gather, N-1 steps each; in
 * every step each rank sends one chunk of S/(R*N) bytes to its ring
 * successor and receives one from its predecessor.  Broadcast forwards the
 * buffer from the root along the ring in pieces of the host's pipeline
 * chunk.  Each (rank, ring) is an actor; every step is one simulated
 * transfer, so a collective costs O(N^2) transfers (see ring_flow).
 */
#include <stdbool.h>

#include <dlasim/coll.h>

static int ring_channels(void *state, const struct dlasim_coll_call *call)
{
	(void)state;
	return call->rings;
}

/* One step: send `bytes` to next while receiving from prev. */
static int exchange(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx,
		    int next, double bytes)
{
	struct dlasim_comm *c[2];

	c[0] = s->isend(ctx, next, 0, bytes);
	c[1] = s->irecv(ctx, 0);
	return s->wait_all(c, 2);
}

static int broadcast(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx,
		     const struct dlasim_ring_plan *plan, int next)
{
	bool last = plan->distance == plan->ring_size - 1;
	struct dlasim_comm *out = NULL;

	for (int k = 0; k < plan->pieces; k++) {
		if (plan->distance > 0 && s->wait(s->irecv(ctx, 0)) != DLASIM_OK)
			return DLASIM_ERR;
		if (last)
			continue;
		/* One DMA per channel: the previous piece must have left. */
		if (out && s->wait(out) != DLASIM_OK)
			return DLASIM_ERR;
		out = s->isend(ctx, next, 0, plan->chunk);
	}
	return out ? s->wait(out) : DLASIM_OK;
}

static int ring_run(void *state, const struct dlasim_host_api *host,
		    struct dlasim_coll_ctx *ctx)
{
	const struct dlasim_coll_services *s = host->coll;
	int ring = s->channel(ctx), rank = s->rank(ctx);
	int next = s->ring_next(ctx, ring, rank);
	struct dlasim_ring_plan plan;

	(void)state;
	if (s->ring_plan(ctx, 0, &plan) != DLASIM_OK)
		return DLASIM_ERR;
	if (plan.pieces)
		return broadcast(s, ctx, &plan, next);
	for (int i = 0; i < plan.phases * plan.steps; i++)
		if (exchange(s, ctx, next, plan.chunk) != DLASIM_OK)
			return DLASIM_ERR;
	return DLASIM_OK;
}

static const struct dlasim_coll_ops ring_ops = {
	.size = sizeof(struct dlasim_coll_ops),
	.channels = ring_channels,
	.run = ring_run,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "ring",
	.description = "ring algorithm on every declared ring at once, one transfer per step",
	.ops = &ring_ops,
};
