/* SPDX-License-Identifier: MIT */
#include "coll.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "lib/grow.h"
#include "lib/pairmap.h"
#include "plugin/plugin.h"
#include "mbnames.h"

#define MAILBOX_CACHE 4

/* An actor's share of one rank's call: `count` channels, by channel. */
struct channel_group {
	struct dlasim_coll_ctx **ctx;
	int count;
	sg_actor_t actor;
};

/* The channels of one rank's call; kept on a list while in flight so that
 * calls that never end (a deadlocked plugin) are freed with the plugin. */
struct call_block {
	struct call_block *prev, *next;
	struct dlasim_coll_ctx *ctx;
	struct dlasim_coll_ctx **order;		/* channels grouped by actor */
	struct channel_group *groups;
};

/* A route from a channel's host to a peer's, checked (peer_route()). */
struct peer_route {
	sg_host_t host;		/* the peer's */
	double latency, bandwidth;
};

struct dl_coll {
	struct dl_plugin *plugin;
	const struct dlasim_coll_ops *ops;
	struct dl_platform *p;
	unsigned *seq;		/* calls made so far, per rank */
	struct dl_mbnames names;	/* of the calls' mailboxes */
	struct dl_pairmap route_ids;	/* (host, peer host) -> index in route[] */
	struct peer_route *route;
	int nroutes, route_cap;
	struct call_block in_flight;	/* list head */
	struct dl_traffic *traffic;	/* where transfers are counted, or NULL */
	/* A communicator group (dl_coll_open_group()): its ranks 0 .. nranks-1
	 * are platform ranks member[]; gat[k][pos] is the group rank at
	 * position pos of ring k restricted to the group, gpos[k] its inverse.
	 * Without a group member is NULL and the ranks are the platform's. */
	int nranks;
	int *member;
	int **gat, **gpos;
	/* System nodes with ranks of this communicator, numbered 0 .. nnodes-1
	 * in platform order; node_of[] by rank. */
	int nnodes;
	int *node_of;
	/* System nodes: ranks of node v at node_rank[k][node_first[v] ...]
	 * in ring k's order (one table in rank order without rings), and
	 * each rank's index in its node. */
	int *node_first;
	int **node_rank, **node_index;
	int node_tables;
};

struct mb_cache {
	int rank, tag;
	int box;		/* in the names' boxes (mbnames.h); -1: none */
};

struct dlasim_coll_ctx {
	struct dl_coll *coll;
	const struct dlasim_coll_call *call;
	int rank, channel, channels;
	unsigned seq;
	unsigned name;		/* of the call's mailboxes (mbnames.h) */
	int host_index;		/* in the platform's hosts[] */
	sg_host_t host;
	void *sink;		/* receive payload slot */
	struct mb_cache send_cache[MAILBOX_CACHE];
	struct mb_cache recv_cache[MAILBOX_CACHE];
	int send_next, recv_next;
};

static const char *const op_names[] = {
	[DLASIM_COLL_ALLREDUCE] = "allreduce",
	[DLASIM_COLL_ALLGATHER] = "allgather",
	[DLASIM_COLL_REDUCESCATTER] = "reducescatter",
	[DLASIM_COLL_BROADCAST] = "broadcast",
	[DLASIM_COLL_ALLTOALL] = "alltoall",
};

const char *dl_coll_default_for(int devices, int nodes, bool duplex)
{
	if (nodes > 1)
		return duplex ? "hier:bidir=1" : "hier";
	if (devices > 64)
		return duplex ? "ring_flow:bidir=1" : "ring_flow";
	return duplex ? "ring:bidir=1" : "ring";
}

/* Every ring member reaches its predecessor: the rings can run back. */
static bool rings_reversible(const struct dl_platform *p)
{
	for (int k = 0; k < p->nrings; k++) {
		const struct dl_ring *r = &p->rings[k];

		for (int i = 0; i < r->n; i++)
			if (!dl_route_exists(p, r->member[i], r->member[(i + r->n - 1) % r->n]))
				return false;
	}
	return true;
}

/* Every link but the memory channels carries each direction on its own
 * (SPLITDUPLEX, or FATPIPE: every flow its full bandwidth) and every ring
 * has its routes back; a <cluster>'s links are SimGrid's and are not
 * asked. */
