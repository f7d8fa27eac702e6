/* SPDX-License-Identifier: MIT */
/*
 * Collective-communication plugins (DLASIM_KIND_COLLECTIVE).
 *
 * A collective call runs on every rank (device) at once.  For each call the
 * host asks the plugin how many channels it wants; it then starts one actor
 * per (rank, channel) and calls ops->run() in each.  The call is complete on
 * a rank when all its channels have returned.
 *
 * A plugin that implements run_channels() instead drives, from one actor,
 * all the channels of a rank that sit on the same host (with asynchronous
 * transfers), so that a collective costs about one actor per rank: at
 * tens of thousands of devices the actors' stacks are what limits a run.
 *
 * Where a channel runs: channel c of a rank is bound to ring c when the
 * platform declares more than c rings (its actor sits on the rank's member
 * host of that ring: the device itself, or a port host of the device);
 * otherwise it sits on the device host.  Messages always go from a channel
 * to the same channel of another rank, so a ring algorithm that uses
 * channel c for ring c sends over that ring's links.
 *
 * Data are not moved, only their sizes: isend() simulates a transfer of
 * `bytes` over the platform route between the two channels' hosts, sharing
 * links fluidly with all other traffic.
 */
#ifndef DLASIM_COLL_H
#define DLASIM_COLL_H

#include <dlasim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_COLL_OPS_VERSION 1u

/* Default broadcast pipeline piece of ring_plan(), bytes. */
#define DLASIM_PIPELINE_CHUNK (4.0 * 1024 * 1024)

enum dlasim_coll_op {
	DLASIM_COLL_ALLREDUCE = 0,
	DLASIM_COLL_ALLGATHER = 1,
	DLASIM_COLL_REDUCESCATTER = 2,
	DLASIM_COLL_BROADCAST = 3,
	/* Appended: every rank sends S/N to each rank and keeps S/N (S is
	 * each rank's buffer).  Only plugins whose supports() says so run it. */
	DLASIM_COLL_ALLTOALL = 4,
};

/*
 * What is being asked.  `bytes` is S, the size of the full buffer:
 *   all-reduce: every rank's input and output are S bytes;
 *   all-gather: every rank contributes S/N and receives S;
 *   reduce-scatter: every rank contributes S and receives S/N;
 *   broadcast: the root sends S bytes to every rank.
 */
struct dlasim_coll_call {
	enum dlasim_coll_op op;
	double bytes;
	int ranks;	/* N */
	int root;	/* broadcast root, else 0 */
	int rings;	/* rings declared by the platform (may be 0) */
};

/*
 * How a ring algorithm moves one ring's share of the buffer, as computed by
 * the host's ring_plan() service (shared by every ring-based plugin):
 *   all-reduce: 2 phases (reduce-scatter, all-gather) of N-1 steps;
 *   all-gather, reduce-scatter: 1 phase of N-1 steps;
 * each step sends one chunk = share / N to the next rank.
 *   broadcast: the share is cut into `pieces` chunks of at most the
 *   requested pipeline chunk and forwarded along the ring from the root;
 *   `distance` is this rank's number of hops from the root (0 = root).
 */
struct dlasim_ring_plan {
	size_t size;
	double share;		/* bytes this ring carries: S / rings */
	int phases;		/* 0 for broadcast */
	int steps;		/* per phase */
	double chunk;		/* bytes per step or per pipeline piece */
	int pieces;		/* broadcast: pieces per rank, else 0 */
	int distance;		/* broadcast: hops from the root */
	int ring_size;		/* N */
};

struct dlasim_coll_ctx;		/* one channel of one rank in one call */
struct dlasim_comm;		/* an outstanding transfer */

struct dlasim_coll_ops {
	size_t size;	/* sizeof(struct dlasim_coll_ops) of the plugin */
	/* Channels to run per rank for this call (>= 1).  A ring algorithm
	 * returns call->rings.  Returning < 1 is an error. */
	int (*channels)(void *state, const struct dlasim_coll_call *call);
	/* One channel of one rank.  Runs inside its own actor; may block on
	 * host->coll services and host->sleep().  Return DLASIM_OK or
	 * DLASIM_ERR (after logging why); an error stops the simulation. */
	int (*run)(void *state, const struct dlasim_host_api *host,
		   struct dlasim_coll_ctx *ctx);
	/* Optional (test with DLASIM_HAS_MEMBER): run `count` channels of one
	 * rank, all on the same host, in the calling actor; ctx[i] are their
	 * contexts in channel order.  When present the host calls it instead
	 * of run(), once per rank and host.  Same return codes as run(). */
	int (*run_channels)(void *state, const struct dlasim_host_api *host,
			    struct dlasim_coll_ctx *const *ctx, int count);
	/* Optional (test with DLASIM_HAS_MEMBER): non-zero if the plugin runs
	 * operation `op`.  Without it a plugin runs the operations before
	 * DLASIM_COLL_ALLTOALL; the host refuses the others by name. */
	int (*supports)(void *state, enum dlasim_coll_op op);
};

