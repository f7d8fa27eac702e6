/*
 * A collective plugin written outside the dlasim tree, built against the
 * installed header only:
 *   cc -shared -fPIC $(pkg-config --cflags dlasim) -o one_ring.so external_coll.c
 * It runs the ring algorithm on ring 0 alone, with the whole buffer.
 */
#include <dlasim/coll.h>

static int channels(void *state, const struct dlasim_coll_call *call)
{
	return 1;
}

static int run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	const struct dlasim_coll_services *s = host->coll;
	const struct dlasim_coll_call *call = s->call(ctx);
	int next = s->ring_next(ctx, 0, s->rank(ctx));
	int steps = call->op == DLASIM_COLL_ALLREDUCE ? 2 * (call->ranks - 1) : call->ranks - 1;

	for (int i = 0; i < steps; i++) {
		struct dlasim_comm *c[2];

		c[0] = s->isend(ctx, next, 0, call->bytes / call->ranks);
		c[1] = s->irecv(ctx, 0);
		if (s->wait_all(c, 2) != DLASIM_OK)
			return DLASIM_ERR;
	}
	return DLASIM_OK;
}

static const struct dlasim_coll_ops ops = {
	.size = sizeof(struct dlasim_coll_ops),
	.channels = channels,
	.run = run,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "one_ring",
	.description = "ring algorithm on ring 0 only (an out-of-tree example)",
	.ops = &ops,
};
