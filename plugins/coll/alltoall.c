/* SPDX-License-Identifier: MIT */
/*
 * alltoall: the all-to-all exchange (docs/collectives.md, *All-to-all*).
 * Every rank holds S bytes, S/N for each rank; it sends each other rank
 * its block and keeps its own.  Three schedules (option algo=):
 *
 *   pairwise  N-1 steps; in step k rank r sends its block to r+k and
 *             receives from r-k (Thakur, Rabenseifner and Gropp,
 *             IJHPCA 2005), for fabrics where every device reaches every
 *             other: (N-1)(a + S/(N B));
 *   ring      on each declared ring (S/R each), N-1 steps; in step k
 *             every rank passes its successor the N-k blocks not yet
 *             delivered, so a block travels as many hops as its
 *             destination is away: (N-1) a + (N-1)/2 S/B_ring;
 *   hier      on scale-out platforms (G ranks per node, K nodes): an
 *             exchange inside each node in which rank i hands local rank
 *             j the K blocks bound for index j of every node (S/G per
 *             peer), then one across the nodes among the ranks of equal
 *             index (S/K per peer), each pairwise where every peer is
 *             reached and as a ring otherwise;
 *   auto      (default) hier on scale-out platforms, pairwise where this
 *             rank reaches every other, ring otherwise.
 *
 * Every step is one transfer per rank, tagged by its phase and step so
 * that a message meets only the receive of its own step.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/coll.h>

enum algo { ALGO_AUTO, ALGO_PAIRWISE, ALGO_RING, ALGO_HIER };

static const char *const algo_names[] = { "auto", "pairwise", "ring", "hier" };

struct a2a_opts {
	enum algo algo;
};

/* The ranks taking part in one exchange, as a list of peers in a fixed
 * order (the same on every member): ring order for a ring. */
struct group {
	const int *rank;
	int size, me;	/* members, this rank's index */
};

static int a2a_supports(void *state, enum dlasim_coll_op op)
{
	(void)state;
	return op == DLASIM_COLL_ALLTOALL;
}

static enum algo pick(const struct a2a_opts *o, const struct dlasim_coll_services *s,
		      struct dlasim_coll_ctx *ctx)
{
	const struct dlasim_coll_call *call = s->call(ctx);

	if (o->algo != ALGO_AUTO)
		return o->algo;
	if (s->nodes(ctx) > 1)
		return ALGO_HIER;
	for (int r = 0; r < call->ranks; r++)
		if (r != s->rank(ctx) && !s->reaches(ctx, r))
			return call->rings > 0 ? ALGO_RING : ALGO_PAIRWISE;
	return ALGO_PAIRWISE;
}

static bool reaches_all(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx,
			const struct group *g)
{
	for (int i = 0; i < g->size; i++)
		if (i != g->me && !s->reaches(ctx, g->rank[i]))
			return false;
	return true;
}

/* One step: `bytes` to `dst` while receiving this step's message. */
static int step(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx, int dst,
		int tag, double bytes)
{
	struct dlasim_comm *c[2];

	c[0] = s->isend(ctx, dst, tag, bytes);
	c[1] = s->irecv(ctx, tag);
	return s->wait_all(c, 2);
}

/* Pairwise exchange of `block` bytes with every other member. */
static int pairwise(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx,
		    const struct group *g, int tag0, double block)
{
	for (int k = 1; k < g->size; k++)
		if (step(s, ctx, g->rank[(g->me + k) % g->size], tag0 + k, block) != DLASIM_OK)
			return DLASIM_ERR;
	return DLASIM_OK;
}

/* Ring exchange: in step k the N-k blocks not yet delivered go to the
 * successor in the group's order. */
static int ring(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx,
		const struct group *g, int tag0, double block)
{
	int next = g->rank[(g->me + 1) % g->size];

	for (int k = 1; k < g->size; k++)
		if (step(s, ctx, next, tag0 + k, (g->size - k) * block) != DLASIM_OK)
			return DLASIM_ERR;
	return DLASIM_OK;
}

static int exchange(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx,
		    const struct group *g, int tag0, double block, bool as_ring)
{
	if (g->size < 2)
		return DLASIM_OK;
	if (as_ring)
		return ring(s, ctx, g, tag0, block);
	return pairwise(s, ctx, g, tag0, block);
}

/* The whole platform as one group, in rank order or in ring `ring`'s. */
static int flat(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx, bool as_ring)
{
	const struct dlasim_coll_call *call = s->call(ctx);
	int n = call->ranks, ch = s->channel(ctx), me = s->rank(ctx), ret;
	int *rank = malloc(n * sizeof(int));
	struct group g = { rank, n, 0 };
	double share = call->bytes / s->channels(ctx);

	if (!rank)
		s->fail(ctx, "out of memory");
	for (int r = 0, at = me; r < n; r++, at = as_ring ? s->ring_next(ctx, ch, at) : (at + 1) % n)
		rank[r] = at;
	if (!as_ring && !reaches_all(s, ctx, &g))
		s->fail(ctx, "algo=pairwise needs a route from every rank to every other; use algo=ring on this platform");
	ret = exchange(s, ctx, &g, 0, share / n, as_ring);
	free(rank);
	return ret;
}

