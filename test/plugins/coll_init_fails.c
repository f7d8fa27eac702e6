/* A collective whose init refuses to start, with a reason. */
#include <stdio.h>

#include <dlasim/coll.h>

static int channels(void *state, const struct dlasim_coll_call *call)
{
	return 1;
}

static int run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	return DLASIM_OK;
}

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	snprintf(err, errlen, "no license for this algorithm");
	return DLASIM_ERR;
}

static const struct dlasim_coll_ops ops = { .size = sizeof(ops), .channels = channels, .run = run };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "refuses",
	.description = "init fails",
	.init = init,
	.ops = &ops,
};
