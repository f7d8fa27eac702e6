/* SPDX-License-Identifier: MIT */
#include "graph.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/diag.h"
#include "npu.h"

/* Table 4 labels (input data, weight); 0xC and 0xF: language-model head. */
enum {
	L_X = 0x0, L_WQ = 0x1, L_WK = 0x2, L_WV = 0x3, L_Q = 0x4, L_KT = 0x5,
	L_P = 0x6, L_V = 0x7, L_A = 0x8, L_WO = 0x9, L_X2 = 0xA, L_W1 = 0xB,
	L_LMIN = 0xC, L_W2 = 0xD, L_H = 0xE, L_LMW = 0xF,
};

static const char *const phase_tag[] = { "fwd", "rec", "bwd" };

/* ---- building blocks ---- */

static int grow(void **v, int *cap, int n, size_t elem)
{
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, (size_t)(*cap ? 2 * *cap : 256) * elem);
	if (!p)
		return -1;
	*v = p;
	*cap = *cap ? 2 * *cap : 256;
	return 0;
}

static int tensor_new(struct tier_graph *g, int layer, int phase, const char *name,
		      double bytes, bool weight)
{
	struct tg_tensor *t;

	if (grow((void **)&g->t, &g->capt, g->nt, sizeof(*g->t)))
		return -1;
	t = &g->t[g->nt];
	memset(t, 0, sizeof(*t));
	if (layer >= 0)
		snprintf(t->name, TG_NAME, "l%d.%s.%s", layer, phase_tag[phase], name);
	else
		snprintf(t->name, TG_NAME, "%s.%s", phase_tag[phase], name);
	t->pub.size = sizeof(t->pub);
	t->pub.id = g->nt;
	t->pub.name = t->name;
	t->pub.layer = layer;
	t->pub.bytes = bytes;
	t->pub.weight = weight;
	t->pub.producer = -1;
	return g->nt++;
}

static struct tg_op *op_new(struct tier_graph *g, int layer, int phase, const char *name)
{
	struct tg_op *o;

	if (grow((void **)&g->ops, &g->capops, g->nops, sizeof(*g->ops)))
		return NULL;
	o = &g->ops[g->nops];
	memset(o, 0, sizeof(*o));
	if (layer >= 0)
		snprintf(o->name, TG_NAME, "l%d.%s.%s", layer, phase_tag[phase], name);
	else
		snprintf(o->name, TG_NAME, "%s.%s", phase_tag[phase], name);
	o->pub.size = sizeof(o->pub);
	o->pub.index = g->nops++;
	o->pub.name = o->name;
	o->pub.layer = layer;
	o->pub.phase = phase;
	o->pub.inputs = o->in;
	o->pub.outputs = o->out;
	return o;
}

static void op_read(struct tg_op *o, int tensor, unsigned label, bool stationary, double fraction)
{
	struct dlasim_tier_operand *in = &o->in[o->pub.ninputs++];

	in->tensor = tensor;
	in->label = label;
	in->stationary = stationary;
	in->fraction = fraction;
	in->fetches = 1;
}

static void op_write(struct tg_op *o, int tensor)
{
	o->out[o->pub.noutputs++] = tensor;
}

/* ---- the sequence of a training iteration ---- */

struct builder {
	struct tier_graph *g;
	const struct tg_dims *dm;
	bool failed;
};

struct weights { int q, k, v, o, w1, w2; };
struct acts { int x, q, k, v, a, x2, h; };
struct grads { int wq, wk, wv, wo, w1, w2; };

static int T(struct builder *bd, int layer, int phase, const char *name, double elems, bool weight)
{
	int id = tensor_new(bd->g, layer, phase, name, elems * NPU_ELEM_BYTES, weight);

	if (id < 0)
		bd->failed = true;
	return id;
}

static struct tg_op *OP(struct builder *bd, int layer, int phase, const char *name)
{
	struct tg_op *o = op_new(bd->g, layer, phase, name);

	if (!o)
		bd->failed = true;
	return o;
}

/* Add `count` independent GEMMs (m x k)(k x n) to op o; the first sets
 * the shape by which Algorithm 2 fetches the op's operands. */
static void add_gemm(struct tg_op *o, double m, double k, double n, double count)
{
	if (o->count == 0) {
		o->m = m;
		o->k = k;
		o->n = n;
		o->count = count;
	}
	o->cycles += npu_gemm_cycles(m, k, n, count);
	o->pub.macs += m * k * n * count;
}

