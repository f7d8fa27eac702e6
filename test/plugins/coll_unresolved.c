/* Depends on a data symbol nobody defines: the dynamic loader refuses it. */
#include <dlasim/coll.h>

extern int dlasim_symbol_that_does_not_exist;

static int channels(void *state, const struct dlasim_coll_call *call)
{
	return dlasim_symbol_that_does_not_exist;
}

static int run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	return DLASIM_OK;
}

static const struct dlasim_coll_ops ops = { .size = sizeof(ops), .channels = channels, .run = run };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "unresolved",
	.description = "cannot be loaded",
	.ops = &ops,
};