struct dlasim_coll_services {
	size_t size;

	const struct dlasim_coll_call *(*call)(const struct dlasim_coll_ctx *ctx);
	int (*rank)(const struct dlasim_coll_ctx *ctx);
	int (*channel)(const struct dlasim_coll_ctx *ctx);
	int (*channels)(const struct dlasim_coll_ctx *ctx);

	/* Neighbours of `rank` on ring `ring` (0 <= ring < call->rings). */
	int (*ring_next)(const struct dlasim_coll_ctx *ctx, int ring, int rank);
	int (*ring_prev)(const struct dlasim_coll_ctx *ctx, int ring, int rank);

	/* Route from this channel's host to the same channel of `dst`:
	 * latency (s) and bottleneck bandwidth (B/s). */
	double (*latency)(const struct dlasim_coll_ctx *ctx, int dst);
	double (*bandwidth)(const struct dlasim_coll_ctx *ctx, int dst);

	/* Start sending `bytes` (>= 0) to channel ctx->channel of rank `dst`,
	 * matched by a receive with the same `tag` there.  NULL on error
	 * (bad rank, no route: the host has reported it). */
	struct dlasim_comm *(*isend)(struct dlasim_coll_ctx *ctx, int dst,
				     int tag, double bytes);
	/* Start receiving the next message sent to this channel with `tag`. */
	struct dlasim_comm *(*irecv)(struct dlasim_coll_ctx *ctx, int tag);
	/* Wait for one / all transfers; each handle is consumed. */
	int (*wait)(struct dlasim_comm *comm);
	int (*wait_all)(struct dlasim_comm **comms, int count);

	/* Position of `rank` in ring `ring` (0 .. N-1, ring order). */
	int (*ring_pos)(const struct dlasim_coll_ctx *ctx, int ring, int rank);
	/* The ring schedule of this call for ring = this channel; a broadcast
	 * is cut into pieces of at most `pipeline_chunk` bytes, or of the
	 * host's DLASIM_PIPELINE_CHUNK when `pipeline_chunk` <= 0. */
	int (*ring_plan)(const struct dlasim_coll_ctx *ctx, double pipeline_chunk,
			 struct dlasim_ring_plan *plan);

	/*
	 * System nodes of a scale-out platform (devices name theirs in the
	 * platform file): how many (0 when the platform declares none), the
	 * node of `rank`, how many ranks a node has, its `index`-th rank and
	 * a rank's index in its node.  Ranks of a node are ordered as on this
	 * channel's ring (rank order on a channel without a ring), so that a
	 * ring over a node's ranks follows the node's own wiring.
	 */
	int (*nodes)(const struct dlasim_coll_ctx *ctx);
	int (*node_of)(const struct dlasim_coll_ctx *ctx, int rank);
	int (*node_size)(const struct dlasim_coll_ctx *ctx, int node);
	int (*node_member)(const struct dlasim_coll_ctx *ctx, int node, int index);
	int (*node_index)(const struct dlasim_coll_ctx *ctx, int rank);

	/* Stop the run: the host reports "<plugin>, rank R channel C: <why>"
	 * as one line.  Does not return. */
	void (*fail)(struct dlasim_coll_ctx *ctx, const char *fmt, ...)
		__attribute__((format(printf, 2, 3), noreturn));

	/* Appended: non-zero if this channel's host has a route to the same
	 * channel of rank `dst` (a question, never a failure). */
	int (*reaches)(const struct dlasim_coll_ctx *ctx, int dst);

	/* Appended: the options of a ring algorithm, "bidir=0" (one
	 * direction, the default) or "bidir=1" (half of each chunk each
	 * way); anything else is refused with a reason in err.  Sets *bidir
	 * to 0 or 1; returns DLASIM_OK or DLASIM_ERR.  Callable from init. */
	int (*ring_options)(const char *options, int *bidir, char *err, size_t errlen);
};

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_COLL_H */
