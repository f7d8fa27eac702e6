/* SPDX-License-Identifier: MIT */
/*
 * The two memory tiers of the chip: how many bytes of each tensor sit in
 * tier 1 and in tier 2, the capacity each tier has committed, and the
 * moves between them (promotions, demotions, vertical fills and
 * write-backs), each a transfer on the platform.
 *
 * Capacity is committed when a move starts: bytes leaving a tier free their
 * room at once, bytes arriving take theirs at once, so that a move out and
 * a move in can overlap as the DMA engines would pipeline them.
 */
#include "mem.h"

#include <math.h>
#include <stdlib.h>

#include <simgrid/engine.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "plugin/plugin.h"
#include "xfer.h"

#define EPS 1e-6	/* bytes: below this a share is empty */

struct move {
	struct dlasim_tier_ctx *run;
	int id;
	bool promotion;
};

static struct dlasim_tier_tensor *T(const struct dlasim_tier_ctx *run, int id)
{
	return &run->g.t[id].pub;
}

static bool vertical(const struct dlasim_tier_ctx *run)
{
	return run->sys.arrangement == DLASIM_TIER_VERTICAL;
}

bool mem_through_tier1(const struct dlasim_tier_ctx *run)
{
	return vertical(run) || (run->sys.arrangement == DLASIM_TIER_HORIZONTAL &&
				 (run->ops->flags & DLASIM_TIER_STAGE_MISSES));
}

/* The policy moves whole tensors only. */
static bool whole(const struct dlasim_tier_ctx *run)
{
	return run->ops->flags & DLASIM_TIER_WHOLE_TENSORS;
}

static void resident_update(struct dlasim_tier_ctx *run, int id)
{
	struct tstate *st = &run->ts[id];
	bool in = T(run, id)->tier1_bytes > EPS;

	if (in == st->resident)
		return;
	st->resident = in;
	if (in) {
		run->resident[run->nresident++] = id;
		return;
	}
	for (int i = 0; i < run->nresident; i++) {
		if (run->resident[i] == id) {
			run->resident[i] = run->resident[--run->nresident];
			return;
		}
	}
}

int mem_init(struct dlasim_tier_ctx *run)
{
	run->ts = calloc((size_t)run->g.nt, sizeof(*run->ts));
	run->resident = calloc((size_t)run->g.nt, sizeof(int));
	if (!run->ts || !run->resident)
		return dl_err("out of memory");
	return 0;
}

void mem_free_state(struct dlasim_tier_ctx *run)
{
	free(run->ts);
	free(run->resident);
}

/* Moves are counted in whole chunks of the tensor (1/units of it). */
static double whole_chunks(const struct dlasim_tier_tensor *t, double bytes)
{
	double chunk = t->bytes / (t->units > 0 ? t->units : 1);

	return chunk > 0 ? ceil(bytes / chunk - 1e-9) * chunk : bytes;
}

double mem_tier1_free(const struct dlasim_tier_ctx *run)
{
	return run->sys.tier1_capacity_bytes - run->used1;
}

void mem_account_move(struct dlasim_tier_ctx *run, double bytes, bool promotion)
{
	if (promotion)
		run->res->promoted_bytes += bytes;
	else
		run->res->demoted_bytes += bytes;
}

/* ---- victims ---- */

bool mem_evictable(const struct dlasim_tier_ctx *run, int id)
{
	const struct dlasim_tier_tensor *t = T(run, id);
	const struct tstate *st = &run->ts[id];

	/* A tensor being demoted may lose more of its tier-1 bytes. */
	return t->live && st->written && t->tier1_bytes > EPS && st->pins == 0 &&
	       st->promoting <= EPS;
}

int mem_lru_victim(const struct dlasim_tier_ctx *run, unsigned flags)
{
	int best = -1;

	for (int i = 0; i < run->nresident; i++) {
		int id = run->resident[i];
		const struct dlasim_tier_tensor *t = T(run, id);

		if (!mem_evictable(run, id))
			continue;
		if ((flags & DLASIM_TIER_SPARE_PROMOTED) && t->promoted_unused)
			continue;
		if (best < 0 || t->last_access_s < T(run, best)->last_access_s ||
		    (t->last_access_s == T(run, best)->last_access_s && id < best))
			best = id;
	}
	return best;
}

/* MXU time from now to the next use of `id` (Belady's distance); ops
 * without MXU time still order the uses. */
static double next_use_distance(const struct dlasim_tier_ctx *run, int id)
{
	int next = tier_graph_next_use(&run->g, id, run->cur_op - 1);

	if (next == DLASIM_TIER_NEVER)
		return INFINITY;
	return run->g.start_s[next] - run->g.start_s[run->cur_op] + 1e-9 * (next - run->cur_op);
}