/* Inside the node, then across the nodes among ranks of equal index. */
static int hier(const struct dlasim_coll_services *s, struct dlasim_coll_ctx *ctx)
{
	const struct dlasim_coll_call *call = s->call(ctx);
	int me = s->rank(ctx), k = s->nodes(ctx), node, index, gsize, ret = DLASIM_ERR;
	int *local, *peer;
	struct group in, across;
	double s_chan = call->bytes / s->channels(ctx);

	if (k < 1)
		s->fail(ctx, "algo=hier: the platform declares no system nodes (dlasim.node on its devices)");
	node = s->node_of(ctx, me);
	index = s->node_index(ctx, me);
	gsize = s->node_size(ctx, node);
	local = malloc(gsize * sizeof(int));
	peer = malloc(k * sizeof(int));
	in = (struct group){ local, gsize, index };
	across = (struct group){ peer, k, node };
	if (!local || !peer)
		s->fail(ctx, "out of memory");
	for (int v = 0; v < k; v++)
		if (s->node_size(ctx, v) != gsize)
			s->fail(ctx, "algo=hier: system nodes of %d and %d ranks: every node needs as many",
				gsize, s->node_size(ctx, v));
	for (int i = 0; i < gsize; i++)
		local[i] = s->node_member(ctx, node, i);
	for (int v = 0; v < k; v++)
		peer[v] = s->node_member(ctx, v, index);
	/* Inside: S/G to each local peer; across: S/K to each remote peer. */
	if (exchange(s, ctx, &in, 0, s_chan / gsize, !reaches_all(s, ctx, &in)) != DLASIM_OK ||
	    exchange(s, ctx, &across, gsize, s_chan / k, !reaches_all(s, ctx, &across)) != DLASIM_OK)
		goto out;
	ret = DLASIM_OK;
out:
	free(local);
	free(peer);
	return ret;
}

static int a2a_run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	const struct dlasim_coll_services *s = host->coll;

	if (s->call(ctx)->op != DLASIM_COLL_ALLTOALL)
		s->fail(ctx, "runs only alltoall");
	switch (pick(state, s, ctx)) {
	case ALGO_HIER:
		return hier(s, ctx);
	case ALGO_RING:
		if (s->call(ctx)->rings < 1)
			s->fail(ctx, "algo=ring needs a ring declared by the platform");
		return flat(s, ctx, true);
	default:
		return flat(s, ctx, false);
	}
}

/* One channel per declared ring, each with S/R of every block. */
static int a2a_channels(void *state, const struct dlasim_coll_call *call)
{
	(void)state;
	return call->rings > 0 ? call->rings : 1;
}

static int a2a_init(const struct dlasim_host_api *host, const char *options, void **state,
		    char *err, size_t errlen)
{
	struct a2a_opts *o = calloc(1, sizeof(*o));
	char key[64], value[64];
	const char *cursor = options;
	int got;

	if (!o) {
		snprintf(err, errlen, "out of memory");
		return DLASIM_ERR;
	}
	while (cursor && (got = host->next_option(&cursor, key, sizeof(key), value, sizeof(value)))) {
		unsigned a;

		if (got < 0) {
			snprintf(err, errlen, "%s", value);
			goto bad;
		}
		if (strcmp(key, "algo") != 0) {
			snprintf(err, errlen, "unknown option '%s' (algo=auto, pairwise, ring or hier)", key);
			goto bad;
		}
		for (a = 0; a < sizeof(algo_names) / sizeof(algo_names[0]); a++)
			if (strcmp(value, algo_names[a]) == 0)
				break;
		if (a == sizeof(algo_names) / sizeof(algo_names[0])) {
			snprintf(err, errlen, "algo='%s': auto, pairwise, ring or hier", value);
			goto bad;
		}
		o->algo = (enum algo)a;
	}
	*state = o;
	return DLASIM_OK;
bad:
	free(o);
	return DLASIM_ERR;
}

static void a2a_fini(void *state)
{
	free(state);
}

static const struct dlasim_coll_ops a2a_ops = {
	.size = sizeof(struct dlasim_coll_ops),
	.channels = a2a_channels,
	.run = a2a_run,
	.supports = a2a_supports,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "alltoall",
	.description = "all-to-all: pairwise exchange, ring (algo=ring) or inside then across system nodes (algo=hier)",
	.init = a2a_init,
	.fini = a2a_fini,
	.ops = &a2a_ops,
};
