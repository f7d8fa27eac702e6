/* A collective that leaves a transfer behind: in its first call rank 0
 * also sends rank 1 a terabyte that nobody receives and that rank 0 never
 * waits for; every call moves one byte from rank 0 to rank 1.  No later
 * call may meet the terabyte (each call has mailboxes of its own), so it
 * can never be received: the host names it as the plugin's error when the
 * call ends.  Options: "recv", rank 1 posts a receive on tag 1 that nobody
 * sends to instead; "unwaited", rank 0 sends rank 1 a byte on tag 1 and
 * rank 1 receives it, neither waiting in that call (matched, so no error;
 * each waits in its second call, so that no handle is lost). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <dlasim/coll.h>

enum mode { SEND, RECV, UNWAITED };

struct state {
	enum mode mode;
	bool called[2];		/* ranks 0 and 1 made their first call */
	struct dlasim_comm *unwaited[2];	/* of their first call */
};

static int channels(void *state, const struct dlasim_coll_call *call)
{
	return 1;
}

/* What rank `rank` leaves behind in its first call. */
static struct dlasim_comm *leave_behind(const struct dlasim_coll_services *s,
					struct dlasim_coll_ctx *ctx, enum mode mode, int rank)
{
	if (rank == 0 && mode == SEND)
		return s->isend(ctx, 1, 0, 1e12);
	if (rank == 0 && mode == UNWAITED)
		return s->isend(ctx, 1, 1, 1);
	if (rank == 1 && (mode == RECV || mode == UNWAITED))
		return s->irecv(ctx, 1);
	return NULL;
}

static int run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	const struct dlasim_coll_services *s = host->coll;
	struct state *st = state;
	int rank = s->rank(ctx);
	struct dlasim_comm *c;

	if (rank > 1)
		return DLASIM_OK;
	c = rank == 0 ? s->isend(ctx, 1, 0, 1) : s->irecv(ctx, 0);
	if (!st->called[rank]) {
		st->called[rank] = true;
		st->unwaited[rank] = leave_behind(s, ctx, st->mode, rank);
	} else if (st->mode == UNWAITED && st->unwaited[rank]) {
		s->wait(st->unwaited[rank]);
		st->unwaited[rank] = NULL;
	}
	return s->wait(c);
}

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	static struct state st;

	if (!options || !*options)
		st.mode = SEND;
	else if (strcmp(options, "recv") == 0)
		st.mode = RECV;
	else if (strcmp(options, "unwaited") == 0)
		st.mode = UNWAITED;
	else {
		snprintf(err, errlen, "options are 'recv' or 'unwaited', not '%s'", options);
		return DLASIM_ERR;
	}
	*state = &st;
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
