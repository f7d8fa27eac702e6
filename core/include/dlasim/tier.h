/* SPDX-License-Identifier: MIT */
/*
 * Tier-placement plugins (DLASIM_KIND_TIER_PLACEMENT).
 *
 * One NPU chip trains one iteration of a transformer; its off-chip memory
 * has two tiers (HBM, flash).  The host simulates the chip (MXUs, DMA
 * controller, request timing monitor) and runs the placement manager, an
 * actor that calls the plugin:
 *   place()    when a tensor is written from on-chip SRAM: which fraction
 *              of it goes to tier 1 (horizontal arrangement only);
 *   prepare()  when the DMA controller is about to fetch the operands of
 *              an op: the plugin may promote, demote or make room;
 *   victim()   when tier 1 needs room: which tensor to evict from;
 *   start()    when the MXUs start an op whose operands are read in
 *              several passes (Algorithm 2): last chance to promote.
 * Data are tracked per tensor and, inside a tensor, as the number of bytes
 * in each tier (a split ratio, in steps of 1/units): never per page.
 *
 * The host checks every answer: a split ratio outside [0, 1], a victim
 * that is not in tier 1 or that an op is using, an unknown tensor: each
 * stops the run with one message naming the plugin.
 *
 * In online-only mode (dlasim tier --online-only; the study) a plugin that
 * does not declare DLASIM_TIER_OFFLINE sees only the past and the present:
 * the oracle services (next_use, belady_victim, evictable_after, window,
 * best_io_tiers, op() of an op ahead, and the ORACLE and BYPASS flags)
 * stop the run, and an op's compute_s reads as the monitor measured the
 * first op of its kind (-1 before it ends).
 *
 * Structs are append-only; each starts with its size (DLASIM_HAS_MEMBER).
 * Guide for plugin writers: docs/tier-plugins.md.
 */
#ifndef DLASIM_TIER_H
#define DLASIM_TIER_H

#include <stdbool.h>
#include <string.h>

#include <dlasim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_TIER_OPS_VERSION 1u

/* "No further use" for next_use(). */
#define DLASIM_TIER_NEVER 0x7fffffff

/* How the two tiers are arranged (Figure 1 of TM-Training). */
enum dlasim_tier_arrangement {
	DLASIM_TIER_HBM_ONLY = 0,	/* tier 1 is the whole address space */
	DLASIM_TIER_HORIZONTAL = 1,	/* both tiers addressable, exclusive;
					 * the DMA reads either tier directly */
	DLASIM_TIER_VERTICAL = 2,	/* tier 1 caches tier 2; every read and
					 * write passes through tier 1 */
};

/* Where an op sits in the iteration. */
enum dlasim_tier_phase {
	DLASIM_TIER_FORWARD = 0,
	DLASIM_TIER_RECOMPUTE = 1,	/* forward ops re-run in the backward pass */
	DLASIM_TIER_BACKWARD = 2,
	DLASIM_TIER_PHASES = 3,
};

/* 4-bit data labels of the request timing monitor (Table 4); 0xC and 0xF,
 * unused by Table 4, label the language-model head's input and weight. */
#define DLASIM_TIER_LABELS 16

/* A tensor.  The host updates the state members as the run goes on. */
struct dlasim_tier_tensor {
	size_t size;
	int id;
	const char *name;	/* e.g. "l3.fwd.Q" */
	int layer;		/* -1 outside the layers */
	unsigned label;		/* data label at its first read */
	enum dlasim_tier_phase phase;	/* phase of its first read */
	bool weight;		/* a weight (gathered before use) */
	double bytes;
	int units;		/* split granularity: 1/units of the tensor */
	int producer;		/* op writing it */
	int first_use;		/* first op reading it, DLASIM_TIER_NEVER if none */
	int last_use;		/* last op reading it */
	double first_use_bytes;	/* bytes its first reader requests (D) */

	/* state */
	bool live;		/* written (or being written) and not freed */
	double tier1_bytes;	/* valid in tier 1 */
	double tier2_bytes;	/* valid in tier 2 (horizontal: not in tier 1) */
	double moving_bytes;	/* in flight between tiers (not bytes taken
				 * back by promote_missing, which are in
				 * tier1_bytes while their write ends) */
	bool promoted_unused;	/* promoted (or kept in tier 1 for an op ahead
				 * by split_prepare) since it was last read */
	double last_access_s;	/* last read or write started (LRU) */
};

