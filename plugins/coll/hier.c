/* SPDX-License-Identifier: MIT */
/*
 * hier: hierarchical (two-dimensional) collectives for scale-out platforms,
 * the way NCCL's tree/ring hierarchy and ASTRA-sim's multi-dimensional
 * collectives split a collective into one inside the system nodes and one
 * across them (docs/collectives.md).  With G ranks per node and K nodes, on
 * every channel (ring) carrying s = S / R:
 *
 *   all-reduce:     reduce-scatter inside each node (ring over the node's
 *                   ranks: each keeps s / G), all-reduce of that block
 *                   across nodes among the ranks of equal index, then
 *                   all-gather inside each node;
 *   reduce-scatter: the first two, the second a reduce-scatter (s / N);
 *   all-gather:     all-gather across nodes (s / N -> s / G), then inside.
 *
 *   broadcast:      with the root at index i of its node, a pipelined
 *                   ring broadcast across nodes among the ranks of index
 *                   i, then one inside every node from its rank of index
 *                   i (the stages one after the other, as ASTRA-sim runs
 *                   the dimensions of a collective).
 *
 * Across nodes, option inter=ring (default) runs a ring over the K nodes,
 * inter=hd recursive halving (reduce-scatter) and doubling (all-gather)
 * over a power-of-two K (broadcast: a ring either way).  Ring phases are
 * flows as in ring_flow: one transfer of the phase's (steps) chunks after
 * (steps - 1) hop latencies; a broadcast's first piece goes hop by hop and
 * the other pieces follow as one flow per hop.  All channels of a rank on
 * one host run in one actor and start each phase together.
 *
 * Option bidir=1: the ring phases inside the nodes send half of their
 * bytes each way, as ring's bidir=1.  Across the nodes a rank reaches
 * both neighbours out of the same switch port, so both ways would gain
 * nothing there; halving-doubling and broadcast are unchanged.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlasim/coll.h>

struct hier_opts {
	bool inter_hd;
	bool bidir;		/* ring phases half each way */
	int nodes_checked;	/* nodes of the platform once all are checked equal */
};

/* One channel of the rank. */
struct chan {
	struct dlasim_coll_ctx *ctx;
	int node, index;	/* system node, index in it (on this ring) */
};

/* Where a channel sits in a broadcast stage's chain: the rank it receives
 * from and the one it forwards to (-1: none). */
struct link {
	int from, to;
	double latency;		/* of the hop from `from` */
};

/* One flow of a phase: `bytes` to rank `dst` after `wait` seconds. */
struct flow {
	struct dlasim_coll_ctx *ctx;
	int dst;
	double bytes, wait;
};

struct run {
	const struct dlasim_host_api *host;
	const struct dlasim_coll_services *s;
	struct chan *ch;
	struct flow *fl;
	struct dlasim_comm **comms;
	struct link *ln;	/* broadcast: this stage's chain */
	int count;		/* channels */
	int nfl;		/* flows of the phase (fl[]) */
	bool bidir;
	int g, k;		/* ranks per node, nodes */
	int tag;		/* one per phase */
};

static int by_wait(const void *a, const void *b)
{
	const struct flow *x = a, *y = b;

	return (x->wait > y->wait) - (x->wait < y->wait);
}

/*
 * One phase on every channel: each flow starts `wait` after the phase does
 * (in order of wait), and the matching flow of the sender towards this rank
 * is received; the phase ends when all have.  Receives are posted first,
 * so that a flow leaves when its sender is ready whatever the receiver's
 * own wait (as in ring_flow).
 */
static int phase(struct run *r)
{
	double t0 = r->host->now();
	int n = 0;

	qsort(r->fl, r->nfl, sizeof(*r->fl), by_wait);
	for (int i = 0; i < r->nfl; i++)
		r->comms[n++] = r->s->irecv(r->fl[i].ctx, r->tag);
	for (int i = 0; i < r->nfl; i++) {
		const struct flow *f = &r->fl[i];

		if (t0 + f->wait > r->host->now())
			r->host->sleep(t0 + f->wait - r->host->now());
		r->comms[n++] = r->s->isend(f->ctx, f->dst, r->tag, f->bytes);
	}
	r->tag++;
	return r->s->wait_all(r->comms, n);
}