/* A GEMM: `in` streamed, `w` stationary (either may be -1), writes `out`. */
static struct tg_op *gemm(struct builder *bd, int layer, int phase, const char *name,
			  double m, double k, double n, double count,
			  int in, unsigned lin, int w, unsigned lw, int out)
{
	struct tg_op *o = OP(bd, layer, phase, name);

	if (!o)
		return NULL;
	add_gemm(o, m, k, n, count);
	if (in >= 0)
		op_read(o, in, lin, false, 1);
	if (w >= 0)
		op_read(o, w, lw, true, 1);
	if (out >= 0)
		op_write(o, out);
	return o;
}

/* A weight (or weight gradient) of `elems` elements: the chip holds its
 * 1/mp share. */
static int W(struct builder *bd, int layer, int phase, const char *name, double elems,
	     bool weight)
{
	return T(bd, layer, phase, name, elems / bd->dm->mp, weight);
}

static void gather_weights(struct builder *bd, int l, int ph, struct weights *w)
{
	const struct tg_dims *d = bd->dm;
	double dc = d->h * d->dh, dkv = d->kv * d->dh;
	struct tg_op *o = OP(bd, l, ph, "gather_w");

	w->q = W(bd, l, ph, "Wq", d->d * dc, true);
	w->k = W(bd, l, ph, "Wk", d->d * dkv, true);
	w->v = W(bd, l, ph, "Wv", d->d * dkv, true);
	w->o = W(bd, l, ph, "Wo", dc * d->d, true);
	w->w1 = W(bd, l, ph, "W1", d->d * d->ff * (d->ffm - 1), true);
	w->w2 = W(bd, l, ph, "W2", d->ff * d->d, true);
	if (!o || bd->failed)
		return;
	op_write(o, w->q);
	op_write(o, w->k);
	op_write(o, w->v);
	op_write(o, w->o);
	op_write(o, w->w1);
	op_write(o, w->w2);
}

/* Forward ops of layer l on input x (ph: forward or recompute).  In the
 * forward phase the last op writes the next layer's input *xn and, with
 * model parallelism, its sequence-sharded checkpoint *cn. */
static void layer_forward(struct builder *bd, int l, int ph, const struct weights *w,
			  struct acts *a, int *xn, int *cn)
{
	const struct tg_dims *d = bd->dm;
	double bs = d->b * d->s, dc = d->h * d->dh, dkv = d->kv * d->dh;
	double heads = d->b * d->h, ff_out = d->ff * (d->ffm - 1);
	struct tg_op *o;
	int c;

	a->q = T(bd, l, ph, "Q", bs * dc, false);
	a->k = T(bd, l, ph, "K", bs * dkv, false);
	a->v = T(bd, l, ph, "V", bs * dkv, false);
	a->a = T(bd, l, ph, "A", bs * dc, false);
	a->x2 = T(bd, l, ph, "X2", bs * d->d, false);
	a->h = T(bd, l, ph, "H", bs * ff_out, false);
	if (bd->failed)
		return;
	gemm(bd, l, ph, "q", bs, d->d, dc, 1, a->x, L_X, w->q, L_WQ, a->q);
	gemm(bd, l, ph, "k", bs, d->d, dkv, 1, a->x, L_X, w->k, L_WK, a->k);
	gemm(bd, l, ph, "v", bs, d->d, dkv, 1, a->x, L_X, w->v, L_WV, a->v);
	/* Q K^T and its product with V, head by head (Section 3.1); a head's
	 * scores stay in CMEM between the two (Section 4.3). */
	o = gemm(bd, l, ph, "attn", d->s, d->dh, d->s, heads, a->q, L_Q, a->k, L_KT, a->a);
	if (o) {
		op_read(o, a->v, L_V, true, 1);
		add_gemm(o, d->s, d->s, d->dh, heads);
		o->onchip_bytes = heads * d->s * d->s * NPU_ELEM_BYTES;
	}
	o = gemm(bd, l, ph, "o", bs, dc, d->d, 1, a->a, L_A, w->o, L_WO, a->x2);
	if (o)
		op_read(o, a->x, L_X, false, 1);	/* residual */
	gemm(bd, l, ph, "ff1", bs, d->d, ff_out, 1, a->x2, L_X2, w->w1, L_W1, a->h);
	if (ph != DLASIM_TIER_FORWARD || bd->failed)
		return;
	*xn = T(bd, l + 1, ph, "X", bs * d->d, false);
	c = d->mp > 1 ? T(bd, l + 1, ph, "C", bs * d->d / d->mp, false) : -1;
	o = OP(bd, l, ph, "ff2");
	if (!o || bd->failed)
		return;
	add_gemm(o, bs, d->ff, d->d, 1);
	op_read(o, a->h, L_H, false, 1 / (d->ffm - 1));
	op_read(o, w->w2, L_W2, true, 1);
	op_read(o, a->x2, L_X2, false, 1);	/* residual */
	op_write(o, *xn);
	if (c >= 0)
		op_write(o, c);
	*cn = c;
}

