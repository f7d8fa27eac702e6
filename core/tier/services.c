/* SPDX-License-Identifier: MIT */
/*
 * The tier services a plugin calls (struct dlasim_tier_services): the
 * iteration, tier 1, moves, the request timing monitor and TM-Training's
 * placement.  Every argument is checked.  In online-only mode a plugin that
 * does not declare DLASIM_TIER_OFFLINE sees only the past and the present:
 * the services that tell the future stop the run, and ops read with the
 * MXU time the monitor measured.
 */
#include "services.h"

#include "estimate.h"
#include "mem.h"
#include "place.h"
#include "split.h"

static void check_id(const struct dlasim_tier_ctx *run, int v, int n, const char *what,
		     const char *fn)
{
	if (v < 0 || v >= n)
		run_plugin_fail((struct dlasim_tier_ctx *)run, "%s(): %s %d out of range [0, %d)",
				fn, what, v, n);
}

/* A service that tells the future. */
static void oracle(const struct dlasim_tier_ctx *run, const char *fn)
{
	if (run->online)
		run_plugin_fail((struct dlasim_tier_ctx *)run,
				"%s tells the future: in online-only mode only a plugin declaring DLASIM_TIER_OFFLINE may call it",
				fn);
}

static void oracle_flags(const struct dlasim_tier_ctx *run, const char *fn, unsigned flags)
{
	if (flags & (DLASIM_TIER_ORACLE | DLASIM_TIER_BYPASS))
		oracle(run, fn);
}

/* Moves only from prepare() or start(). */
static void check_action(struct dlasim_tier_ctx *run, const char *fn, double bytes)
{
	if (!run->in_callback)
		run_plugin_fail(run, "%s() called outside prepare() or start()", fn);
	if (!(bytes >= 0))
		run_plugin_fail(run, "%s(): %g is not a byte count", fn, bytes);
}

const struct dlasim_tier_op *services_op(struct dlasim_tier_ctx *run, int i)
{
	struct dlasim_tier_op *v;

	if (!run->online)
		return &run->g.ops[i].pub;
	v = &run->op_view[i];
	*v = run->g.ops[i].pub;
	v->compute_s = est_op_time(run, i, 0);
	return v;
}

/* ---- the iteration ---- */

static int svc_op_count(const struct dlasim_tier_ctx *run)
{
	return run->g.nops;
}

static const struct dlasim_tier_op *svc_op(const struct dlasim_tier_ctx *run, int i)
{
	check_id(run, i, run->g.nops, "op", "op");
	if (run->online && i > run->cur_op)
		oracle(run, "op() of an op ahead");
	return services_op((struct dlasim_tier_ctx *)run, i);
}

static int svc_tensor_count(const struct dlasim_tier_ctx *run)
{
	return run->g.nt;
}

static const struct dlasim_tier_tensor *svc_tensor(const struct dlasim_tier_ctx *run, int id)
{
	check_id(run, id, run->g.nt, "tensor", "tensor");
	return &run->g.t[id].pub;
}

static const struct dlasim_tier_system *svc_system(const struct dlasim_tier_ctx *run)
{
	return &run->sys;
}

static int svc_next_use(const struct dlasim_tier_ctx *run, int id, int after)
{
	check_id(run, id, run->g.nt, "tensor", "next_use");
	oracle(run, "next_use()");
	return tier_graph_next_use(&run->g, id, after);
}

/* ---- tier 1 ---- */

static bool svc_evictable(const struct dlasim_tier_ctx *run, int id)
{
	check_id(run, id, run->g.nt, "tensor", "evictable");
	return mem_evictable(run, id);
}

static int svc_belady_victim(const struct dlasim_tier_ctx *run, unsigned flags)
{
	oracle(run, "belady_victim()");
	return mem_belady_victim(run, flags);
}

static double svc_evictable_after(const struct dlasim_tier_ctx *run, int op)
{
	check_id(run, op, run->g.nops, "op", "evictable_after");
	oracle(run, "evictable_after()");
	return mem_evictable_after(run, op);
}

static int svc_tier1_next(const struct dlasim_tier_ctx *run, int *cursor)
{
	if (!cursor || *cursor < 0 || *cursor >= run->nresident)
		return -1;
	return run->resident[(*cursor)++];
}

/* ---- moves ---- */

static double svc_promote(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags)
{
	check_action(run, "promote", bytes);
	check_id(run, id, run->g.nt, "tensor", "promote");
	return mem_promote(run, id, bytes, flags);
}

static double svc_promote_missing(struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	check_action(run, "promote_missing", 0);
	check_id(run, id, run->g.nt, "tensor", "promote_missing");
	return mem_promote_missing(run, id, flags);
}

