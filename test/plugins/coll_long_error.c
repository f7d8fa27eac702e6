/* A collective whose init fills the whole error buffer, without the
 * terminating NUL: the host must not read past it. */
#include <string.h>

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
	memset(err, 'E', errlen);
	return DLASIM_ERR;
}

static const struct dlasim_coll_ops ops = { .size = sizeof(ops), .channels = channels, .run = run };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "long_error",
	.description = "init's reason fills the buffer, no NUL",
	.init = init,
	.ops = &ops,
};
