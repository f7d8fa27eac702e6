/* SPDX-License-Identifier: MIT */
/*
 * Estimates the placement manager offers plugins: the window an op's
 * operands are fetched in, how long they take from where they are,
 * AutoTM's four cases, and the split ratio of a tensor (TM-Training's
 * Algorithms 1 and 3 from the request timing monitor, or the oracle's).
 */

#include "estimate.h"

#include <math.h>

#include "tmgraph/npu.h"
#include "split.h"
#include "state.h"

/* The DMA fetches an op's operands while the MXUs compute the op before
 * it (collectives do not hold the MXUs). */
double est_window(const struct dlasim_tier_ctx *run, int op)
{
	int p = op >= 0 && op < run->g.nops ? run->g.ops[op].prev_mxu : -1;

	return p >= 0 ? run->g.ops[p].pub.compute_s : 0;
}

/* Bytes an op requests from tier 1 and tier 2 as things stand, and the
 * tier-2 bytes of its operands (once each). */
static void op_bytes(const struct dlasim_tier_ctx *run, int op, double *b1, double *b2,
		     double *moved)
{
	const struct tg_op *o = &run->g.ops[op];

	*b1 = *b2 = *moved = 0;
	for (int k = 0; k < o->pub.ninputs; k++) {
		const struct dlasim_tier_operand *in = &o->in[k];
		const struct dlasim_tier_tensor *t = &run->g.t[in->tensor].pub;
		double pass = t->bytes * in->fraction, t2 = t->tier2_bytes;

		if (run->sys.arrangement == DLASIM_TIER_HBM_ONLY)
			t2 = 0;
		*b1 += (t->bytes - t2) * in->fraction * in->fetches;
		*b2 += t2 * in->fraction * tg_tier2_fetches(o, in, t2);
		*moved += t->bytes > 0 ? pass * t2 / t->bytes : 0;
	}
}

void est_fetch_time(const struct dlasim_tier_ctx *run, int op, double *tier1_s, double *tier2_s)
{
	double b1, b2, moved;

	op_bytes(run, op, &b1, &b2, &moved);
	*tier1_s = b1 / run->sys.tier1_bw_Bps;
	*tier2_s = b2 / run->sys.tier2_read_bw_Bps;
}

/* The tier-1 share that keeps tier 2 out of the critical path of `bytes`
 * over `window_s` (Algorithm 1 with a known interval). */
static double needed(const struct dlasim_tier_ctx *run, double window_s, double bytes,
		     double bw2_Bps)
{
	return bytes > 0 ? split_approx(window_s, bytes, run->sys.tier1_bw_Bps, bw2_Bps) : 0;
}

/* One pass of tensor `id` in op `o` (its data size D) and the passes
 * Algorithm 2 makes over it (n). */
static void use_of(const struct tier_graph *g, int id, const struct tg_op *o, double *d,
		   double *n)
{
	double f = 0;

	for (int k = 0; k < o->pub.ninputs; k++)
		if (o->in[k].tensor == id)
			f += o->in[k].fraction;
	*d = g->t[id].pub.bytes * f;
	*n = f > 0 ? tier_graph_reads(g, id, o->pub.index) / f : 1;
}

/* The smallest tier-1 share with which the tier-2 share of a tensor an op
 * reads in several passes fits a core's SRAM (and is fetched once). */
static double sram_floor(const struct tg_op *o, double d, double n)
{
	if (n <= 1 || d <= 0)
		return 0;
	return fmax(0, 1 - NPU_SRAM_PER_CORE * fmax(o->count, 1) / d);
}

double est_op_time(const struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	const struct tg_op *o = &run->g.ops[op];

	if (flags & DLASIM_TIER_ORACLE)
		return o->pub.compute_s;
	for (int k = 0; k < o->pub.ninputs; k++) {
		const struct dlasim_tier_timing *r = &run->use_timing[use_key(run, op, k)];

		if (r->measured)
			return r->t3_s - r->t2_s;
	}
	return -1;
}

/* The tier-1 share with which a tensor's writer stores the tier-2 share
 * while its op computes (Algorithm 1 applied to the store: the op's
 * results share the flash's write bandwidth). */
static double store_ratio(const struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	int p = run->g.t[id].pub.producer;

	if (p < 0)
		return 0;
	return needed(run, fmax(0, est_op_time(run, p, flags)), run->g.ops[p].out_bytes,
		      run->sys.tier2_write_bw_Bps);
}

/* Algorithm 3's view of the first use of a tensor. */
static void first_use(const struct dlasim_tier_ctx *run, int id, double tc_s, double tr_s,
		      struct split_use *u)
{
	const struct dlasim_tier_system *s = &run->sys;
	const struct tg_op *o = &run->g.ops[run->g.t[id].pub.first_use];
	double d, n;