int mem_belady_victim(const struct dlasim_tier_ctx *run, unsigned flags)
{
	int best = -1;
	double best_dist = -1;

	for (int i = 0; i < run->nresident; i++) {
		int id = run->resident[i];
		double dist;

		if (!mem_evictable(run, id))
			continue;
		if ((flags & DLASIM_TIER_SPARE_PROMOTED) && T(run, id)->promoted_unused)
			continue;
		dist = next_use_distance(run, id);
		if (dist > best_dist || (dist == best_dist && id < best)) {
			best = id;
			best_dist = dist;
		}
	}
	return best;
}

/* Tier-1 bytes the victims spare or cannot take yet: data promoted and not
 * yet used, and promotions in flight. */
double mem_spared(const struct dlasim_tier_ctx *run)
{
	double bytes = 0;

	for (int i = 0; i < run->nresident; i++) {
		int id = run->resident[i];

		if (T(run, id)->promoted_unused)
			bytes += T(run, id)->tier1_bytes;
		bytes += run->ts[id].promoting;
	}
	return bytes;
}

double mem_evictable_after(const struct dlasim_tier_ctx *run, int op)
{
	double bytes = 0;

	for (int i = 0; i < run->nresident; i++) {
		int id = run->resident[i];

		if (mem_evictable(run, id) && tier_graph_next_use(&run->g, id, run->cur_op - 1) > op)
			bytes += T(run, id)->tier1_bytes;
	}
	return bytes;
}

/* Why a plugin may not evict `id` now, or NULL. */
static const char *not_evictable_why(const struct dlasim_tier_ctx *run, int id)
{
	const struct dlasim_tier_tensor *t = T(run, id);

	if (!t->live || !run->ts[id].written)
		return "it holds no data now";
	if (t->tier1_bytes <= EPS)
		return "it has no bytes in tier 1";
	if (run->ts[id].pins > 0)
		return "it is in use by an op in progress";
	if (run->ts[id].promoting > EPS)
		return "it is being promoted";
	return NULL;
}

static int choose_victim(struct dlasim_tier_ctx *run, double need)
{
	const char *why;
	int v;

	if (!run->ops->victim)
		return mem_lru_victim(run, 0);
	v = run->ops->victim(run->state, run, need);
	if (v == -1)
		return -1;
	if (v < 0 || v >= run->g.nt)
		run_plugin_fail(run, "victim() returned %d, not a tensor id (0 to %d) or -1",
				v, run->g.nt - 1);
	why = not_evictable_why(run, v);
	if (why)
		run_plugin_fail(run, "victim() chose %s while op %s runs, but %s",
				T(run, v)->name, run->g.ops[run->cur_op].name, why);
	return v;
}

/* ---- moves ---- */

/* What the tensor's public state says is in flight: bytes on their way
 * in, and bytes on their way out that were not taken back. */
static void moving_update(struct dlasim_tier_ctx *run, int id)
{
	struct tstate *st = &run->ts[id];

	if (st->promoting < EPS)
		st->promoting = 0;
	if (st->demoting < EPS)
		st->demoting = st->kept = 0;
	T(run, id)->moving_bytes = st->promoting + st->demoting - st->kept;
}

static void move_done(void *arg, double bytes)
{
	struct move *m = arg;
	struct dlasim_tier_ctx *run = m->run;
	struct dlasim_tier_tensor *t = T(run, m->id);
	struct tstate *st = &run->ts[m->id];
	double kept = 0;

	if (m->promotion) {
		st->promoting -= bytes;
	} else {
		/* Bytes taken back while they were leaving stay in tier 1 (and
		 * keep their room); the copy in tier 2 is current now. */
		kept = fmin(bytes, st->kept);
		st->kept -= kept;
		st->demoting -= bytes;
	}
	moving_update(run, m->id);
	if (!m->promotion) {
		/* The bytes have left tier 1: their room is free now. */
		run->used1 -= bytes - kept;
		run->leaving1 -= bytes - kept;
	}
	if (!t->live) {
		/* Freed while moving: give back the room taken at the start. */
		if (m->promotion)
			run->used1 -= bytes;
		else if (!vertical(run))
			run->used2 -= bytes;
	} else if (m->promotion) {
		t->tier1_bytes += bytes;
		t->promoted_unused = true;
	} else if (!vertical(run)) {
		/* Exclusive tiers: tier 2 drops its copy of the kept bytes. */
		t->tier2_bytes += bytes - kept;
		run->used2 -= kept;
	}
	resident_update(run, m->id);
	free(m);
	run_changed(run);
}

static void start_move(struct dlasim_tier_ctx *run, int id, double bytes, bool promotion,
		       struct xfer_group *group)
{
	struct move *m = malloc(sizeof(*m));