bool dl_coll_full_duplex(const struct dl_platform *p)
{
	if (p->nclusters || !p->nlinks)
		return false;
	for (int i = 0; i < p->nlinks; i++)
		if (p->links[i].cls != DL_LINK_DRAM && p->links[i].sharing == DL_SHARED)
			return false;
	return rings_reversible(p);
}

const char *dl_coll_default(const struct dl_platform *p)
{
	return dl_coll_default_for(p->ndevices, p->nnodes, dl_coll_full_duplex(p));
}

const char *dl_coll_default_op(const struct dl_platform *p, enum dlasim_coll_op op)
{
	return op == DLASIM_COLL_ALLTOALL ? "alltoall" : dl_coll_default(p);
}

const char *dl_coll_op_name(enum dlasim_coll_op op)
{
	return op <= DLASIM_COLL_ALLTOALL ? op_names[op] : "?";
}

int dl_coll_op_parse(const char *s, enum dlasim_coll_op *op)
{
	for (unsigned i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++) {
		if (strcmp(s, op_names[i]) == 0) {
			*op = i;
			return 0;
		}
	}
	return -1;
}

double dl_coll_bus_factor(enum dlasim_coll_op op, int ranks)
{
	double n = ranks;

	switch (op) {
	case DLASIM_COLL_ALLREDUCE:
		return 2 * (n - 1) / n;
	case DLASIM_COLL_ALLGATHER:
	case DLASIM_COLL_REDUCESCATTER:
	case DLASIM_COLL_ALLTOALL:
		return (n - 1) / n;
	default:
		return 1;
	}
}

/* ---- where channels live ---- */

/* The platform rank of a rank of the communicator. */
static int prank(const struct dl_coll *c, int rank)
{
	return c->member ? c->member[rank] : rank;
}

/* Ring k restricted to the communicator: position of a rank, rank at a
 * position. */
static int ring_pos(const struct dl_coll *c, int k, int rank)
{
	return c->member ? c->gpos[k][rank] : c->p->rings[k].pos_of_rank[rank];
}

static int ring_at(const struct dl_coll *c, int k, int pos)
{
	return c->member ? c->gat[k][pos] : c->p->rings[k].rank_at[pos];
}

static int channel_host(const struct dl_coll *c, int rank, int channel)
{
	const struct dl_platform *p = c->p;

	rank = prank(c, rank);
	if (channel < p->nrings)
		return dl_ring_member(p, channel, rank);
	return p->devices[rank];
}

/* ---- services ---- */