/* Backward ops of layer l given the recomputed activations and dY. */
static int layer_backward(struct builder *bd, int l, const struct weights *w,
			  const struct acts *a, int dy)
{
	const struct tg_dims *d = bd->dm;
	const int ph = DLASIM_TIER_BACKWARD;
	double bs = d->b * d->s, dc = d->h * d->dh, dkv = d->kv * d->dh;
	double heads = d->b * d->h, ff_out = d->ff * (d->ffm - 1);
	int dh, dx2, da, dq, dk, dv, dx;
	struct grads g;
	struct tg_op *o;

	dh = T(bd, l, ph, "dH", bs * ff_out, false);
	dx2 = T(bd, l, ph, "dX2", bs * d->d, false);
	da = T(bd, l, ph, "dA", bs * dc, false);
	dq = T(bd, l, ph, "dQ", bs * dc, false);
	dk = T(bd, l, ph, "dK", bs * dkv, false);
	dv = T(bd, l, ph, "dV", bs * dkv, false);
	dx = T(bd, l, ph, "dX", bs * d->d, false);
	g.wq = W(bd, l, ph, "dWq", d->d * dc, false);
	g.wk = W(bd, l, ph, "dWk", d->d * dkv, false);
	g.wv = W(bd, l, ph, "dWv", d->d * dkv, false);
	g.wo = W(bd, l, ph, "dWo", dc * d->d, false);
	g.w1 = W(bd, l, ph, "dW1", d->d * ff_out, false);
	g.w2 = W(bd, l, ph, "dW2", d->ff * d->d, false);
	if (bd->failed)
		return -1;
	o = gemm(bd, l, ph, "ff2_dx", bs, d->d, d->ff, 1, dy, L_H, w->w2, L_W2, dh);
	if (o)
		op_read(o, a->h, L_H, false, 1);	/* activation derivative */
	/* A weight gradient keeps its larger operand (here H) stationary, so
	 * that the one re-read in passes is the smaller. */
	o = gemm(bd, l, ph, "ff2_dw", d->d, bs, d->ff, 1, dy, L_W2, a->h, L_H, g.w2);
	if (o)
		o->in[1].fraction = 1 / (d->ffm - 1);
	o = gemm(bd, l, ph, "ff1_dx", bs, ff_out, d->d, 1, dh, L_X2, w->w1, L_W1, dx2);
	if (o)
		op_read(o, dy, L_X2, false, 1);	/* residual */
	gemm(bd, l, ph, "ff1_dw", d->d, bs, ff_out, 1, a->x2, L_X2, dh, L_W1, g.w1);
	gemm(bd, l, ph, "o_dx", bs, d->d, dc, 1, dx2, L_A, w->o, L_WO, da);
	gemm(bd, l, ph, "o_dw", dc, bs, d->d, 1, a->a, L_A, dx2, L_WO, g.wo);
	/* Head by head: the scores again (Q K^T), then dP = dA V^T, dV =
	 * P^T dA, dQ = dS K, dK = dS^T Q, with P and dS in CMEM. */
	o = gemm(bd, l, ph, "attn_bwd", d->s, d->dh, d->s, heads, a->q, L_Q, a->k, L_KT, dq);
	if (o) {
		op_read(o, a->v, L_V, true, 1);
		op_read(o, da, L_P, false, 1);
		add_gemm(o, d->s, d->dh, d->s, heads);
		add_gemm(o, d->s, d->s, d->dh, 3 * heads);
		op_write(o, dk);
		op_write(o, dv);
		o->onchip_bytes = 2 * heads * d->s * d->s * NPU_ELEM_BYTES;
	}
	o = gemm(bd, l, ph, "qkv_dx", bs, dc + 2 * dkv, d->d, 1, dq, L_X, w->q, L_WQ, dx);
	if (o) {
		op_read(o, dk, L_X, false, 1);
		op_read(o, dv, L_X, false, 1);
		op_read(o, w->k, L_WK, true, 1);
		op_read(o, w->v, L_WV, true, 1);
		op_read(o, dx2, L_X, false, 1);	/* residual */
	}
	o = gemm(bd, l, ph, "qkv_dw", d->d, bs, dc + 2 * dkv, 1, a->x, L_X, dq, L_WQ, g.wq);
	if (o) {
		op_read(o, dk, L_WK, true, 1);
		op_read(o, dv, L_WV, true, 1);
		op_write(o, g.wk);
		op_write(o, g.wv);
	}
	o = OP(bd, l, ph, "reduce_scatter_dw");
	if (o) {
		op_read(o, g.wq, L_WQ, false, 1);
		op_read(o, g.wk, L_WK, false, 1);
		op_read(o, g.wv, L_WV, false, 1);
		op_read(o, g.wo, L_WO, false, 1);
		op_read(o, g.w1, L_W1, false, 1);
		op_read(o, g.w2, L_W2, false, 1);
	}
	return dx;
}

