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
 */
#include <dlasim/coll.h>

static int flow_channels(void *state, const struct dlasim_coll_call *call)
{
	(void)state;
	return call->rings;
}

static int phase(const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx,
		 int next, int steps, double chunk)
{
	const struct dlasim_coll_services *s = host->coll;
	struct dlasim_comm *c[2];

	host->sleep((steps - 1) * s->latency(ctx, next));
	c[0] = s->isend(ctx, next, 0, steps * chunk);
	c[1] = s->irecv(ctx, 0);
	return s->wait_all(c, 2);
}

/* Receive from the predecessor (unless root) while sending to the
 * successor (unless last), both `bytes` under `tag`. */
static int relay(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx,
		 const struct dlasim_ring_plan *plan, int next, int tag, double bytes)
{
	struct dlasim_comm *c[2];
	int n = 0;

	if (plan->distance > 0)
		c[n++] = s->irecv(ctx, tag);
	if (plan->distance < plan->ring_size - 1)
		c[n++] = s->isend(ctx, next, tag, bytes);
	return s->wait_all(c, n);
}

static int broadcast(const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx,
		     const struct dlasim_ring_plan *plan, int next)
{
	const struct dlasim_coll_services *s = host->coll;
	double rest = plan->share - plan->chunk;

	/* The first piece travels hop by hop, as in the pipeline... */
	if (plan->distance > 0 && s->wait(s->irecv(ctx, 0)) != DLASIM_OK)
		return DLASIM_ERR;
	if (plan->distance < plan->ring_size - 1 &&
	    s->wait(s->isend(ctx, next, 0, plan->chunk)) != DLASIM_OK)
		return DLASIM_ERR;
	if (plan->pieces < 2)
		return DLASIM_OK;
	/* ...then the other pieces follow as one flow per hop. */
	if (relay(s, ctx, plan, next, 1, rest) != DLASIM_OK)
		return DLASIM_ERR;
	if (plan->distance > 0)
		host->sleep((plan->pieces - 2) * s->latency(ctx, next));
	return DLASIM_OK;
}

static int flow_run(void *state, const struct dlasim_host_api *host,
		    struct dlasim_coll_ctx *ctx)
{
	const struct dlasim_coll_services *s = host->coll;
	int next = s->ring_next(ctx, s->channel(ctx), s->rank(ctx));
	struct dlasim_ring_plan plan;

	(void)state;
	if (s->ring_plan(ctx, 0, &plan) != DLASIM_OK)
		return DLASIM_ERR;
	if (plan.pieces)
		return broadcast(host, ctx, &plan, next);
	for (int i = 0; i < plan.phases; i++)
		if (phase(host, ctx, next, plan.steps, plan.chunk) != DLASIM_OK)
			return DLASIM_ERR;
	return DLASIM_OK;
}

static const struct dlasim_coll_ops flow_ops = {
	.size = sizeof(struct dlasim_coll_ops),
	.channels = flow_channels,
	.run = flow_run,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "ring_flow",
	.description = "ring algorithm as one flow per rank, ring and phase: O(N) transfers",
	.ops = &flow_ops,
};
