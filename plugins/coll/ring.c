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
 *
 * Option bidir=1: every step sends half of its chunk to the successor
 * and half to the predecessor (two rings in opposite directions over the
 * same links, as NCCL runs them), so a full-duplex link carries data both
 * ways; a broadcast stays one pipeline in the ring's direction.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/coll.h>

/* Tags of the two directions. */
#define FORWARD 0
#define BACKWARD 1

struct ring_opts {
	bool bidir;
};

static int ring_channels(void *state, const struct dlasim_coll_call *call)
{
	(void)state;
	return call->rings;
}

/* One step: send `bytes` to next while receiving from prev, or with
 * bidir half each way. */
static int exchange(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx,
		    int next, int prev, double bytes, bool bidir)
{
	struct dlasim_comm *c[4];

	if (!bidir) {
		c[0] = s->isend(ctx, next, FORWARD, bytes);
		c[1] = s->irecv(ctx, FORWARD);
		return s->wait_all(c, 2);
	}
	c[0] = s->isend(ctx, next, FORWARD, bytes / 2);
	c[1] = s->isend(ctx, prev, BACKWARD, bytes / 2);
	c[2] = s->irecv(ctx, FORWARD);
	c[3] = s->irecv(ctx, BACKWARD);
	return s->wait_all(c, 4);
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
	const struct ring_opts *o = state;
	int ring = s->channel(ctx), rank = s->rank(ctx);
	int next = s->ring_next(ctx, ring, rank), prev = s->ring_prev(ctx, ring, rank);
	struct dlasim_ring_plan plan;

	if (s->ring_plan(ctx, 0, &plan) != DLASIM_OK)
		return DLASIM_ERR;
	if (plan.pieces)
		return broadcast(s, ctx, &plan, next);
	for (int i = 0; i < plan.phases * plan.steps; i++)
		if (exchange(s, ctx, next, prev, plan.chunk, o->bidir) != DLASIM_OK)
			return DLASIM_ERR;
	return DLASIM_OK;
}

/* Options: bidir=0 (the default: one direction, the paper's accounting)
 * or bidir=1. */
static int ring_init(const struct dlasim_host_api *host, const char *options, void **state,
		     char *err, size_t errlen)
{
	struct ring_opts *o;
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

static void ring_fini(void *state)
{
	free(state);
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
	.description = "ring algorithm on every declared ring at once, one transfer per step (bidir=1: half each way)",
	.init = ring_init,
	.fini = ring_fini,
	.ops = &ring_ops,
};