	use_of(&run->g, id, o, &d, &n);
	/* The op's operands share tier 2 during the interval, each in
	 * proportion to its size. */
	*u = (struct split_use){
		.bytes = d,
		.fetches = n,
		.r_min = sram_floor(o, d, n),
		.tc_s = tc_s,
		.tr_s = tr_s,
		.bw1_Bps = s->tier1_bw_Bps,
		.bw2_Bps = s->tier2_read_bw_Bps * d / fmax(o->pass_bytes, d),
		.e1_j_per_byte = s->tier1_j_per_byte,
		.e2_j_per_byte = s->tier2_j_per_byte,
		.static1_w = run->hbm_static_w_per_byte * s->address_space_bytes,
		.tier1_share = s->tier1_capacity_bytes / s->address_space_bytes,
		.static2_w = s->tier2_static_w,
		.system_static_w = s->tier1_static_w + s->tier2_static_w + s->onchip_static_w,
	};
	u->base_j = u->bytes * u->fetches * u->e1_j_per_byte + u->static1_w * u->tr_s;
}

const struct dlasim_tier_timing *est_use_record(const struct dlasim_tier_ctx *run, int id)
{
	int op = run->g.t[id].pub.first_use;
	const struct tg_op *o;

	if (op == DLASIM_TIER_NEVER)
		return NULL;
	o = &run->g.ops[op];
	for (int k = 0; k < o->pub.ninputs; k++)
		if (o->in[k].tensor == id)
			return &run->use_timing[use_key(run, op, k)];
	return NULL;
}

/*
 * TM-Training: Algorithm 1 from the monitor's record of the window in
 * which the tensor is first read (T_c = T2 - T1 of that use, measured on
 * the first op of its kind), at least the share that keeps a re-read
 * tier-2 share in SRAM and the share the store needs, rounded up to 1/seq;
 * Algorithm 3 from there.  The oracle (DLASIM_TIER_ORACLE) knows every
 * window in advance (the MXU time of the op before the use) and has no
 * first layer to measure.
 */
double est_split_ratio(const struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	const struct dlasim_tier_tensor *t = &run->g.t[id].pub;
	const struct dlasim_tier_timing *rec = est_use_record(run, id);
	struct split_use u;
	double r, tc, tr;

	if (t->first_use == DLASIM_TIER_NEVER)
		return 0;
	if (flags & DLASIM_TIER_ORACLE) {
		tc = est_window(run, t->first_use);
		tr = tc + run->g.ops[t->first_use].pub.compute_s;
	} else if (rec && rec->measured) {
		tc = rec->t2_s - rec->t1_s;
		tr = rec->t3_s - rec->t1_s;
	} else {
		return -1;
	}
	first_use(run, id, tc, tr, &u);
	r = fmax(split_approx(u.tc_s, u.bytes, u.bw1_Bps, u.bw2_Bps), u.r_min);
	r = fmax(r, store_ratio(run, id, flags));
	if (flags & DLASIM_TIER_EXACT)
		return split_adjust_exact(&u, r);
	return split_adjust(&u, split_round_up(r, t->units), t->units);
}

/*
 * AutoTM's four cases: operands read from tier 1 (after promoting what is
 * in tier 2) or where they are; outputs written to tier 1 (evicting what
 * does not fit) or to tier 2.  An op lasts as long as the longest of its
 * compute, its reads and its writes, which overlap.
 */
void est_best_io_tiers(const struct dlasim_tier_ctx *run, int op, bool *inputs_tier1,
		       bool *output_tier1)
{
	const struct dlasim_tier_system *s = &run->sys;
	const struct tg_op *o = &run->g.ops[op];
	double b1, b2, moved_in, evict, best_cost = INFINITY, best_moved = INFINITY;
	double in_time[2], out_time[2], out = o->out_bytes;
	double all = o->pass_bytes + o->stream_bytes;	/* every pass from tier 1 */

	op_bytes(run, op, &b1, &b2, &moved_in);
	evict = fmax(0, out - fmax(0, s->tier1_capacity_bytes - run->used1));
	in_time[0] = fmax(b1 / s->tier1_bw_Bps, b2 / s->tier2_read_bw_Bps);
	in_time[1] = moved_in / s->tier2_read_bw_Bps + all / s->tier1_bw_Bps;
	out_time[0] = out / s->tier2_write_bw_Bps;
	out_time[1] = out / s->tier1_bw_Bps + evict / s->tier2_write_bw_Bps;
	*inputs_tier1 = false;
	*output_tier1 = true;
	/* Ties go to fewer moved bytes, then to output in tier 1. */
	for (int in = 0; in < 2; in++) {
		for (int ot = 1; ot >= 0; ot--) {
			double cost = fmax(o->pub.compute_s, fmax(in_time[in], out_time[ot]));
			double moved = (in ? moved_in : 0) + (ot ? evict : 0);

			if (cost < best_cost * (1 - 1e-9) ||
			    (cost <= best_cost * (1 + 1e-9) && moved < best_moved)) {
				best_cost = cost;
				best_moved = moved;
				*inputs_tier1 = in;
				*output_tier1 = ot;
			}
		}
	}
}