/* The rank `step` (+1 or -1) along the ring inside the node (inside =
 * true) or among the ranks of equal index across the nodes. */
static int ring_peer(const struct run *r, const struct chan *c, bool inside, int step)
{
	if (inside)
		return r->s->node_member(c->ctx, c->node, (c->index + r->g + step) % r->g);
	return r->s->node_member(c->ctx, (c->node + r->k + step) % r->k, c->index);
}

/* A ring phase of `steps` chunks of `chunk` to the next rank inside the
 * node (inside = true) or to the rank of equal index in the next node;
 * with bidir, inside a node, half of it to the previous one too. */
static int ring_phase(struct run *r, bool inside, int steps, double chunk)
{
	const struct dlasim_coll_services *s = r->s;
	int dirs = inside && r->bidir ? 2 : 1;
	double bytes = steps * chunk / dirs;

	if (steps < 1)
		return DLASIM_OK;
	r->nfl = 0;
	for (int i = 0; i < r->count; i++) {
		const struct chan *c = &r->ch[i];

		for (int d = 0; d < dirs; d++) {
			int dst = ring_peer(r, c, inside, d ? -1 : 1);

			r->fl[r->nfl++] = (struct flow){ .ctx = c->ctx, .dst = dst, .bytes = bytes,
							 .wait = (steps - 1) * s->latency(c->ctx, dst) };
		}
	}
	return phase(r);
}

/* One exchange of halving or doubling with the node at distance d. */
static int hd_step(struct run *r, int d, double bytes)
{
	r->nfl = r->count;
	for (int i = 0; i < r->count; i++) {
		const struct chan *c = &r->ch[i];

		r->fl[i] = (struct flow){ .ctx = c->ctx, .bytes = bytes,
					  .dst = r->s->node_member(c->ctx, c->node ^ d, c->index) };
	}
	return phase(r);
}

/* Across nodes, on a block of `block` bytes per rank: reduce-scatter
 * leaves block / K, all-gather makes block from block / K. */
static int across(struct run *r, const struct hier_opts *o, enum dlasim_coll_op op, double block)
{
	bool rs = op != DLASIM_COLL_ALLGATHER, ag = op != DLASIM_COLL_REDUCESCATTER;

	if (!o->inter_hd) {
		if (rs && ring_phase(r, false, r->k - 1, block / r->k) != DLASIM_OK)
			return DLASIM_ERR;
		return ag ? ring_phase(r, false, r->k - 1, block / r->k) : DLASIM_OK;
	}
	for (int d = r->k / 2; rs && d >= 1; d /= 2)
		if (hd_step(r, d, block * d / r->k) != DLASIM_OK)
			return DLASIM_ERR;
	for (int d = 1; ag && d < r->k; d *= 2)
		if (hd_step(r, d, block * d / r->k) != DLASIM_OK)
			return DLASIM_ERR;
	return DLASIM_OK;
}

/*
 * One stage of a broadcast on every channel's chain (r->ln): the first
 * of `pieces` pieces of `chunk` goes hop by hop, then the rest as one
 * flow per hop, and a channel that received ends after the latencies the
 * other pieces would have paid one by one, as ring_flow's broadcast.
 */
