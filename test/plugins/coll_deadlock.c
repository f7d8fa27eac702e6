/* Every rank waits for a message nobody sends. */
#include <dlasim/coll.h>

static int channels(void *state, const struct dlasim_coll_call *call)
{
	return 1;
}

static int run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	return host->coll->wait(host->coll->irecv(ctx, 7));
}

static const struct dlasim_coll_ops ops = { .size = sizeof(ops), .channels = channels, .run = run };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "deadlock",
	.description = "waits forever",
	.ops = &ops,
};