/* One operand of an op. */
struct dlasim_tier_operand {
	int tensor;
	unsigned label;		/* Table 4 label of this operand slot */
	bool stationary;	/* weight-stationary operand of the MXU */
	double fraction;	/* part of the tensor read (1 but for lookups) */
	double fetches;		/* times it is fetched from off-chip (Alg. 2) */
};

struct dlasim_tier_op {
	size_t size;
	int index;
	const char *name;	/* e.g. "l3.bwd.ff1_dw" */
	int layer;
	enum dlasim_tier_phase phase;
	double macs;
	double compute_s;	/* MXU time alone */
	int ninputs;
	const struct dlasim_tier_operand *inputs;
	int noutputs;
	const int *outputs;	/* tensor ids */
	/* Appended after the first release (DLASIM_HAS_MEMBER). */
	int kind;		/* the same op in every layer shares its kind */
	double network_bytes;	/* > 0: a collective, run on the inter-chip
				 * network (bytes the chip sends or receives)
				 * while the MXUs go on; 0: an op of the chip */
};

/* The simulated system, fixed for a run. */
struct dlasim_tier_system {
	size_t size;
	enum dlasim_tier_arrangement arrangement;
	double address_space_bytes;
	double tier1_capacity_bytes;
	double tier2_capacity_bytes;
	double tier1_bw_Bps;		/* HBM, read and write */
	double tier2_read_bw_Bps;	/* flash */
	double tier2_write_bw_Bps;
	double tier1_j_per_byte;	/* dynamic energy */
	double tier2_j_per_byte;
	double tier1_static_w;		/* for the tier-1 capacity */
	double tier2_static_w;
	double onchip_static_w;		/* the chip's idle power */
	int seq;			/* sequence length of the workload */
	/* Appended after the first release (DLASIM_HAS_MEMBER). */
	double network_bw_Bps;		/* the chip's inter-chip network port */
};

/* Request timing monitor record of one data label in one phase: the first
 * time that label was fetched (T1: DMA starts fetching it into CMEM, T2:
 * the op using it starts on the MXU, T3: that op ends). */
struct dlasim_tier_timing {
	size_t size;
	bool measured;		/* all three values recorded */
	double t1_s, t2_s, t3_s;
	double bytes;		/* bytes that use requested */
};

/* What one op cost, handed to op_done() when it ends: its time, and the
 * bytes moved and energy spent since the op before it ended. */
struct dlasim_tier_feedback {
	size_t size;
	double start_s, end_s;		/* on the MXUs (a collective: the network) */
	double compute_s;		/* MXU time alone */
	double stall_s;			/* time the MXUs waited for it */
	double energy_j;		/* the whole chip's, since the op before */
	double promoted_bytes, demoted_bytes;
	double tier1_read_bytes, tier2_read_bytes;
	double tier1_write_bytes, tier2_write_bytes;
};

struct dlasim_tier_ctx;		/* the run, handed to every callback */

/* Flags of struct dlasim_tier_ops. */
#define DLASIM_TIER_WHOLE_TENSORS 0x1u
#define DLASIM_TIER_STAGE_MISSES 0x2u	/* horizontal: the chip reads and
					 * writes tier 2 through tier 1 */
#define DLASIM_TIER_OFFLINE 0x4u	/* the policy knows the future: in
					 * online-only mode only such a policy
					 * may call the oracle services */

/* Flags of the services. */
#define DLASIM_TIER_SPARE_PROMOTED 0x1u	/* victims: skip promoted-but-unused data */
#define DLASIM_TIER_EXACT 0x2u		/* split_ratio: do not round to 1/units */
#define DLASIM_TIER_WAIT 0x4u		/* promote/evict/make_room: block the
					 * manager until the moves are done */
#define DLASIM_TIER_ORACLE 0x8u	/* split_ratio and the placement
					 * services: every op's MXU time known
					 * in advance, not the monitor's */
#define DLASIM_TIER_BYPASS 0x10u	/* split_place: room only from data read
					 * after the tensor (Belady) */

