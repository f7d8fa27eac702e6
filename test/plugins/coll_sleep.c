/* A collective that asks the host to sleep a duration given as its
 * option ("inf", "nan", "-inf"): the host must stop the run and name it,
 * never hand the duration to SimGrid. */
#include <stdlib.h>

#include <dlasim/coll.h>

static int channels(void *state, const struct dlasim_coll_call *call)
{
	return 1;
}

static int run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	host->sleep(*(double *)state);
	return DLASIM_OK;
}

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	static double seconds;

	seconds = strtod(options ? options : "inf", NULL);
	*state = &seconds;
	return DLASIM_OK;
}

static const struct dlasim_coll_ops ops = { .size = sizeof(ops), .channels = channels, .run = run };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "sleeper",
	.description = "sleeps the duration given as its option",
	.init = init,
	.ops = &ops,
};
