/* SPDX-License-Identifier: MIT */
#include "estimate.h"

#include <math.h>

#include "npu.h"
#include "run.h"
#include "split.h"

double est_window(const struct dlasim_tier_ctx *run, int op)
{
	return op >= 1 && op < run->g.nops ? run->g.ops[op - 1].pub.compute_s : 0;
}

/* Bytes an op requests from tier 1 and tier 2 as things stand. */
static void op_bytes(const struct dlasim_tier_ctx *run, int op, double *b1, double *b2,
		     double *moved)
{
	const struct tg_op *o = &run->g.ops[op];

	*b1 = *b2 = *moved = 0;
	for (int k = 0; k < o->pub.ninputs; k++) {
		const struct dlasim_tier_operand *in = &o->in[k];
		const struct dlasim_tier_tensor *t = &run->g.t[in->tensor].pub;
		double req = t->bytes * in->fraction, s1 = t->bytes > 0 ? t->tier1_bytes / t->bytes : 1;

		if (run->sys.arrangement == DLASIM_TIER_HBM_ONLY)
			s1 = 1;
		*b1 += req * s1 * in->fetches;
		*b2 += req * (1 - s1) * in->fetches;
		*moved += req * (1 - s1);
	}
}

void est_fetch_time(const struct dlasim_tier_ctx *run, int op, double *tier1_s, double *tier2_s)
{
	double b1, b2, moved;

	op_bytes(run, op, &b1, &b2, &moved);
	*tier1_s = b1 / run->sys.tier1_bw_Bps;
	*tier2_s = b2 / run->sys.tier2_read_bw_Bps;
}

/* Bytes op `op` requests from off-chip memory in all. */
static double op_request(const struct dlasim_tier_ctx *run, int op)
{
	const struct tg_op *o = &run->g.ops[op];
	double b = 0;

	for (int k = 0; k < o->pub.ninputs; k++)
		b += run->g.t[o->in[k].tensor].pub.bytes * o->in[k].fraction * o->in[k].fetches;
	return b > 0 ? b : 1;
}

double est_split_ratio(const struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	const struct dlasim_tier_tensor *t = &run->g.t[id].pub;
	const struct dlasim_tier_timing *rec;
	const struct dlasim_tier_system *s = &run->sys;
	struct split_use u;
	double r;

	if (t->first_use == DLASIM_TIER_NEVER)
		return 0;
	rec = &run->timing[t->label][t->phase];
	if (!rec->measured)
		return -1;
	/* The op's operands share tier 2 during the interval: each gets
	 * bandwidth in proportion to the bytes it requests. */
	u = (struct split_use){
		.bytes = t->first_use_bytes,
		.tc_s = rec->t2_s - rec->t1_s,
		.tr_s = rec->t3_s - rec->t1_s,
		.bw1_Bps = s->tier1_bw_Bps,
		.bw2_Bps = s->tier2_read_bw_Bps * t->first_use_bytes /
			   op_request(run, t->first_use),
		.e1_j_per_byte = s->tier1_j_per_byte,
		.e2_j_per_byte = s->tier2_j_per_byte,
		.static1_w = HBM_STATIC_W_PER_GIB * s->address_space_bytes / GIB,
		.tier1_share = s->tier1_capacity_bytes / s->address_space_bytes,
		.static2_w = s->tier2_static_w,
		.system_static_w = s->tier1_static_w + s->tier2_static_w + s->onchip_static_w,
	};
	u.base_j = u.bytes * u.e1_j_per_byte + u.static1_w * u.tr_s;
	r = split_approx(u.tc_s, u.bytes, u.bw1_Bps, u.bw2_Bps);
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
	double b1, b2, moved_in, out = 0, evict, best_cost = INFINITY, best_moved = INFINITY;
	double in_time[2], out_time[2];

	op_bytes(run, op, &b1, &b2, &moved_in);
	for (int k = 0; k < o->pub.noutputs; k++)
		out += run->g.t[o->out[k]].pub.bytes;
	evict = fmax(0, out - fmax(0, s->tier1_capacity_bytes - run->used1));
	in_time[0] = fmax(b1 / s->tier1_bw_Bps, b2 / s->tier2_read_bw_Bps);
	in_time[1] = moved_in / s->tier2_read_bw_Bps + (b1 + b2) / s->tier1_bw_Bps;
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