struct dlasim_tier_ops {
	size_t size;	/* sizeof(struct dlasim_tier_ops) of the plugin */
	enum dlasim_tier_arrangement arrangement;
	/* Fraction of a tensor being written to store in tier 1, in [0, 1].
	 * Horizontal only; NULL means 1. */
	double (*place)(void *state, struct dlasim_tier_ctx *ctx,
			const struct dlasim_tier_tensor *t);
	/* The DMA controller is about to fetch the operands of `op`.  May call
	 * promote/evict/make_room.  NULL: nothing to do. */
	int (*prepare)(void *state, struct dlasim_tier_ctx *ctx,
		       const struct dlasim_tier_op *op);
	/* Tier 1 needs `bytes` more room: the tensor to evict from, or -1 if
	 * nothing should go.  NULL: the host's LRU choice. */
	int (*victim)(void *state, struct dlasim_tier_ctx *ctx, double bytes);
	/* The MXUs are about to start `op`, whose first pass of operands is
	 * in SRAM; the other passes are read next.  May promote (or evict)
	 * as prepare() may.  NULL: nothing to do. */
	int (*start)(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op);
	/* DLASIM_TIER_WHOLE_TENSORS: the policy does not split data; a tensor
	 * is placed, promoted and evicted whole (a placement that does not
	 * fit in tier 1 goes to tier 2 whole).  DLASIM_TIER_STAGE_MISSES: the
	 * chip reads tier-2 data through tier 1 (a copy there for the use,
	 * counted as a promotion) and writes tier-2 shares through it (a
	 * demotion), instead of reading and writing tier 2 in place.
	 * DLASIM_TIER_OFFLINE: the policy uses knowledge of the future (the
	 * ops ahead, next uses, exact MXU times); see the services. */
	unsigned flags;

	/* Appended after the first release (DLASIM_HAS_MEMBER); NULL: none. */
	/* Once per run, before the first op: the system is sized, the ops and
	 * tensors are known.  DLASIM_OK or DLASIM_ERR. */
	int (*setup)(void *state, struct dlasim_tier_ctx *ctx);
	/* The host evicted `bytes` of `tensor` from tier 1 to make room (its
	 * victims, through victim() or the host's LRU); delivered after the
	 * callback or service that caused it.  Only reading services. */
	void (*evicted)(void *state, struct dlasim_tier_ctx *ctx, int tensor, double bytes);
	/* Op `op` ended; what it cost.  Delivered before the plugin's next
	 * callback (the last ones after the run).  Only reading services. */
	void (*op_done)(void *state, struct dlasim_tier_ctx *ctx, const struct dlasim_tier_op *op,
			const struct dlasim_tier_feedback *fb);
};

struct dlasim_tier_services {
	size_t size;

	/* The iteration. */
	int (*op_count)(const struct dlasim_tier_ctx *ctx);
	const struct dlasim_tier_op *(*op)(const struct dlasim_tier_ctx *ctx, int index);
	int (*tensor_count)(const struct dlasim_tier_ctx *ctx);
	const struct dlasim_tier_tensor *(*tensor)(const struct dlasim_tier_ctx *ctx, int id);
	const struct dlasim_tier_system *(*system)(const struct dlasim_tier_ctx *ctx);
	/* First op after `after` that reads `tensor`, or DLASIM_TIER_NEVER. */
	int (*next_use)(const struct dlasim_tier_ctx *ctx, int tensor, int after);

	/* Tier 1.  Bytes free now (moves out of tier 1 count as done). */
	double (*tier1_free)(const struct dlasim_tier_ctx *ctx);
	/* In tier 1 and not used by an op in progress. */
	bool (*evictable)(const struct dlasim_tier_ctx *ctx, int tensor);
	/* Least recently used evictable tensor, or -1.  belady_victim: the
	 * one whose next use is furthest per pass it reads (MXU time to it
	 * over the passes: Belady's furthest next use when all read once). */
	int (*lru_victim)(const struct dlasim_tier_ctx *ctx, unsigned flags);
	int (*belady_victim)(const struct dlasim_tier_ctx *ctx, unsigned flags);
	/* Bytes of evictable tier-1 data not read again before op `op`. */
	double (*evictable_after)(const struct dlasim_tier_ctx *ctx, int op);

	/* Moves, inside prepare().  promote: tier 2 -> tier 1 (vertical: a
	 * copy), making room through victim(); evict: tier 1 -> tier 2 (a drop
	 * for clean vertical data); make_room: evict through victim() until
	 * `bytes` are free.  Return the bytes actually moved or freed, < 0 on
	 * a plugin error (the run then stops). */
	double (*promote)(struct dlasim_tier_ctx *ctx, int tensor, double bytes, unsigned flags);
	double (*evict)(struct dlasim_tier_ctx *ctx, int tensor, double bytes, unsigned flags);
	double (*make_room)(struct dlasim_tier_ctx *ctx, double bytes, unsigned flags);