static int chain_bcast(struct run *r, int pieces, double chunk)
{
	const struct dlasim_coll_services *s = r->s;
	double end = 0;
	int n = 0;

	for (int i = 0; i < r->count; i++)
		if (r->ln[i].from >= 0)
			r->comms[n++] = s->irecv(r->ch[i].ctx, r->tag);
	if (n && s->wait_all(r->comms, n) != DLASIM_OK)
		return DLASIM_ERR;
	for (int pass = 0; pass < 2 && (pass == 0 || pieces > 1); pass++) {
		double bytes = pass ? (pieces - 1) * chunk : chunk;

		n = 0;
		for (int i = 0; i < r->count; i++) {
			const struct link *l = &r->ln[i];

			if (pass && l->from >= 0)
				r->comms[n++] = s->irecv(r->ch[i].ctx, r->tag + 1);
			if (l->to >= 0)
				r->comms[n++] = s->isend(r->ch[i].ctx, l->to, r->tag + pass, bytes);
		}
		if (n && s->wait_all(r->comms, n) != DLASIM_OK)
			return DLASIM_ERR;
	}
	r->tag += 2;
	for (int i = 0; i < r->count; i++)
		if (r->ln[i].from >= 0 && (pieces - 2) * r->ln[i].latency > end)
			end = (pieces - 2) * r->ln[i].latency;
	if (end > 0)
		r->host->sleep(end);
	return DLASIM_OK;
}

/* The chain of a stage: across the nodes among the ranks of the root's
 * index, or inside every node from its rank of that index. */
static void chains(struct run *r, bool across, int root)
{
	const struct dlasim_coll_services *s = r->s;

	for (int i = 0; i < r->count; i++) {
		const struct chan *c = &r->ch[i];
		int rn = s->node_of(c->ctx, root), ri = s->node_index(c->ctx, root);
		int m = across ? r->k : r->g, pos = across ? c->node : c->index;
		int first = across ? rn : ri, d = (pos - first + m) % m;
		struct link *l = &r->ln[i];

		*l = (struct link){ -1, -1, 0 };
		if (across && c->index != ri)
			continue;	/* not in the stage */
		if (d > 0)
			l->from = across ? s->node_member(c->ctx, (c->node + r->k - 1) % r->k, ri)
					 : s->node_member(c->ctx, c->node, (c->index + r->g - 1) % r->g);
		if (d < m - 1)
			l->to = across ? s->node_member(c->ctx, (c->node + 1) % r->k, ri)
				       : s->node_member(c->ctx, c->node, (c->index + 1) % r->g);
		if (l->from >= 0)
			l->latency = s->latency(c->ctx, l->from);
	}
}

/* Broadcast of a channel's share: across the nodes, then inside them. */
static int broadcast(struct run *r, double share, int root)
{
	double pieces = ceil(share / DLASIM_PIPELINE_CHUNK);
	int k = pieces < 1 ? 1 : pieces > 1e6 ? 1000000 : (int)pieces;

	r->ln = calloc(r->count, sizeof(*r->ln));
	if (!r->ln)
		return DLASIM_ERR;
	chains(r, true, root);
	if (chain_bcast(r, k, share / k) != DLASIM_OK)
		return DLASIM_ERR;
	chains(r, false, root);
	return chain_bcast(r, k, share / k);
}

/* The shape of the platform's nodes, or a one-line stop. */
static void check_nodes(struct run *r, struct hier_opts *o)
{
	const struct dlasim_coll_services *s = r->s;
	struct dlasim_coll_ctx *ctx = r->ch[0].ctx;

	r->k = s->nodes(ctx);
	if (r->k < 1)
		s->fail(ctx, "the platform declares no system nodes (dlasim.node on its devices)");
	r->g = s->node_size(ctx, 0);
	/* Once per platform, not per call: every rank's every call would
	 * make the check O(N K). */
	for (int v = 1; v < r->k && o->nodes_checked != r->k; v++)
		if (s->node_size(ctx, v) != r->g)
			s->fail(ctx, "system nodes of %d and %d ranks: every node needs as many",
				r->g, s->node_size(ctx, v));
	o->nodes_checked = r->k;
	if (o->inter_hd && (r->k & (r->k - 1)) && s->call(ctx)->op != DLASIM_COLL_BROADCAST)
		s->fail(ctx, "inter=hd needs a power-of-two number of system nodes, not %d", r->k);
}