static double svc_evict(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags)
{
	check_action(run, "evict", bytes);
	check_id(run, id, run->g.nt, "tensor", "evict");
	if (run->ts[id].pins > 0 && run->g.t[id].pub.tier1_bytes > 0)
		run_plugin_fail(run, "evict() of %s while op %s uses it",
				run->g.t[id].name, run->g.ops[run->cur_op].name);
	return mem_evict(run, id, bytes, flags);
}

static double svc_make_room(struct dlasim_tier_ctx *run, double bytes, unsigned flags)
{
	check_action(run, "make_room", bytes);
	return mem_make_room(run, bytes, flags);
}

/* ---- the monitor and the estimates ---- */

static const struct dlasim_tier_timing *svc_timing(const struct dlasim_tier_ctx *run,
						   unsigned label, enum dlasim_tier_phase phase)
{
	if (label >= DLASIM_TIER_LABELS || (unsigned)phase >= DLASIM_TIER_PHASES)
		run_plugin_fail((struct dlasim_tier_ctx *)run, "timing(): no label %u phase %d",
				label, phase);
	return &run->timing[label][phase];
}

static const struct dlasim_tier_timing *svc_use_timing(const struct dlasim_tier_ctx *run, int id)
{
	check_id(run, id, run->g.nt, "tensor", "use_timing");
	return est_use_record(run, id);
}

static double svc_split_ratio(const struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	check_id(run, id, run->g.nt, "tensor", "split_ratio");
	oracle_flags(run, "split_ratio() with ORACLE or BYPASS", flags);
	return est_split_ratio(run, id, flags);
}

static double svc_window(const struct dlasim_tier_ctx *run, int op)
{
	check_id(run, op, run->g.nops, "op", "window");
	oracle(run, "window()");
	return est_window(run, op);
}

static void svc_fetch_time(const struct dlasim_tier_ctx *run, int op, double *tier1_s,
			   double *tier2_s)
{
	check_id(run, op, run->g.nops, "op", "fetch_time");
	est_fetch_time(run, op, tier1_s, tier2_s);
}

static void svc_best_io_tiers(const struct dlasim_tier_ctx *run, int op, bool *inputs_tier1,
			      bool *output_tier1)
{
	check_id(run, op, run->g.nops, "op", "best_io_tiers");
	oracle(run, "best_io_tiers()");
	est_best_io_tiers(run, op, inputs_tier1, output_tier1);
}

/* ---- TM-Training's placement ---- */

static double svc_split_place(struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	check_id(run, id, run->g.nt, "tensor", "split_place");
	oracle_flags(run, "split_place() with ORACLE or BYPASS", flags);
	return place_split(run, id, flags);
}

static double svc_promote_essential(struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	check_action(run, "promote_essential", 0);
	check_id(run, op, run->g.nops, "op", "promote_essential");
	oracle_flags(run, "promote_essential() with ORACLE or BYPASS", flags);
	return place_essential(run, op, flags);
}

static int svc_split_prepare(struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	check_action(run, "split_prepare", 0);
	check_id(run, op, run->g.nops, "op", "split_prepare");
	oracle_flags(run, "split_prepare() with ORACLE or BYPASS", flags);
	return place_prepare(run, op, flags);
}

bool tier_ops_check(const void *p, const char **why)
{
	const struct dlasim_tier_ops *ops = p;

	if (ops->size < sizeof(size_t) + sizeof(enum dlasim_tier_arrangement)) {
		*why = "ops size too small";
		return false;
	}
	if ((unsigned)ops->arrangement > DLASIM_TIER_VERTICAL) {
		*why = "unknown tier arrangement";
		return false;
	}
	return true;
}

const struct dlasim_tier_services tier_services = {
	.size = sizeof(struct dlasim_tier_services),
	.op_count = svc_op_count,
	.op = svc_op,
	.tensor_count = svc_tensor_count,
	.tensor = svc_tensor,
	.system = svc_system,
	.next_use = svc_next_use,
	.tier1_free = mem_tier1_free,
	.evictable = svc_evictable,
	.lru_victim = mem_lru_victim,
	.belady_victim = svc_belady_victim,
	.evictable_after = svc_evictable_after,
	.promote = svc_promote,
	.evict = svc_evict,
	.make_room = svc_make_room,
	.timing = svc_timing,
	.split_approx = split_approx,
	.split_ratio = svc_split_ratio,
	.window = svc_window,
	.fetch_time = svc_fetch_time,
	.best_io_tiers = svc_best_io_tiers,
	.split_place = svc_split_place,
	.promote_essential = svc_promote_essential,
	.split_prepare = svc_split_prepare,
	.tier1_next = svc_tier1_next,
	.use_timing = svc_use_timing,
	.promote_missing = svc_promote_missing,
};