static void plugin_failure(struct dlasim_coll_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void plugin_failure(struct dlasim_coll_ctx *ctx, const char *fmt, ...)
{
	char where[64], msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(where, sizeof(where), ", rank %d channel %d", ctx->rank, ctx->channel);
	dl_sim_plugin_error(ctx->coll->plugin, where, "%s", msg);
}

static const struct dlasim_coll_call *svc_call(const struct dlasim_coll_ctx *ctx)
{
	return ctx->call;
}

static int svc_rank(const struct dlasim_coll_ctx *ctx)
{
	return ctx->rank;
}

static int svc_channel(const struct dlasim_coll_ctx *ctx)
{
	return ctx->channel;
}

static int svc_channels(const struct dlasim_coll_ctx *ctx)
{
	return ctx->channels;
}

static void check_rank(const struct dlasim_coll_ctx *ctx, int rank, const char *what)
{
	if (rank < 0 || rank >= ctx->coll->nranks)
		plugin_failure((struct dlasim_coll_ctx *)ctx, "%s: rank %d out of range [0, %d)",
			       what, rank, ctx->coll->nranks);
}

static void check_ring(const struct dlasim_coll_ctx *ctx, int ring, const char *what)
{
	if (ring < 0 || ring >= ctx->coll->p->nrings)
		plugin_failure((struct dlasim_coll_ctx *)ctx, "%s: ring %d out of range [0, %d)",
			       what, ring, ctx->coll->p->nrings);
}

static int svc_ring_next(const struct dlasim_coll_ctx *ctx, int ring, int rank)
{
	check_ring(ctx, ring, "ring_next");
	check_rank(ctx, rank, "ring_next");
	return ring_at(ctx->coll, ring, (ring_pos(ctx->coll, ring, rank) + 1) % ctx->coll->nranks);
}

static int svc_ring_prev(const struct dlasim_coll_ctx *ctx, int ring, int rank)
{
	check_ring(ctx, ring, "ring_prev");
	check_rank(ctx, rank, "ring_prev");
	return ring_at(ctx->coll, ring, (ring_pos(ctx->coll, ring, rank) + ctx->coll->nranks - 1) %
				       ctx->coll->nranks);
}

/*
 * The route from a channel's host to the same channel of rank `dst`, once
 * `dst` is known to be a rank reached from here: SimGrid aborts on any
 * route query or transfer between hosts without a route, so every service
 * asks the platform first.  Links do not change during a run: each route
 * is checked, and its latency and bandwidth asked, once.
 */
static const struct peer_route *peer_route(const struct dlasim_coll_ctx *ctx, int dst,
					   const char *service, const char *what)
{
	struct dl_coll *c = ctx->coll;
	const struct dl_platform *p = c->p;
	struct peer_route r;
	int h, i;

	check_rank(ctx, dst, service);
	h = channel_host(c, dst, ctx->channel);
	if ((i = dl_pairmap_get(&c->route_ids, ctx->host_index, h)) >= 0)
		return &c->route[i];
	if (!dl_route_exists(p, ctx->host_index, h))
		plugin_failure((struct dlasim_coll_ctx *)ctx,
			       "%s rank %d, but platform %s has no route from '%s' to '%s'", what,
			       dst, p->file, p->hosts[ctx->host_index].name, p->hosts[h].name);
	r.host = p->hosts[h].sg;
	r.latency = sg_host_get_route_latency(ctx->host, r.host);
	r.bandwidth = sg_host_get_route_bandwidth(ctx->host, r.host);
	if (dl_grow((void **)&c->route, &c->route_cap, c->nroutes + 1, sizeof(*c->route)) ||
	    dl_pairmap_put(&c->route_ids, ctx->host_index, h, c->nroutes))
		dl_sim_error("out of memory");
	c->route[c->nroutes] = r;
	return &c->route[c->nroutes++];
}

static double svc_latency(const struct dlasim_coll_ctx *ctx, int dst)
{
	return peer_route(ctx, dst, "latency", "asks the latency to")->latency;
}

static double svc_bandwidth(const struct dlasim_coll_ctx *ctx, int dst)
{
	return peer_route(ctx, dst, "bandwidth", "asks the bandwidth to")->bandwidth;
}

/* The call's mailbox of rank `rank`, this channel, tag `tag`: its index
 * in the call names' boxes. */
static int mailbox(const struct dlasim_coll_ctx *ctx, int rank, int tag)
{
	struct dl_mbplace at = { rank, ctx->channel, tag };
	int b = dl_mbnames_box(&ctx->coll->names, ctx->seq, ctx->name, &at);

	if (b < 0)
		dl_sim_error("out of memory");
	return b;
}

static int send_mailbox(struct dlasim_coll_ctx *ctx, int dst, int tag)
{
	struct mb_cache *e;

	for (int i = 0; i < MAILBOX_CACHE; i++) {
		e = &ctx->send_cache[i];
		if (e->box >= 0 && e->rank == dst && e->tag == tag)
			return e->box;
	}
	e = &ctx->send_cache[ctx->send_next++ % MAILBOX_CACHE];
	e->box = mailbox(ctx, dst, tag);
	e->rank = dst;
	e->tag = tag;
	return e->box;
}

static int recv_mailbox(struct dlasim_coll_ctx *ctx, int tag)
{
	struct mb_cache *e;

	for (int i = 0; i < MAILBOX_CACHE; i++) {
		e = &ctx->recv_cache[i];
		if (e->box >= 0 && e->tag == tag)
			return e->box;
	}
	e = &ctx->recv_cache[ctx->recv_next++ % MAILBOX_CACHE];
	e->box = mailbox(ctx, ctx->rank, tag);
	e->tag = tag;
	return e->box;
}

static struct dlasim_comm *svc_isend(struct dlasim_coll_ctx *ctx, int dst, int tag, double bytes)
{
	sg_host_t peer = peer_route(ctx, dst, "isend", "sends to")->host;
	struct dl_mbnames *names = &ctx->coll->names;
	int b;

	if (!(bytes >= 0) || bytes > DL_MAX_TRANSFER_BYTES)
		plugin_failure(ctx, "isend of %g bytes to rank %d: sizes are from 0 to 2^62 bytes",
			       bytes, dst);
	dl_traffic_add(ctx->coll->traffic, ctx->host, peer, bytes);
	b = send_mailbox(ctx, dst, tag);
	dl_mbnames_post(names, b, +1);
	return (struct dlasim_comm *)sg_mailbox_put_async(names->box[b].mb, ctx,
							  (long)llround(bytes));
}

static struct dlasim_comm *svc_irecv(struct dlasim_coll_ctx *ctx, int tag)
{
	struct dl_mbnames *names = &ctx->coll->names;
	int b = recv_mailbox(ctx, tag);

	dl_mbnames_post(names, b, -1);
	return (struct dlasim_comm *)sg_mailbox_get_async(names->box[b].mb, &ctx->sink);
}

static int svc_wait(struct dlasim_comm *comm)
{
	if (!comm)
		return DLASIM_ERR;
	return sg_comm_wait((sg_comm_t)comm) == SG_OK ? DLASIM_OK : DLASIM_ERR;
}

static int svc_wait_all(struct dlasim_comm **comms, int count)
{
	for (int i = 0; i < count; i++)
		if (!comms[i])
			return DLASIM_ERR;
	if (count > 0)
		sg_comm_wait_all((sg_comm_t *)comms, (size_t)count);
	return DLASIM_OK;
}

static int svc_ring_pos(const struct dlasim_coll_ctx *ctx, int ring, int rank)
{
	check_ring(ctx, ring, "ring_pos");
	check_rank(ctx, rank, "ring_pos");
	return ring_pos(ctx->coll, ring, rank);
}

static int svc_ring_plan(const struct dlasim_coll_ctx *ctx, double pipeline_chunk,
			 struct dlasim_ring_plan *plan)
{
	const struct dlasim_coll_call *call = ctx->call;
	const struct dl_platform *p = ctx->coll->p;
	int n = call->ranks, ring = ctx->channel;
	double pieces;

	check_ring(ctx, ring, "ring_plan (channel is not a ring)");
	memset(plan, 0, sizeof(*plan));
	plan->size = sizeof(*plan);
	plan->ring_size = n;
	plan->share = call->bytes / p->nrings;
	switch (call->op) {
	case DLASIM_COLL_ALLREDUCE:
		plan->phases = 2;
		break;
	case DLASIM_COLL_ALLGATHER:
	case DLASIM_COLL_REDUCESCATTER:
		plan->phases = 1;
		break;
	case DLASIM_COLL_BROADCAST:
		if (!(pipeline_chunk > 0))
			pipeline_chunk = DLASIM_PIPELINE_CHUNK;
		pieces = ceil(plan->share / pipeline_chunk);
		plan->pieces = pieces < 1 ? 1 : pieces > 1e6 ? 1000000 : (int)pieces;
		plan->chunk = plan->share / plan->pieces;
		plan->steps = n - 1;
		plan->distance = (svc_ring_pos(ctx, ring, ctx->rank) -
				  svc_ring_pos(ctx, ring, call->root) + n) % n;
		return DLASIM_OK;
	default:
		plugin_failure((struct dlasim_coll_ctx *)ctx, "ring_plan: no ring schedule for %s",
			       dl_coll_op_name(call->op));
	}
	plan->steps = n - 1;
	plan->chunk = plan->share / n;
	return DLASIM_OK;
}

static int node_table(const struct dlasim_coll_ctx *ctx)
{
	return ctx->channel < ctx->coll->node_tables ? ctx->channel : 0;
}

static int svc_nodes(const struct dlasim_coll_ctx *ctx)
{
	return ctx->coll->nnodes;
}

static void check_node(const struct dlasim_coll_ctx *ctx, int node, const char *what)
{
	if (node < 0 || node >= ctx->coll->nnodes)
		plugin_failure((struct dlasim_coll_ctx *)ctx, "%s: node %d out of range [0, %d)",
			       what, node, ctx->coll->nnodes);
}

static int svc_node_of(const struct dlasim_coll_ctx *ctx, int rank)
{
	check_rank(ctx, rank, "node_of");
	return ctx->coll->node_of[rank];
}

static int svc_node_size(const struct dlasim_coll_ctx *ctx, int node)
{
	check_node(ctx, node, "node_size");
	return ctx->coll->node_first[node + 1] - ctx->coll->node_first[node];
}

static int svc_node_member(const struct dlasim_coll_ctx *ctx, int node, int index)
{
	const struct dl_coll *c = ctx->coll;

	check_node(ctx, node, "node_member");
	if (index < 0 || index >= c->node_first[node + 1] - c->node_first[node])
		plugin_failure((struct dlasim_coll_ctx *)ctx, "node_member: index %d out of range [0, %d)",
			       index, c->node_first[node + 1] - c->node_first[node]);
	return c->node_rank[node_table(ctx)][c->node_first[node] + index];
}

static int svc_node_index(const struct dlasim_coll_ctx *ctx, int rank)
{
	check_rank(ctx, rank, "node_index");
	if (!ctx->coll->nnodes)
		return -1;
	return ctx->coll->node_index[node_table(ctx)][rank];
}

static int svc_reaches(const struct dlasim_coll_ctx *ctx, int dst)
{
	const struct dl_coll *c = ctx->coll;

	if (dst < 0 || dst >= c->nranks)
		return 0;
	return dl_route_exists(c->p, ctx->host_index, channel_host(c, dst, ctx->channel));
}

/* The options the ring plugins share (ring, ring_flow). */
static int svc_ring_options(const char *options, int *bidir, char *err, size_t errlen)
{
	char key[64], value[64];
	const char *cursor = options;
	int got;

	*bidir = 0;
	while (cursor && (got = dl_host_api.next_option(&cursor, key, sizeof(key), value,
							sizeof(value)))) {
		if (got < 0) {
			snprintf(err, errlen, "%s", value);
			return DLASIM_ERR;
		}
		if (strcmp(key, "bidir") != 0) {
			snprintf(err, errlen, "unknown option '%s' (bidir=0 or bidir=1)", key);
			return DLASIM_ERR;
		}
		if (strcmp(value, "0") && strcmp(value, "1")) {
			snprintf(err, errlen, "bidir='%s': 0 or 1", value);
			return DLASIM_ERR;
		}
		*bidir = value[0] == '1';
	}
	return DLASIM_OK;
}

static const struct dlasim_coll_services coll_services = {
	.size = sizeof(struct dlasim_coll_services),
	.call = svc_call,
	.rank = svc_rank,
	.channel = svc_channel,
	.channels = svc_channels,
	.ring_next = svc_ring_next,
	.ring_prev = svc_ring_prev,
	.latency = svc_latency,
	.bandwidth = svc_bandwidth,
	.isend = svc_isend,
	.irecv = svc_irecv,
	.wait = svc_wait,
	.wait_all = svc_wait_all,
	.ring_pos = svc_ring_pos,
	.ring_plan = svc_ring_plan,
	.nodes = svc_nodes,
	.node_of = svc_node_of,
	.node_size = svc_node_size,
	.node_member = svc_node_member,
	.node_index = svc_node_index,
	.fail = plugin_failure,
	.reaches = svc_reaches,
	.ring_options = svc_ring_options,
};

/* The ranks of each system node, in the order of each ring (or of ranks). */
static int build_node_tables(struct dl_coll *c)
{
	const struct dl_platform *p = c->p;
	int n = c->nranks, *fill;

	if (!c->nnodes)
		return 0;
	c->node_tables = p->nrings ? p->nrings : 1;
	c->node_first = calloc(c->nnodes + 1, sizeof(int));
	c->node_rank = calloc(c->node_tables, sizeof(int *));
	c->node_index = calloc(c->node_tables, sizeof(int *));
	fill = malloc(c->nnodes * sizeof(int));
	if (!c->node_first || !c->node_rank || !c->node_index || !fill)
		goto oom;
	for (int r = 0; r < n; r++)
		c->node_first[c->node_of[r] + 1]++;
	for (int v = 0; v < c->nnodes; v++)
		c->node_first[v + 1] += c->node_first[v];
	for (int k = 0; k < c->node_tables; k++) {
		c->node_rank[k] = malloc(n * sizeof(int));
		c->node_index[k] = malloc(n * sizeof(int));
		if (!c->node_rank[k] || !c->node_index[k])
			goto oom;
		memcpy(fill, c->node_first, c->nnodes * sizeof(int));
		for (int pos = 0; pos < n; pos++) {
			int r = p->nrings ? ring_at(c, k, pos) : pos;
			int v = c->node_of[r];

			c->node_index[k][r] = fill[v] - c->node_first[v];
			c->node_rank[k][fill[v]++] = r;
		}
	}
	free(fill);
	return 0;
oom:
	free(fill);
	return dl_err("out of memory");
}

static void free_node_tables(struct dl_coll *c)
{
	for (int k = 0; k < c->node_tables && c->node_rank && c->node_index; k++) {
		free(c->node_rank[k]);
		free(c->node_index[k]);
	}
	free(c->node_rank);
	free(c->node_index);
	free(c->node_first);
}

/* ---- plugin ---- */

static bool check_ops(const void *ops, const char **why)
{
	const struct dlasim_coll_ops *o = ops;

	if (o->size < offsetof(struct dlasim_coll_ops, run) + sizeof(o->run)) {
		*why = "ops struct too small";
		return false;
	}
	if (!o->channels || !o->run) {
		*why = "channels() and run() are required";
		return false;
	}
	return true;
}

int dl_coll_check(const char *spec, const char *option)
{
	return dl_plugin_check(DLASIM_KIND_COLLECTIVE, spec, option, check_ops);
}

/* The group's rings: each declared ring restricted to the members. */
static int build_group_rings(struct dl_coll *c)
{
	const struct dl_platform *p = c->p;
	int *grank = malloc(p->ndevices * sizeof(int));

	c->gat = calloc(p->nrings ? p->nrings : 1, sizeof(int *));
	c->gpos = calloc(p->nrings ? p->nrings : 1, sizeof(int *));
	if (!grank || !c->gat || !c->gpos)
		goto oom;
	for (int r = 0; r < p->ndevices; r++)
		grank[r] = -1;
	for (int g = 0; g < c->nranks; g++)
		grank[c->member[g]] = g;
	for (int k = 0; k < p->nrings; k++) {
		int at = 0;

		c->gat[k] = malloc(c->nranks * sizeof(int));
		c->gpos[k] = malloc(c->nranks * sizeof(int));
		if (!c->gat[k] || !c->gpos[k])
			goto oom;
		for (int pos = 0; pos < p->ndevices; pos++) {
			int g = grank[p->rings[k].rank_at[pos]];

			if (g < 0)
				continue;
			c->gat[k][at] = g;
			c->gpos[k][g] = at++;
		}
	}
	free(grank);
	return 0;
oom:
	free(grank);
	return dl_err("out of memory");
}

/* Nodes with ranks of the communicator, renumbered in platform order. */
static int number_nodes(struct dl_coll *c)
{
	const struct dl_platform *p = c->p;
	int *id = malloc((p->nnodes ? p->nnodes : 1) * sizeof(int));

	c->node_of = malloc(c->nranks * sizeof(int));
	if (!id || !c->node_of) {
		free(id);
		return dl_err("out of memory");
	}
	for (int v = 0; v < p->nnodes; v++)
		id[v] = -1;
	for (int r = 0; r < c->nranks && p->nnodes; r++)
		id[p->hosts[p->devices[prank(c, r)]].node] = 0;
	c->nnodes = 0;
	for (int v = 0; v < p->nnodes; v++)
		if (id[v] == 0)
			id[v] = c->nnodes++;
	for (int r = 0; r < c->nranks; r++)
		c->node_of[r] = p->nnodes ? id[p->hosts[p->devices[prank(c, r)]].node] : -1;
	free(id);
	return 0;
}

/* Mailbox names of different communicators never meet: each starts its
 * names 2^20 above the one before (far more calls than are ever in
 * flight at once in one communicator). */
static unsigned communicators;

int dl_coll_open_group(struct dl_coll **out, struct dl_platform *p, const char *spec,
		       const char *option, const int *members, int nmembers)
{
	struct dl_coll *c = calloc(1, sizeof(*c));
	int n = members ? nmembers : p->ndevices;

	*out = NULL;
	if (!c || !(c->seq = calloc(n ? n : 1, sizeof(unsigned)))) {
		free(c);
		return dl_err("out of memory");
	}
	c->p = p;
	c->nranks = n;
	c->in_flight.prev = c->in_flight.next = &c->in_flight;
	dl_mbnames_init(&c->names);
	c->names.next = (communicators++ & 0xfff) << 20;
	dl_pairmap_init(&c->route_ids);
	if (members) {
		if (!(c->member = malloc(n * sizeof(int)))) {
			dl_coll_close(c);
			return dl_err("out of memory");
		}
		memcpy(c->member, members, n * sizeof(int));
	}
	if ((members && build_group_rings(c)) || number_nodes(c) || build_node_tables(c)) {
		dl_coll_close(c);
		return -1;
	}
	dl_host_api.coll = &coll_services;
	if (dl_plugin_open(&c->plugin, DLASIM_KIND_COLLECTIVE, spec, option, check_ops)) {
		dl_coll_close(c);
		return -1;
	}
	c->ops = c->plugin->desc->ops;
	*out = c;
	return 0;
}

int dl_coll_open(struct dl_coll **out, struct dl_platform *p, const char *spec,
		 const char *option)
{
	return dl_coll_open_group(out, p, spec, option, NULL, 0);
}

static void call_forget(struct call_block *b)
{
	b->prev->next = b->next;
	b->next->prev = b->prev;
	free(b->ctx);
	free(b->order);
	free(b->groups);
	free(b);
}

void dl_coll_close(struct dl_coll *c)
{
	if (!c)
		return;
	while (c->in_flight.next != &c->in_flight)
		call_forget(c->in_flight.next);
	dl_plugin_close(c->plugin);
	free_node_tables(c);
	for (int k = 0; c->member && k < c->p->nrings; k++) {
		free(c->gat ? c->gat[k] : NULL);
		free(c->gpos ? c->gpos[k] : NULL);
	}
	free(c->gat);
	free(c->gpos);
	free(c->member);
	free(c->node_of);
	dl_mbnames_free(&c->names);
	dl_pairmap_free(&c->route_ids);
	free(c->route);
	free(c->seq);
	free(c);
}

bool dl_coll_supports(const struct dl_coll *c, enum dlasim_coll_op op)
{
	if (DLASIM_HAS_MEMBER(c->ops, struct dlasim_coll_ops, supports) && c->ops->supports)
		return c->ops->supports(c->plugin->state, op) != 0;
	return op < DLASIM_COLL_ALLTOALL;
}

int dl_coll_require(const struct dl_coll *c, enum dlasim_coll_op op, const char *option)
{
	if (dl_coll_supports(c, op))
		return 0;
	return dl_err("%s: collective plugin '%s' (%s) does not run %s (the alltoall plugin does, docs/collectives.md)",
		      option, dl_coll_name(c), dl_coll_path(c), dl_coll_op_name(op));
}

const char *dl_coll_name(const struct dl_coll *c)
{
	return c->plugin->desc->name;
}

void dl_coll_set_traffic(struct dl_coll *c, struct dl_traffic *t)
{
	c->traffic = t;
}

const char *dl_coll_path(const struct dl_coll *c)
{
	return c->plugin->path;
}

/* ---- calls ---- */

static bool has_run_channels(const struct dl_coll *c)
{
	return DLASIM_HAS_MEMBER(c->ops, struct dlasim_coll_ops, run_channels) &&
	       c->ops->run_channels;
}

static void run_group(void *arg)
{
	struct channel_group *g = arg;
	struct dl_coll *c = g->ctx[0]->coll;
	int ret;

	if (has_run_channels(c))
		ret = c->ops->run_channels(c->plugin->state, &dl_host_api, g->ctx, g->count);
	else
		ret = c->ops->run(c->plugin->state, &dl_host_api, g->ctx[0]);
	if (ret != DLASIM_OK)
		plugin_failure(g->ctx[0], "%s failed", has_run_channels(c) ? "run_channels()" : "run()");
}

/*
 * Which actor runs which channel: with run_channels(), one actor per host
 * the rank's channels sit on; else one per channel.  The group on the
 * caller's host (or the first channel's) runs in the caller.  Fills
 * groups[] and order[] (channel pointers grouped by host); returns how many
 * groups.
 */
static int group_channels(const struct dl_coll *c, struct dlasim_coll_ctx *ctx, int n,
			  struct channel_group *groups, struct dlasim_coll_ctx **order)
{
	sg_host_t self = sg_host_self();
	int ngroups = 0, placed = 0;

	for (int i = 0; i < n; i++) {
		bool new_host = true;

		if (has_run_channels(c))
			for (int j = 0; j < i && new_host; j++)
				new_host = ctx[j].host != ctx[i].host;
		if (!new_host)
			continue;
		groups[ngroups].ctx = &order[placed];
		groups[ngroups].count = 0;
		for (int j = i; j < n; j++) {
			if (j > i && (!has_run_channels(c) || ctx[j].host != ctx[i].host))
				continue;
			order[placed++] = &ctx[j];
			groups[ngroups].count++;
		}
		ngroups++;
	}
	/* The caller runs the group on its own host, if any. */
	for (int g = 1; g < ngroups; g++) {
		if (groups[g].ctx[0]->host == self && groups[0].ctx[0]->host != self) {
			struct channel_group t = groups[0];

			groups[0] = groups[g];
			groups[g] = t;
			break;
		}
	}
	return ngroups;
}

void dl_coll_call(struct dl_coll *c, int rank, const struct dlasim_coll_call *call)
{
	struct dlasim_coll_ctx *ctx, **order;
	struct channel_group *groups;
	struct call_block *block;
	sg_host_t self = sg_host_self();
	int n = c->ops->channels(c->plugin->state, call), ngroups;
	unsigned seq = c->seq[rank]++;
	long mbname = dl_mbnames_enter(&c->names, seq);
	struct dl_mbplace stray;
	char name[64];

	if (!dl_coll_supports(c, call->op))
		dl_sim_plugin_error(c->plugin, "", "does not run %s", dl_coll_op_name(call->op));
	if (n < 1 || n > 4096)
		dl_sim_plugin_error(c->plugin, "", "channels() returned %d, expected 1 to 4096", n);
	if (mbname < 0)
		dl_sim_error("out of memory");
	ctx = calloc(n, sizeof(*ctx));
	order = calloc(n, sizeof(*order));
	groups = calloc(n, sizeof(*groups));
	block = malloc(sizeof(*block));
	if (!ctx || !order || !groups || !block)
		dl_sim_error("out of memory");
	block->ctx = ctx;
	block->order = order;
	block->groups = groups;
	block->next = c->in_flight.next;
	block->prev = &c->in_flight;
	block->next->prev = block;
	c->in_flight.next = block;
	for (int i = 0; i < n; i++) {
		ctx[i].coll = c;
		ctx[i].call = call;
		ctx[i].rank = rank;
		ctx[i].channel = i;
		ctx[i].channels = n;
		ctx[i].seq = seq;
		ctx[i].name = (unsigned)mbname;
		ctx[i].host_index = channel_host(c, rank, i);
		ctx[i].host = c->p->hosts[ctx[i].host_index].sg;
		for (int k = 0; k < MAILBOX_CACHE; k++)
			ctx[i].send_cache[k].box = ctx[i].recv_cache[k].box = -1;
	}
	ngroups = group_channels(c, ctx, n, groups, order);
	/* Groups on other hosts (or beyond the first) get actors of their
	 * own; a group on the caller's host runs in the caller. */
	for (int g = 0; g < ngroups; g++) {
		if (g == 0 && groups[g].ctx[0]->host == self)
			continue;
		snprintf(name, sizeof(name), "coll-r%d-c%d", rank, groups[g].ctx[0]->channel);
		groups[g].actor = dl_actor_start(name, groups[g].ctx[0]->host, run_group, &groups[g]);
		sg_actor_ref(groups[g].actor);
	}
	if (!groups[0].actor)
		run_group(&groups[0]);
	for (int g = 0; g < ngroups; g++) {
		if (!groups[g].actor)
			continue;
		sg_actor_join(groups[g].actor, -1);
		sg_actor_unref(groups[g].actor);
	}
	call_forget(block);
	if (dl_mbnames_leave(&c->names, seq, call->ranks, &stray))
		dl_sim_plugin_error(c->plugin, "",
				    "call %u ended with a transfer to rank %d, channel %d, tag %d unmatched (a send no rank received, or a receive no rank sent to)",
				    seq + 1, stray.rank, stray.channel, stray.tag);
}