	/* Request timing monitor (Table 4). */
	const struct dlasim_tier_timing *(*timing)(const struct dlasim_tier_ctx *ctx,
						   unsigned label, enum dlasim_tier_phase phase);

	/* Algorithm 1: split ratio approximation. */
	double (*split_approx)(double tc_s, double bytes, double bw1_Bps, double bw2_Bps);
	/* Algorithms 1 + 3 for a tensor from the monitor's record of its
	 * label: the tier-1 share, rounded up to 1/units unless EXACT; -1 if
	 * the label has not been measured yet. */
	double (*split_ratio)(const struct dlasim_tier_ctx *ctx, int tensor, unsigned flags);

	/* Estimates for op `op`: the window its operands are fetched in (the
	 * MXU time of the op before it) and the time to fetch them from where
	 * they are now, per tier. */
	double (*window)(const struct dlasim_tier_ctx *ctx, int op);
	void (*fetch_time)(const struct dlasim_tier_ctx *ctx, int op,
			   double *tier1_s, double *tier2_s);
	/* AutoTM's four cases for op `op` (inputs and output each in tier 1 or
	 * tier 2): the fastest, ties to fewer moved bytes. */
	void (*best_io_tiers)(const struct dlasim_tier_ctx *ctx, int op,
			      bool *inputs_tier1, bool *output_tier1);

	/* TM-Training's placement, shared by its variants (docs/tier.md);
	 * flags ORACLE, EXACT, BYPASS, WAIT.  split_place: the tier-1 share
	 * of a tensor being written (1 before its label is measured; with
	 * BYPASS, no more than room from data read after it).
	 * promote_essential, inside prepare() or start(): promote what op
	 * `op` cannot read from tier 2 in time, data it re-reads in every
	 * pass first, then data read again soon (data read once are read
	 * where they are); returns the bytes promoted.  split_prepare,
	 * inside prepare(op): over the ops ahead, keeps in tier 1 the data
	 * they re-read in every pass and promotes what they need in time
	 * (promote_essential); without BYPASS, makes room for what op and
	 * op + 1 write to tier 1 (proactive eviction). */
	double (*split_place)(struct dlasim_tier_ctx *ctx, int tensor, unsigned flags);
	double (*promote_essential)(struct dlasim_tier_ctx *ctx, int op, unsigned flags);
	int (*split_prepare)(struct dlasim_tier_ctx *ctx, int op, unsigned flags);

	/* Appended after the first release (DLASIM_HAS_MEMBER). */
	/* What is in tier 1: set *cursor to 0, then each call returns a tensor
	 * with bytes in tier 1, or -1 after the last.  The order is the
	 * host's; evicting while iterating may skip a tensor. */
	int (*tier1_next)(const struct dlasim_tier_ctx *ctx, int *cursor);
	/* The monitor's record of the window in which `tensor` is first read
	 * (the operand of that kind of op; measured once the first op of the
	 * kind has ended), NULL if none reads it. */
	const struct dlasim_tier_timing *(*use_timing)(const struct dlasim_tier_ctx *ctx,
						       int tensor);
	/* Inside prepare() or start(): bring all of `tensor` into tier 1.
	 * Bytes being demoted are taken back (a move copies: they are in tier
	 * 1 until it ends; the write under way ends, tier 1 keeps them and
	 * their room), the rest not in tier 1 or on its way there is promoted
	 * as promote() does.  Returns the bytes taken back and promoted.
	 * (promote() alone moves only bytes in tier 2: bytes - tier1_bytes -
	 * moving_bytes is 0 while the tensor is being demoted.) */
	double (*promote_missing)(struct dlasim_tier_ctx *ctx, int tensor, unsigned flags);
};

/* Copy a one-line reason into init()'s err buffer. */
static inline int dlasim_tier_refuse(char *err, size_t errlen, const char *why)
{
	if (errlen) {
		strncpy(err, why, errlen - 1);
		err[errlen - 1] = '\0';
	}
	return DLASIM_ERR;
}

/*
 * Inside prepare() or start(): promote_missing() every live input of op
 * `index`, the fetch ahead of ver_off and sentinel.  The host must have
 * promote_missing (DLASIM_TIER_SERVICES_WITH checks it).
 */