/* The layer input the backward pass recomputes layer l from: gathered
 * from its sequence-sharded checkpoint with model parallelism. */
static int layer_input(struct builder *bd, int l, const int *xs, const int *cs)
{
	const struct tg_dims *d = bd->dm;
	struct tg_op *o;
	int x;

	if (cs[l] < 0)
		return xs[l];
	x = T(bd, l, DLASIM_TIER_RECOMPUTE, "X", d->b * d->s * d->d, false);
	o = OP(bd, l, DLASIM_TIER_RECOMPUTE, "gather_x");
	if (o && !bd->failed) {
		op_read(o, cs[l], L_X, false, 1);
		op_write(o, x);
	}
	return x;
}

/*
 * Weights are sharded at rest and gathered layer by layer, activations
 * recomputed in the backward pass from per-layer checkpoints of the layer
 * input, sharded by model_parallel along the sequence: without them GPT-3,
 * PaLM, Chinchilla and T5 do not fit 32 GiB a chip (docs/tier.md).
 */
static void build(struct builder *bd)
{
	const struct tg_dims *d = bd->dm;
	double bs = d->b * d->s;
	int L = (int)d->layers, e, lg, dlg, dy, de;
	int *xs, *cs;
	struct weights w;
	struct acts a;
	struct tg_op *o;

	xs = calloc((size_t)L + 1, sizeof(int));
	cs = calloc((size_t)L + 1, sizeof(int));
	if (!xs || !cs) {
		bd->failed = true;
		goto out;
	}
	/* Forward: gather the embedding, look tokens up, run the layers. */
	e = W(bd, -1, 0, "E", d->v * d->d, true);
	o = OP(bd, -1, 0, "gather_emb");
	if (o)
		op_write(o, e);
	xs[0] = T(bd, 0, 0, "X", bs * d->d, false);
	cs[0] = d->mp > 1 ? T(bd, 0, 0, "C", bs * d->d / d->mp, false) : -1;
	o = OP(bd, -1, 0, "embed");
	if (o && !bd->failed) {
		op_read(o, e, L_LMW, false, fmin(1, bs / d->v));
		op_write(o, xs[0]);
		if (cs[0] >= 0)
			op_write(o, cs[0]);
	}
	for (int l = 0; l < L && !bd->failed; l++) {
		gather_weights(bd, l, DLASIM_TIER_FORWARD, &w);
		a.x = xs[l];
		layer_forward(bd, l, DLASIM_TIER_FORWARD, &w, &a, &xs[l + 1], &cs[l + 1]);
	}
	if (bd->failed)
		goto out;
	/* Language-model head and loss. */
	lg = T(bd, -1, 0, "logits", bs * d->v, false);
	gemm(bd, -1, 0, "lm", bs, d->d, d->v, 1, xs[L], L_LMIN, e, L_LMW, lg);
	dlg = T(bd, -1, 2, "dlogits", bs * d->v, false);
	o = OP(bd, -1, 2, "loss");
	if (o && !bd->failed) {
		op_read(o, lg, L_LMIN, false, 1);
		op_write(o, dlg);
	}
	dy = T(bd, L, 2, "dX", bs * d->d, false);
	de = W(bd, -1, 2, "dE", d->v * d->d, false);
	gemm(bd, -1, 2, "lm_dx", bs, d->v, d->d, 1, dlg, L_LMIN, e, L_LMW, dy);
	gemm(bd, -1, 2, "lm_dw", d->d, bs, d->v, 1, xs[L], L_LMIN, dlg, L_LMW, de);
	/* Backward: per layer, gather the weights and the input again,
	 * recompute the forward activations, then the gradients. */
	for (int l = L - 1; l >= 0 && !bd->failed; l--) {
		gather_weights(bd, l, DLASIM_TIER_BACKWARD, &w);
		a.x = layer_input(bd, l, xs, cs);
		layer_forward(bd, l, DLASIM_TIER_RECOMPUTE, &w, &a, NULL, NULL);
		dy = layer_backward(bd, l, &w, &a, dy);
	}
	if (bd->failed)
		goto out;
	/* Embedding gradient: scatter-add into dE, then reduce-scatter it. */
	o = OP(bd, -1, 2, "embed_dw");
	if (o) {
		op_read(o, dy, L_LMIN, false, 1);
		op_read(o, de, L_LMW, false, fmin(1, bs / d->v));
	}
	o = OP(bd, -1, 2, "reduce_scatter_de");
	if (o)
		op_read(o, de, L_LMW, false, 1);
out:
	free(xs);
	free(cs);
}

