/*
 * Calls a function nobody defines, from a callback: the dynamic loader
 * binds function calls lazily, so only binding every symbol when the
 * plugin is opened finds it before the run starts.  (Built without -z defs.)
 */
#include <dlasim/coll.h>

extern int dlasim_function_that_does_not_exist(int);

static int channels(void *state, const struct dlasim_coll_call *call)
{
	return dlasim_function_that_does_not_exist(call->ranks);
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
	.name = "lazy",
	.description = "calls a function nobody defines",
	.ops = &ops,
};