	if (!m) {
		dl_err("out of memory");
		dl_sim_fail();
	}
	*m = (struct move){ run, id, promotion };
	if (promotion)
		run->ts[id].promoting += bytes;
	else
		run->ts[id].demoting += bytes;
	moving_update(run, id);
	mem_account_move(run, bytes, promotion);
	if (promotion)
		xfer_start(run->flash, run->hbm, bytes, move_done, m, group);
	else
		xfer_start(run->hbm, run->flash, bytes, move_done, m, group);
}

static double evict_into(struct dlasim_tier_ctx *run, int id, double bytes,
			 struct xfer_group *group)
{
	struct dlasim_tier_tensor *t = T(run, id);
	struct tstate *st = &run->ts[id];
	double x = whole(run) ? t->tier1_bytes : fmin(whole_chunks(t, bytes), t->tier1_bytes);
	double clean, wb;

	if (x <= EPS || run->sys.arrangement == DLASIM_TIER_HBM_ONLY)
		return 0;
	if (vertical(run)) {
		/* A cache drops clean bytes and writes dirty ones back. */
		clean = fmin(x, t->tier1_bytes - st->dirty);
		wb = fmin(x - clean, st->dirty);
		t->tier1_bytes -= clean + wb;
		st->dirty -= wb;
		run->used1 -= clean;
		run->leaving1 += wb;
		if (wb > EPS)
			start_move(run, id, wb, false, group);
		x = clean + wb;
	} else {
		x = fmin(x, run->sys.tier2_capacity_bytes - run->used2);
		if (x <= EPS)
			return 0;
		t->tier1_bytes -= x;
		run->leaving1 += x;
		run->used2 += x;
		start_move(run, id, x, false, group);
	}
	resident_update(run, id);
	run_changed(run);
	return x;
}

/* Room in tier 1 once the bytes leaving it have left. */
static double room_soon(const struct dlasim_tier_ctx *run)
{
	return mem_tier1_free(run) + run->leaving1;
}

/* Tier 1 can hold `bytes` more once its evictable data leave. */
static bool room_possible(const struct dlasim_tier_ctx *run, double bytes)
{
	double room = room_soon(run);

	for (int i = 0; i < run->nresident && room < bytes; i++)
		if (mem_evictable(run, run->resident[i]))
			room += T(run, run->resident[i])->tier1_bytes;
	return room >= bytes - EPS;
}

/* Whole tensors that tier 1 cannot take now: when the caller waits (an
 * out-of-memory fault on the critical path), the op before ends and
 * frees its data first (unless it waits for the placement manager). */
static bool room_after_fault(struct dlasim_tier_ctx *run, double bytes, bool wait)
{
	int prev = run->cur_op - 1;

	if (room_possible(run, bytes))
		return true;
	if (!wait || prev < 0)
		return false;
	RUN_WAIT_UNTIL(run, run->t3[prev] >= 0 || run->start_pending);
	return room_possible(run, bytes);
}

/* Evict until `bytes` will be free once the evicted bytes have left, and
 * return what is free now (a caller that waits, with a group, waits for
 * the room to be free). */
static double make_room_into(struct dlasim_tier_ctx *run, double bytes,
			     struct xfer_group *group)
{
	if (whole(run) && group)
		room_after_fault(run, bytes, true);
	while (room_soon(run) < bytes - EPS) {
		int v = choose_victim(run, bytes - room_soon(run));
		double x = v < 0 ? 0 : evict_into(run, v, bytes - room_soon(run), group);

		if (x <= EPS)
			break;
		run_notify(run, &(struct notice){ .id = v, .bytes = x });
	}
	if (group)
		RUN_WAIT_UNTIL(run, mem_tier1_free(run) >= bytes - EPS || run->leaving1 <= EPS);
	return mem_tier1_free(run);
}

/* Evaluate `expr` with g_ a group of the moves it starts when the caller
 * waits for them (DLASIM_TIER_WAIT), else with no group. */
#define WITH_GROUP(flags, expr) ({ \
	struct xfer_group gs_, *g_ = NULL; \
	double r_; \
	if ((flags) & DLASIM_TIER_WAIT) { \
		g_ = &gs_; \
		xfer_group_init(g_); \
	} \
	r_ = (expr); \
	if (g_) { \
		xfer_group_wait(g_); \
		xfer_group_destroy(g_); \
	} \
	r_; })

double mem_evict(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags)
{
	return WITH_GROUP(flags, evict_into(run, id, bytes, g_));
}

double mem_make_room(struct dlasim_tier_ctx *run, double bytes, unsigned flags)
{
	return WITH_GROUP(flags, make_room_into(run, bytes, g_));
}