static int hier_run_channels(void *state, const struct dlasim_host_api *host,
			     struct dlasim_coll_ctx *const *ctx, int count)
{
	struct hier_opts *o = state;
	const struct dlasim_coll_services *s = host->coll;
	const struct dlasim_coll_call *call = s->call(ctx[0]);
	struct run r = { .host = host, .s = s, .count = count, .bidir = o->bidir };
	double share = call->bytes / s->channels(ctx[0]);
	int ret = DLASIM_ERR;

	r.ch = calloc(count, sizeof(*r.ch));
	r.fl = calloc(2 * (size_t)count, sizeof(*r.fl));
	r.comms = calloc(4 * (size_t)count, sizeof(*r.comms));
	if (!r.ch || !r.fl || !r.comms)
		goto out;
	for (int i = 0; i < count; i++) {
		int rank = s->rank(ctx[i]);

		r.ch[i] = (struct chan){ .ctx = ctx[i], .node = s->node_of(ctx[i], rank),
					 .index = s->node_index(ctx[i], rank) };
	}
	check_nodes(&r, o);
	if (call->op == DLASIM_COLL_BROADCAST) {
		ret = broadcast(&r, share, call->root);
		goto out;
	}
	if (call->op != DLASIM_COLL_ALLGATHER &&
	    ring_phase(&r, true, r.g - 1, share / r.g) != DLASIM_OK)
		goto out;
	if (across(&r, o, call->op, share / r.g) != DLASIM_OK)
		goto out;
	if (call->op != DLASIM_COLL_REDUCESCATTER &&
	    ring_phase(&r, true, r.g - 1, share / r.g) != DLASIM_OK)
		goto out;
	ret = DLASIM_OK;
out:
	free(r.ch);
	free(r.fl);
	free(r.comms);
	free(r.ln);
	return ret;
}

static int hier_run(void *state, const struct dlasim_host_api *host, struct dlasim_coll_ctx *ctx)
{
	return hier_run_channels(state, host, &ctx, 1);
}

static int hier_channels(void *state, const struct dlasim_coll_call *call)
{
	(void)state;
	return call->rings > 0 ? call->rings : 1;
}

static int hier_init(const struct dlasim_host_api *host, const char *options, void **state,
		     char *err, size_t errlen)
{
	struct hier_opts *o = calloc(1, sizeof(*o));
	char key[64], value[64];
	const char *cursor = options;
	int got;

	if (!o) {
		snprintf(err, errlen, "out of memory");
		return DLASIM_ERR;
	}
	while (cursor && (got = host->next_option(&cursor, key, sizeof(key), value, sizeof(value)))) {
		if (got < 0) {
			snprintf(err, errlen, "%s", value);
			goto bad;
		}
		if (strcmp(key, "bidir") == 0) {
			if (strcmp(value, "0") && strcmp(value, "1")) {
				snprintf(err, errlen, "bidir='%s': 0 or 1", value);
				goto bad;
			}
			o->bidir = value[0] == '1';
			continue;
		}
		if (strcmp(key, "inter") != 0) {
			snprintf(err, errlen, "unknown option '%s' (inter=ring or inter=hd, bidir=0 or bidir=1)", key);
			goto bad;
		}
		if (strcmp(value, "ring") && strcmp(value, "hd")) {
			snprintf(err, errlen, "inter='%s': ring or hd", value);
			goto bad;
		}
		o->inter_hd = strcmp(value, "hd") == 0;
	}
	*state = o;
	return DLASIM_OK;
bad:
	free(o);
	return DLASIM_ERR;
}

static void hier_fini(void *state)
{
	free(state);
}

static const struct dlasim_coll_ops hier_ops = {
	.size = sizeof(struct dlasim_coll_ops),
	.channels = hier_channels,
	.run = hier_run,
	.run_channels = hier_run_channels,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_COLLECTIVE,
	.ops_version = DLASIM_COLL_OPS_VERSION,
	.name = "hier",
	.description = "hierarchical: rings inside system nodes, ring (inter=ring) or halving-doubling (inter=hd) across them",
	.init = hier_init,
	.fini = hier_fini,
	.ops = &hier_ops,
};
