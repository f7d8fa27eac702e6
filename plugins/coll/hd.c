/* SPDX-License-Identifier: MIT */
/*
 * hd: recursive halving and doubling (Rabenseifner; Thakur, Rabenseifner
 * and Gropp, "Optimization of collective communication operations in
 * MPICH", IJHPCA 2005), for fabrics where any device reaches any other
 * (device-side switches).
 *
 * With p the largest power of two <= N and r = N - p, the first 2r ranks
 * fold in pairs (even rank hands its buffer to the odd one) so that p
 * ranks remain, then:
 *   reduce-scatter: log2(p) steps exchanging S/2, S/4, ... with the rank
 *                   at distance p/2, p/4, ...;
 *   all-gather:     the same steps in reverse order;
 *   all-reduce:     reduce-scatter then all-gather;
 * and the folded ranks get their result back at the end.  Broadcast is a
 * binomial tree of whole messages (log2 N rounds).  One channel; every
 * exchange is one transfer each way.
 */
#include <stdbool.h>

#include <dlasim/coll.h>

#define TAG_FOLD 1000
#define TAG_UNFOLD 1001

struct hd {
	const struct dlasim_coll_services *s;
	struct dlasim_coll_ctx *ctx;
	int n, p, r;		/* ranks, power of two, folded pairs */
	int rank, v;		/* real and virtual rank (-1: folded out) */
};

static int real_rank(const struct hd *h, int v)
{
	return v < h->r ? 2 * v + 1 : v + h->r;
}

static int sendrecv(struct hd *h, int peer, int tag, double bytes)
{
	struct dlasim_comm *c[2];

	c[0] = h->s->isend(h->ctx, peer, tag, bytes);
	c[1] = h->s->irecv(h->ctx, tag);
	return h->s->wait_all(c, 2);
}

static int send(struct hd *h, int peer, int tag, double bytes)
{
	return h->s->wait(h->s->isend(h->ctx, peer, tag, bytes));
}

static int recv(struct hd *h, int tag)
{
	return h->s->wait(h->s->irecv(h->ctx, tag));
}

/* Steps of distance p/2, p/4, ..., 1 with sizes S/2, S/4, ... */
static int halving(struct hd *h, double bytes)
{
	int step = 0;

	for (int d = h->p / 2; d >= 1; d /= 2, step++) {
		bytes /= 2;
		if (sendrecv(h, real_rank(h, h->v ^ d), step, bytes) != DLASIM_OK)
			return DLASIM_ERR;
	}
	return DLASIM_OK;
}

/* The reverse: distance 1, 2, ..., p/2 with sizes S/p, 2S/p, ... */
static int doubling(struct hd *h, double bytes)
{
	double part = bytes / h->p;
	int step = 100;

	for (int d = 1; d < h->p; d *= 2, step++, part *= 2)
		if (sendrecv(h, real_rank(h, h->v ^ d), step, part) != DLASIM_OK)
			return DLASIM_ERR;
	return DLASIM_OK;
}

static int core(struct hd *h, enum dlasim_coll_op op, double bytes)
{
	if (op != DLASIM_COLL_ALLGATHER && halving(h, bytes) != DLASIM_OK)
		return DLASIM_ERR;
	if (op != DLASIM_COLL_REDUCESCATTER && doubling(h, bytes) != DLASIM_OK)
		return DLASIM_ERR;
	return DLASIM_OK;
}

/* Bytes a folded rank hands over, and gets back, for each operation. */
static void fold_sizes(enum dlasim_coll_op op, double bytes, int n, double *in, double *out)
{
	switch (op) {
	case DLASIM_COLL_ALLGATHER:
		*in = bytes / n;	/* its contribution */
		*out = bytes;		/* everything */
		break;
	case DLASIM_COLL_REDUCESCATTER:
		*in = bytes;
		*out = bytes / n;	/* its block */
		break;
	default:
		*in = bytes;
		*out = bytes;
	}
}

static int reduction(struct hd *h, enum dlasim_coll_op op, double bytes)
{
	double in, out;
	bool folded = h->rank < 2 * h->r && h->rank % 2 == 0;

	fold_sizes(op, bytes, h->n, &in, &out);
	if (folded) {
		if (send(h, h->rank + 1, TAG_FOLD, in) != DLASIM_OK)
			return DLASIM_ERR;
		return recv(h, TAG_UNFOLD);
	}
	if (h->rank < 2 * h->r && recv(h, TAG_FOLD) != DLASIM_OK)
		return DLASIM_ERR;
	if (core(h, op, bytes) != DLASIM_OK)
		return DLASIM_ERR;
	if (h->rank < 2 * h->r)
		return send(h, h->rank - 1, TAG_UNFOLD, out);
	return DLASIM_OK;
}

/* Binomial tree rooted at `root` over all N ranks. */
static int binomial(struct hd *h, int root, double bytes)
{
	int rel = (h->rank - root + h->n) % h->n, mask = 1;

	while (mask < h->n) {
		if (rel & mask) {
			if (recv(h, 0) != DLASIM_OK)
				return DLASIM_ERR;
			break;
		}
		mask <<= 1;
	}
	for (mask >>= 1; mask > 0; mask >>= 1)
		if (rel + mask < h->n && send(h, (rel + mask + root) % h->n, 0, bytes) != DLASIM_OK)
			return DLASIM_ERR;
	return DLASIM_OK;
}

static int hd_channels(void *state, const struct dlasim_coll_call *call)
{
	(void)state;
	(void)call;
	return 1;
}

static int hd_run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	const struct dlasim_coll_services *s = host->coll;
	const struct dlasim_coll_call *call = s->call(ctx);
	struct hd h = { .s = s, .ctx = ctx, .n = call->ranks, .rank = s->rank(ctx) };

	(void)state;
	h.p = 1;
	while (h.p * 2 <= h.n)
		h.p *= 2;
	h.r = h.n - h.p;
	h.v = h.rank < 2 * h.r ? h.rank / 2 : h.rank - h.r;
	if (call->op == DLASIM_COLL_BROADCAST)
		return binomial(&h, call->root, call->bytes);
	return reduction(&h, call->op, call->bytes);
}

static const struct dlasim_coll_ops hd_ops = {
	.size = sizeof(struct dlasim_coll_ops),
	.channels = hd_channels,
	.run = hd_run,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "hd",
	.description = "recursive halving-doubling (binomial tree broadcast) for switched fabrics",
	.ops = &hd_ops,
};
