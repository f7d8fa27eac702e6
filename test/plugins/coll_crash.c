/* A collective that crashes: rank 1 writes to an unmapped address inside
 * run(), an actor of the simulation; with options "abort" it calls abort(),
 * with "fpe" it divides by zero. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>

#include <dlasim/coll.h>

static volatile uintptr_t unmapped = 16;	/* read at run time: no folding */

static int channels(void *state, const struct dlasim_coll_call *call)
{
	return 1;
}

static int run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	const int *how = state;
	/* Not NULL: a sanitizer would report a null store before it faults. */
	volatile int *nowhere = (volatile int *)unmapped;

	if (host->coll->rank(ctx) != 1)
		return DLASIM_OK;
	if (*how == 1)
		abort();
	if (*how == 2)
		raise(SIGFPE);
	*nowhere = 1;
	return DLASIM_OK;
}

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	static int how;

	how = options && !strcmp(options, "abort") ? 1 : options && !strcmp(options, "fpe") ? 2 : 0;
	*state = &how;
	return DLASIM_OK;
}

static const struct dlasim_coll_ops ops = { .size = sizeof(ops), .channels = channels, .run = run };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "crash",
	.description = "rank 1 crashes (SIGSEGV, or abort() or SIGFPE by option)",
	.init = init,
	.ops = &ops,
};