static inline int dlasim_tier_promote_inputs(const struct dlasim_tier_services *svc,
					     struct dlasim_tier_ctx *ctx, int index)
{
	const struct dlasim_tier_op *o = svc->op(ctx, index);

	for (int k = 0; k < o->ninputs; k++) {
		const struct dlasim_tier_tensor *t = svc->tensor(ctx, o->inputs[k].tensor);

		if (t->live && svc->promote_missing(ctx, t->id, 0) < 0)
			return DLASIM_ERR;
	}
	return DLASIM_OK;
}

/*
 * For plugins whose only state is the host's tier services:
 * DLASIM_TIER_SERVICES(svc) declares `svc` and an init function,
 * dlasim_tier_init, that sets it and refuses options.
 * DLASIM_TIER_SERVICES_WITH(svc, member) does the same for a plugin that
 * calls a service appended later (e.g. promote_missing), and refuses a
 * host whose services end before it.
 */
#define DLASIM_TIER_SERVICES(svc) DLASIM_TIER_SERVICES_WITH(svc, size)
#define DLASIM_TIER_SERVICES_WITH(svc, member) \
	static const struct dlasim_tier_services *svc; \
	static int dlasim_tier_init(const struct dlasim_host_api *host, const char *options, \
				    void **state, char *err, size_t errlen) \
	{ \
		*state = NULL; \
		if (!host->tier) \
			return dlasim_tier_refuse(err, errlen, "this dlasim has no tier services"); \
		if (!DLASIM_HAS_MEMBER(host->tier, struct dlasim_tier_services, member)) \
			return dlasim_tier_refuse(err, errlen, \
						  "this dlasim's tier services have no " #member); \
		if (options && *options) \
			return dlasim_tier_refuse(err, errlen, "this plugin takes no options"); \
		svc = host->tier; \
		return DLASIM_OK; \
	}

/*
 * A whole plugin made of TM-Training's placement services: split_place
 * with `pflags` for the results, split_prepare with `pflags` before each
 * op, promote_essential when an op starts, and `victim_fn` (an int
 * (void *, struct dlasim_tier_ctx *, double)) for tier 1's victims; its
 * ops carry `oflags` (DLASIM_TIER_OFFLINE for a victim or pflags that
 * tell the future).  Put DLASIM_TIER_SERVICES(svc) before it.
 */
#define DLASIM_TIER_SPLIT_PLUGIN(pname, pdesc, pflags, victim_fn) \
	DLASIM_TIER_SPLIT_PLUGIN_FLAGS(pname, pdesc, pflags, victim_fn, 0)
#define DLASIM_TIER_SPLIT_PLUGIN_FLAGS(pname, pdesc, pflags, victim_fn, oflags) \
	static double split_place_(void *state, struct dlasim_tier_ctx *ctx, \
				   const struct dlasim_tier_tensor *t) \
	{ \
		return svc->split_place(ctx, t->id, (pflags)); \
	} \
	static int split_prepare_(void *state, struct dlasim_tier_ctx *ctx, \
				  const struct dlasim_tier_op *op) \
	{ \
		return svc->split_prepare(ctx, op->index, (pflags)); \
	} \
	static int split_start_(void *state, struct dlasim_tier_ctx *ctx, \
				const struct dlasim_tier_op *op) \
	{ \
		double moved = svc->promote_essential(ctx, op->index, (pflags) & \
						      (DLASIM_TIER_BYPASS | DLASIM_TIER_ORACLE)); \
		return moved < 0 ? DLASIM_ERR : DLASIM_OK; \
	} \
	static const struct dlasim_tier_ops split_ops_ = { \
		.size = sizeof(split_ops_), \
		.arrangement = DLASIM_TIER_HORIZONTAL, \
		.place = split_place_, \
		.prepare = split_prepare_, \
		.victim = victim_fn, \
		.start = split_start_, \
		.flags = (oflags), \
	}; \
	DLASIM_PLUGIN_EXPORT = { \
		.abi_version = DLASIM_ABI_VERSION, \
		.kind = DLASIM_KIND_TIER_PLACEMENT, \
		.ops_version = DLASIM_TIER_OPS_VERSION, \
		.name = pname, \
		.description = pdesc, \
		.init = dlasim_tier_init, \
		.ops = &split_ops_, \
	}

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_TIER_H */
