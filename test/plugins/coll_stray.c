/* A collective that leaves a transfer behind: in its first call rank 0
 * also sends rank 1 a terabyte that nobody receives and that rank 0 never
 * waits for; every call moves one byte from rank 0 to rank 1.  No later
 * call may meet the terabyte (each call has mailboxes of its own), so it
 * can never be received: the host names it as the plugin's error when the
 * call ends. */
#include <stdbool.h>

#include <dlasim/coll.h>

static int channels(void *state, const struct dlasim_coll_call *call)
{
	return 1;
}

static int run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	const struct dlasim_coll_services *s = host->coll;
	bool *strayed = state;
	struct dlasim_comm *c;

	switch (s->rank(ctx)) {
	case 0:
		c = s->isend(ctx, 1, 0, 1);
		if (!*strayed) {
			*strayed = true;
			s->isend(ctx, 1, 0, 1e12);
		}
		return s->wait(c);
	case 1:
		return s->wait(s->irecv(ctx, 0));
	default:
		return DLASIM_OK;
	}
}

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	static bool strayed;

	*state = &strayed;
	return DLASIM_OK;
}

static const struct dlasim_coll_ops ops = { .size = sizeof(ops), .channels = channels, .run = run };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "stray",
	.description = "leaves an unreceived transfer behind in its first call",
	.init = init,
	.ops = &ops,
};