static double promote_into(struct dlasim_tier_ctx *run, int id, double bytes,
			   struct xfer_group *group)
{
	struct dlasim_tier_tensor *t = T(run, id);
	double avail, x;

	if (!t->live || run->sys.arrangement == DLASIM_TIER_HBM_ONLY)
		return 0;
	/* A caller that waits waits for the data to be written first. */
	if (group)
		RUN_WAIT_UNTIL(run, run->ts[id].written);
	if (!run->ts[id].written)
		return 0;
	/* Neither in tier 1 (nor leaving it) nor on its way there. */
	avail = vertical(run) ? t->bytes - t->tier1_bytes - t->moving_bytes : t->tier2_bytes;
	x = whole(run) ? avail : fmin(whole_chunks(t, bytes), avail);
	if (x <= EPS || (whole(run) && !room_after_fault(run, x, group)))
		return 0;
	/* Keep the tensor out of the victims while room is made for it. */
	run->ts[id].pins++;
	x = fmin(x, make_room_into(run, x, group));
	run->ts[id].pins--;
	if (x <= EPS || (whole(run) && x < avail - EPS))
		return 0;
	run->used1 += x;
	if (!vertical(run)) {
		t->tier2_bytes -= x;
		run->used2 -= x;
	}
	start_move(run, id, x, true, group);
	return x;
}

double mem_promote(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags)
{
	return WITH_GROUP(flags, promote_into(run, id, bytes, g_));
}

double mem_missing(const struct dlasim_tier_ctx *run, int id)
{
	const struct dlasim_tier_tensor *t = T(run, id);

	return t->live ? fmax(0, t->bytes - t->tier1_bytes - run->ts[id].promoting) : 0;
}

/* Take back the bytes of `id` still leaving tier 1: a move copies, so they
 * are there until it ends.  The write already under way ends (it cannot
 * be stopped midway here), but their room is no longer freed by it. */
static double keep_leaving(struct dlasim_tier_ctx *run, int id)
{
	struct dlasim_tier_tensor *t = T(run, id);
	struct tstate *st = &run->ts[id];
	double x = st->demoting - st->kept;

	if (!t->live || x <= EPS)
		return 0;
	st->kept += x;
	t->tier1_bytes += x;
	t->promoted_unused = true;
	run->leaving1 -= x;
	moving_update(run, id);
	resident_update(run, id);
	run_changed(run);
	return x;
}

static double promote_missing_into(struct dlasim_tier_ctx *run, int id,
				   struct xfer_group *group)
{
	double kept = keep_leaving(run, id), missing = mem_missing(run, id);

	return kept + (missing > EPS ? promote_into(run, id, missing, group) : 0);
}

double mem_promote_missing(struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	return WITH_GROUP(flags, promote_missing_into(run, id, g_));
}

/* ---- tensors being written and freed ---- */

void mem_place(struct dlasim_tier_ctx *run, int id, double ratio)
{
	struct dlasim_tier_tensor *t = T(run, id);
	double b = t->bytes, a, free1;

	switch (run->sys.arrangement) {
	case DLASIM_TIER_HBM_ONLY:
		a = b;
		break;
	case DLASIM_TIER_VERTICAL:
		run->used2 += b;	/* its home */
		free1 = make_room_into(run, b, NULL);
		a = fmin(b, fmax(free1, 0));
		run->ts[id].dirty = a;
		break;
	default:
		a = ratio * b;
		if (b - a > run->sys.tier2_capacity_bytes - run->used2)
			a = b - fmax(0, run->sys.tier2_capacity_bytes - run->used2);
		if (whole(run) && a > EPS && !room_possible(run, a))
			a = 0;	/* all or nothing */
		free1 = mem_tier1_free(run);
		if (a > free1 + EPS)
			free1 = make_room_into(run, a, NULL);
		a = whole(run) && free1 < a - EPS ? 0 : fmin(a, fmax(free1, 0));
		t->tier2_bytes = b - a;
		run->used2 += b - a;
		break;
	}
	run->used1 += a;
	t->tier1_bytes = a;
	t->live = true;
	t->promoted_unused = false;
	t->last_access_s = simgrid_get_clock();
	resident_update(run, id);
}

void mem_written(struct dlasim_tier_ctx *run, int id)
{
	run->ts[id].written = true;
	run_changed(run);
}

void mem_release(struct dlasim_tier_ctx *run, int id)
{
	struct dlasim_tier_tensor *t = T(run, id);

	if (!t->live)
		return;
	run->used1 -= t->tier1_bytes;
	run->used2 -= vertical(run) ? t->bytes : t->tier2_bytes;
	t->tier1_bytes = 0;
	t->tier2_bytes = 0;
	run->ts[id].dirty = 0;
	t->live = false;
	resident_update(run, id);
	run_changed(run);
}
