/* SPDX-License-Identifier: MIT */
/*
 * A tier graph from a workload: its sequence built (graph.c) at the least
 * memory-saving scheme that fits, then what the sequence implies for
 * placement: each tensor's uses, operand costs, footprint (docs/tier.md).
 */
#include "graph.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "npu.h"
/* ---- what the sequence implies ---- */

static int add_use(struct tg_tensor *t, int op)
{
	if (t->nuses && t->uses[t->nuses - 1] == op)
		return 0;
	if (tg_grow((void **)&t->uses, &t->cap, t->nuses, sizeof(int)))
		return -1;
	t->uses[t->nuses++] = op;
	return 0;
}

/* Off-chip fetches and on-chip accesses of each operand (Algorithm 2):
 * the streamed input (all operands streamed together) by its size, the
 * stationary operands once, the others once. */
static void operand_costs(struct tier_graph *g, struct tg_op *o)
{
	double streamed = 0;

	for (int i = 0; i < o->pub.ninputs; i++)
		if (o->role[i] == TG_STREAMED)
			streamed += g->t[o->in[i].tensor].pub.bytes * o->in[i].fraction;
	for (int i = 0; i < o->pub.ninputs; i++) {
		struct dlasim_tier_operand *in = &o->in[i];
		double bytes = g->t[in->tensor].pub.bytes * in->fraction;
		double cmem = 2, vmem = 1;

		if (o->count > 0 && o->role[i] != TG_ONCE) {
			double inst = (o->role[i] == TG_STREAMED ? streamed : bytes) / o->count;

			in->fetches = npu_offchip_fetches(in->stationary, inst, o->n);
			npu_onchip_accesses(in->stationary, inst, o->n, &cmem, &vmem);
		}
		/* Algorithm 2's on-chip counts already include the passes. */
		o->sram_bytes += bytes * (cmem + vmem);
		o->pass_bytes += bytes;
		o->stream_bytes += bytes * (in->fetches - 1);
	}
	for (int i = 0; i < o->pub.noutputs; i++) {
		double bytes = g->t[o->out[i]].pub.bytes;

		/* Results leave through VMEM and CMEM. */
		o->sram_bytes += bytes * 3;
		o->out_bytes += bytes;
	}
	g->traffic_bytes += o->pass_bytes + o->stream_bytes + o->out_bytes;
}

/* Ops of a kind are the same op in another layer: the name without its
 * "lN." prefix. */
static int kind_of(struct tier_graph *g, const char *name)
{
	const char *k = name;

	if (name[0] == 'l' && isdigit((unsigned char)name[1]))
		k = strchr(name, '.') + 1;
	for (int i = 0; i < g->nkinds; i++)
		if (strcmp(g->kinds[i], k) == 0)
			return i;
	if (tg_grow((void **)&g->kinds, &g->capkinds, g->nkinds, sizeof(*g->kinds)))
		return -1;
	snprintf(g->kinds[g->nkinds], TG_NAME, "%s", k);
	return g->nkinds++;
}

static int label_uses(struct tier_graph *g)
{
	for (int i = 0; i < g->nops; i++) {
		const struct tg_op *o = &g->ops[i];

		for (int k = 0; k < o->pub.noutputs; k++)
			g->t[o->out[k]].pub.producer = i;
		for (int k = 0; k < o->pub.ninputs; k++) {
			const struct dlasim_tier_operand *in = &o->in[k];
			struct tg_tensor *t = &g->t[in->tensor];

			if (t->pub.first_use == DLASIM_TIER_NEVER) {
				t->pub.first_use = i;
				t->pub.label = in->label;
				t->pub.phase = o->pub.phase;
				t->pub.first_use_bytes = t->pub.bytes * in->fraction * in->fetches;
			}
			t->pub.last_use = i;
			if (add_use(t, i))
				return -1;
		}
	}
	for (int i = 0; i < g->nt; i++)
		if (g->t[i].pub.first_use == DLASIM_TIER_NEVER)
			g->t[i].pub.last_use = g->t[i].pub.producer;
	return 0;
}

/* Footprint: outputs exist from their op on, inputs until their last
 * reader is done. */
static int footprint(struct tier_graph *g)
{
	double live = 0, *freed = calloc(g->nops > 0 ? (size_t)g->nops : 1, sizeof(double));

	if (!freed)
		return -1;
	for (int i = 0; i < g->nt; i++)
		if (g->t[i].pub.last_use >= 0)
			freed[g->t[i].pub.last_use] += g->t[i].pub.bytes;
	for (int i = 0; i < g->nops; i++) {
		const struct tg_op *o = &g->ops[i];

		for (int k = 0; k < o->pub.noutputs; k++)
			live += g->t[o->out[k]].pub.bytes;
		if (live > g->peak_bytes) {
			g->peak_bytes = live;
			g->peak_op = i;
		}
		live -= freed[i];
	}
	free(freed);
	return 0;
}