/* ---- what the sequence implies ---- */

static int add_use(struct tg_tensor *t, int op)
{
	if (t->nuses && t->uses[t->nuses - 1] == op)
		return 0;
	if (grow((void **)&t->uses, &t->cap, t->nuses, sizeof(int)))
		return -1;
	t->uses[t->nuses++] = op;
	return 0;
}

/* Off-chip fetches and on-chip accesses of each operand (Algorithm 2). */
static void operand_costs(struct tier_graph *g, struct tg_op *o)
{
	for (int i = 0; i < o->pub.ninputs; i++) {
		struct dlasim_tier_operand *in = &o->in[i];
		double bytes = g->t[in->tensor].pub.bytes * in->fraction;
		double cmem = 2, vmem = 1;

		if (o->count > 0) {
			double inst = bytes / o->count;
			/* Operands beyond the GEMM's two (residuals,
			 * derivatives) stream through once. */
			bool gemm_operand = i < 2 || in->stationary;

			if (gemm_operand) {
				in->fetches = npu_offchip_fetches(in->stationary, inst, o->n);
				npu_onchip_accesses(in->stationary, inst, o->n, &cmem, &vmem);
			}
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

static int finalize(struct tier_graph *g)
{
	double live = 0, *freed;

	/* The arrays moved while they grew: point into their final place. */
	for (int i = 0; i < g->nops; i++) {
		g->ops[i].pub.name = g->ops[i].name;
		g->ops[i].pub.inputs = g->ops[i].in;
		g->ops[i].pub.outputs = g->ops[i].out;
	}
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

		operand_costs(g, o);
		o->pub.compute_s = o->cycles / NPU_CLOCK_HZ;
		if (o->pub.phase != DLASIM_TIER_RECOMPUTE)
			g->data_bytes += o->onchip_bytes;
		g->start_s[i] = g->compute_s;
		g->macs += o->pub.macs;
		g->compute_s += o->pub.compute_s;
		for (int k = 0; k < o->pub.noutputs; k++) {
			g->t[o->out[k]].pub.producer = i;
			if (o->pub.phase != DLASIM_TIER_RECOMPUTE)
				g->data_bytes += g->t[o->out[k]].pub.bytes;
		}
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
	/* Footprint: outputs exist from their op on, inputs until their
	 * last reader is done. */
	freed = calloc(g->nops > 0 ? (size_t)g->nops : 1, sizeof(double));
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

/*
 * TM-Training's per-chip slice, as its sizes show (docs/tier.md): a chip
 * runs batch / data_parallel sequences through layers of full width (every
 * head, the whole feed-forward and vocabulary) and holds 1/model_parallel
 * of each weight and weight gradient.  This gives PaLM's 9 GB forward and
 * 22.5 GB backward per layer (Sections 2, 5.2) and Table 3's data per
 * iteration; the pods are not a further division of the batch.
 */
static void dims_of(struct tg_dims *d, const struct tier_workload *w, double batch_scale)
{
	d->b = (double)w->batch * batch_scale / (double)w->data_parallel;
	d->s = (double)w->seq;
	d->d = (double)w->d_model;
	d->dh = (double)w->head_dim;
	d->h = (double)w->heads;
	d->kv = (double)w->kv_heads;
	d->ff = (double)w->d_ff;
	d->v = (double)w->vocab;
	d->ffm = (double)w->ff_matrices;
	d->mp = (double)w->model_parallel;
	d->layers = w->layers;
}

int tier_graph_build(struct tier_graph *g, const struct tier_workload *w, double batch_scale)
{
	struct builder bd = { .g = g, .dm = &g->dims };

	memset(g, 0, sizeof(*g));
	dims_of(&g->dims, w, batch_scale);
	build(&bd);
	if (bd.failed || finalize(g)) {
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