static int finalize(struct tier_graph *g)
{
	int prev = -1;

	/* The arrays moved while they grew: point into their final place. */
	for (int i = 0; i < g->nt; i++) {
		g->t[i].pub.name = g->t[i].name;
		g->t[i].pub.first_use = DLASIM_TIER_NEVER;
		g->t[i].pub.units = (int)g->dims.s;
	}
	g->start_s = malloc((size_t)(g->nops > 0 ? g->nops : 1) * sizeof(double));
	if (!g->start_s)
		return -1;
	for (int i = 0; i < g->nops; i++) {
		struct tg_op *o = &g->ops[i];

		o->pub.name = o->name;
		o->pub.inputs = o->in;
		o->pub.outputs = o->out;
		o->pub.kind = kind_of(g, o->name);
		if (o->pub.kind < 0)
			return -1;
		o->prev_mxu = prev;
		if (!o->network)
			prev = i;
		operand_costs(g, o);
		o->pub.compute_s = o->cycles / NPU_CLOCK_HZ;
		g->start_s[i] = g->compute_s;
		g->macs += o->pub.macs;
		g->compute_s += o->pub.compute_s;
		g->network_bytes += o->pub.network_bytes;
		if (o->pub.phase == DLASIM_TIER_RECOMPUTE)
			continue;
		g->data_bytes += o->onchip_bytes;
		for (int k = 0; k < o->pub.noutputs; k++)
			g->data_bytes += g->t[o->out[k]].pub.bytes;
	}
	if (label_uses(g))
		return -1;
	return footprint(g);
}

/*
 * The per-chip slice (docs/tier.md): a chip trains batch / (pods x
 * data_parallel) sequences; model parallelism splits heads, d_ff and the
 * vocabulary over the chips (Megatron-LM), a key/value head shared by
 * more chips than there are being repeated on each.
 */
static void dims_of(struct tg_dims *d, const struct tier_workload *w, double batch_scale)
{
	memset(d, 0, sizeof(*d));
	d->mp = (double)w->model_parallel;
	d->dp = (double)w->data_parallel;
	d->b = (double)w->batch * batch_scale / ((double)w->pods * d->dp);
	d->s = (double)w->seq;
	d->d = (double)w->d_model;
	d->dh = (double)w->head_dim;
	d->hc = (double)w->heads / d->mp;
	d->kvc = w->kv_heads >= w->model_parallel ? (double)w->kv_heads / d->mp
						   : (double)w->kv_heads;
	d->ffc = (double)w->d_ff / d->mp;
	d->vc = ceil((double)w->vocab / d->mp);
	d->ffm = (double)w->ff_matrices;
	d->enc_layers = w->layers;
	d->layers = w->layers + w->decoder_layers;
}

void tier_graph_set_clock(struct tier_graph *g, double clock_hz)
{
	g->compute_s = 0;
	for (int i = 0; i < g->nops; i++) {
		struct tg_op *o = &g->ops[i];

		o->pub.compute_s = o->cycles / clock_hz;
		g->start_s[i] = g->compute_s;
		g->compute_s += o->pub.compute_s;
	}
}

static int build_once(struct tier_graph *g, const struct tg_dims *d)
{
	tier_graph_free(g);
	g->dims = *d;
	return tg_build(g) || finalize(g) ? -1 : 0;
}

/*
 * The least memory-saving scheme that fits: weights resident if they fit
 * with every layer recomputed, else sharded at rest (FSDP); then as few
 * layers recomputed as fit, the first ones (Megatron-LM's "block"
 * recomputation).  The footprint grows with the layers kept, so a
 * bisection finds the count.
 */
static int fit(struct tier_graph *g, struct tg_dims *d, double capacity)
{
	long lo = 0, hi = d->layers;

	d->fsdp = false;
	d->recomputed = d->layers;
	if (build_once(g, d))
		return -1;
	if (g->peak_bytes > capacity) {
		d->fsdp = true;
		if (build_once(g, d))
			return -1;
	}
	if (g->peak_bytes > capacity)
		return 0;	/* the run reports that it fits in neither tier */
	while (lo < hi) {
		d->recomputed = (lo + hi) / 2;
		if (build_once(g, d))
			return -1;
		if (g->peak_bytes <= capacity)
			hi = d->recomputed;
		else
			lo = d->recomputed + 1;
	}
	d->recomputed = hi;
	return build_once(g, d);
}

int tier_graph_build(struct tier_graph *g, const struct tier_workload *w, double batch_scale,
		     double capacity_bytes)
{
	struct tg_dims d;

	memset(g, 0, sizeof(*g));
	dims_of(&d, w, batch_scale);
	if (fit(g, &d, capacity_bytes)) {
		tier_graph_free(g);
		return dl_err("out of memory building the op sequence of %s", w->file);
	}
	return 0;
}

void tier_graph_free(struct tier_graph *g)
{
	for (int i = 0; i < g->nt; i++)
		free(g->t[i].uses);
	free(g->t);
	free(g->ops);
	free(g->kinds);
	free(g->start_s);
	memset(g, 0, sizeof(*g));
}

int tier_graph_next_use(const struct tier_graph *g, int tensor, int after)
{
	const struct tg_tensor *t = &g->t[tensor];
	int lo = 0, hi = t->nuses;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (t->uses[mid] <= after)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nuses ? t->uses[lo] : DLASIM_TIER_NEVER;
}

double tier_graph_reads(const struct tier_graph *g, int tensor, int op)
{
	const struct tg_op *o = &g->ops[op];
	double passes = 0;

	for (int k = 0; k < o->pub.ninputs; k++)
		if (o->in[k].tensor == tensor)
			passes += o->in[k].fraction * o->in[k].fetches;
	return passes;
}

double tg_tier2_fetches(const struct tg_op *o, const struct dlasim_tier_operand *in,
			double tier2_bytes)
{
	double count = o->count > 0 ? o->count : 1;

	return npu_share_fetches(tier2_bytes * in->fraction / count, in->fetches);
}
