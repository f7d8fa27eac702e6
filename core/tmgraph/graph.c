/* SPDX-License-Identifier: MIT */
/*
 * The operator sequence of one training iteration (docs/tier.md): the
 * tensors and operators of every layer, forward, recomputed and backward,
 * the weights' loading, gathering and update.  graph_use.c derives from
 * it what the placement needs (uses, costs, footprint).
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

/* Table 4 labels (input data, weight); 0xC and 0xF: language-model head. */
enum {
	L_X = 0x0, L_WQ = 0x1, L_WK = 0x2, L_WV = 0x3, L_Q = 0x4, L_KT = 0x5,
	L_P = 0x6, L_V = 0x7, L_A = 0x8, L_WO = 0x9, L_X2 = 0xA, L_W1 = 0xB,
	L_LMIN = 0xC, L_W2 = 0xD, L_H = 0xE, L_LMW = 0xF,
};

static const char *const phase_tag[] = { "fwd", "rec", "bwd" };

/* ---- building blocks ---- */

int tg_grow(void **v, int *cap, int n, size_t elem)
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

static void name_of(char *buf, int layer, int phase, const char *name)
{
	if (layer >= 0)
		snprintf(buf, TG_NAME, "l%d.%s.%s", layer, phase_tag[phase], name);
	else
		snprintf(buf, TG_NAME, "%s.%s", phase_tag[phase], name);
}

static int tensor_new(struct tier_graph *g, int layer, int phase, const char *name,
		      double bytes, bool weight)
{
	struct tg_tensor *t;

	if (tg_grow((void **)&g->t, &g->capt, g->nt, sizeof(*g->t)))
		return -1;
	t = &g->t[g->nt];
	memset(t, 0, sizeof(*t));
	name_of(t->name, layer, phase, name);
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

	if (tg_grow((void **)&g->ops, &g->capops, g->nops, sizeof(*g->ops)))
		return NULL;
	o = &g->ops[g->nops];
	memset(o, 0, sizeof(*o));
	name_of(o->name, layer, phase, name);
	o->pub.size = sizeof(o->pub);
	o->pub.index = g->nops++;
	o->pub.name = o->name;
	o->pub.layer = layer;
	o->pub.phase = phase;
	o->pub.inputs = o->in;
	o->pub.outputs = o->out;
	return o;
}

static void op_read(struct tg_op *o, int tensor, unsigned label, enum tg_role role,
		    double fraction)
{
	int k = o->pub.ninputs++;
	struct dlasim_tier_operand *in = &o->in[k];

	in->tensor = tensor;
	in->label = label;
	in->stationary = role == TG_STATIONARY;
	in->fraction = fraction;
	in->fetches = 1;
	o->role[k] = role;
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

/* One attention block's weights and activations; a layer's weights and
 * the activations its backward pass reads. */
struct attn_w { int q, k, v, o; };
struct attn_a { int q, k, v, a; };
struct weights { struct attn_w self, cross; int w1, w2; };
struct acts { struct attn_a self, cross; int x, x2, x3, h; };

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

/* A collective over the inter-chip network: the chip sends or receives
 * `bytes` while the MXUs go on (docs/tier.md). */
static struct tg_op *collective(struct builder *bd, int layer, int phase, const char *name,
				double bytes)
{
	struct tg_op *o = OP(bd, layer, phase, name);

	if (o) {
		o->network = true;
		o->pub.network_bytes = bytes;
	}
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

/* A GEMM: `in` streamed, `w` stationary (either may be -1), writes `out`
 * (-1: the caller adds outputs). */
static struct tg_op *gemm(struct builder *bd, int layer, int phase, const char *name,
			  double m, double k, double n, double count,
			  int in, unsigned lin, int w, unsigned lw, int out)
{
	struct tg_op *o = OP(bd, layer, phase, name);

	if (!o)
		return NULL;
	add_gemm(o, m, k, n, count);
	if (in >= 0)
		op_read(o, in, lin, TG_STREAMED, 1);
	if (w >= 0)
		op_read(o, w, lw, TG_STATIONARY, 1);
	if (out >= 0)
		op_write(o, out);
	return o;
}

/* The result `out` of op o, a GEMM whose contraction is split over the
 * model-parallel chips, plus `residual` (-1: none).  Without model
 * parallelism o adds the residual and writes `out`; with it, o writes a
 * partial sum `pname` that an all-reduce over the model-parallel chips
 * completes (Megatron-LM).  Returns the op that writes `out`. */
static struct tg_op *reduced(struct builder *bd, struct tg_op *o, int l, int ph,
			     const char *pname, int residual, unsigned lres, int out)
{
	const struct tg_dims *d = bd->dm;
	struct tg_op *ar;
	char arname[TG_NAME];
	int part;

	if (!o || bd->failed)
		return NULL;
	if (d->mp <= 1) {
		if (residual >= 0)
			op_read(o, residual, lres, TG_ONCE, 1);
		op_write(o, out);
		return o;
	}
	part = T(bd, l, ph, pname, bd->g->t[out].pub.bytes / NPU_ELEM_BYTES, false);
	if (part < 0)
		return NULL;
	op_write(o, part);
	snprintf(arname, sizeof(arname), "%s_ar", pname);
	ar = collective(bd, l, ph, arname, 2 * (d->mp - 1) / d->mp * bd->g->t[part].pub.bytes);
	if (!ar)
		return NULL;
	op_read(ar, part, lres, TG_ONCE, 1);
	if (residual >= 0)
		op_read(ar, residual, lres, TG_ONCE, 1);
	op_write(ar, out);
	return ar;
}

static void layer_name(char *buf, const char *pre, const char *name)
{
	snprintf(buf, TG_NAME, "%s%s", pre, name);
}

static bool decoder(const struct tg_dims *d, int l)
{
	return l >= d->enc_layers;
}

/* ---- weights: resident, or sharded at rest and gathered ---- */

static double attn_w_elems(const struct tg_dims *d)
{
	return 2 * d->d * d->hc * d->dh + 2 * d->d * d->kvc * d->dh;
}

/* Elements of layer l's weights on the chip (1/model_parallel of each). */
static double layer_w_elems(const struct tg_dims *d, int l)
{
	double ff = d->d * d->ffc * d->ffm;

	return attn_w_elems(d) * (decoder(d, l) ? 2 : 1) + ff;
}

static void new_attn_w(struct builder *bd, int l, int ph, const char *pre, struct attn_w *w)
{
	const struct tg_dims *d = bd->dm;
	double dc = d->hc * d->dh, dkv = d->kvc * d->dh;
	char n[TG_NAME];

	layer_name(n, pre, "Wq");
	w->q = T(bd, l, ph, n, d->d * dc, true);
	layer_name(n, pre, "Wk");
	w->k = T(bd, l, ph, n, d->d * dkv, true);
	layer_name(n, pre, "Wv");
	w->v = T(bd, l, ph, n, d->d * dkv, true);
	layer_name(n, pre, "Wo");
	w->o = T(bd, l, ph, n, dc * d->d, true);
}

static void new_weights(struct builder *bd, int l, int ph, struct weights *w)
{
	const struct tg_dims *d = bd->dm;

	new_attn_w(bd, l, ph, "", &w->self);
	w->cross = (struct attn_w){ -1, -1, -1, -1 };
	if (decoder(d, l))
		new_attn_w(bd, l, ph, "c", &w->cross);
	w->w1 = T(bd, l, ph, "W1", d->d * d->ffc * (d->ffm - 1), true);
	w->w2 = T(bd, l, ph, "W2", d->ffc * d->d, true);
}

static void write_weights(struct tg_op *o, const struct weights *w)
{
	const int *ids[] = { &w->self.q, &w->self.k, &w->self.v, &w->self.o, &w->cross.q,
			     &w->cross.k, &w->cross.v, &w->cross.o, &w->w1, &w->w2 };

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (*ids[i] >= 0)
			op_write(o, *ids[i]);
}

/*
 * The state a chip keeps across iterations: per layer either its weights
 * (resident) or, sharded at rest over data_parallel (fsdp), its shard.
 * Written by `load` ops that open the iteration, standing for the previous
 * iteration's optimizer step; read by the `update` ops that close it.
 */
struct resident {
	struct weights *w;	/* per layer, resident weights */
	int *shard;		/* per layer, fsdp: its shard */
	int e, e_shard;		/* the embedding, or its shard */
	int *grad;		/* per layer: its reduced gradient (or shard) */
	int de;			/* the embedding's */
};

static void load_state(struct builder *bd, struct resident *r)
{
	const struct tg_dims *d = bd->dm;
	struct tg_op *o;

	o = OP(bd, -1, DLASIM_TIER_FORWARD, "load_e");
	if (d->fsdp)
		r->e_shard = T(bd, -1, DLASIM_TIER_FORWARD, "Eshard", d->vc * d->d / d->dp, true);
	else
		r->e = T(bd, -1, DLASIM_TIER_FORWARD, "E", d->vc * d->d, true);
	if (o && !bd->failed)
		op_write(o, d->fsdp ? r->e_shard : r->e);
	for (int l = 0; l < d->layers && !bd->failed; l++) {
		o = OP(bd, l, DLASIM_TIER_FORWARD, "load_w");
		if (d->fsdp) {
			r->shard[l] = T(bd, l, DLASIM_TIER_FORWARD, "Wshard",
					layer_w_elems(d, l) / d->dp, true);
			if (o && !bd->failed)
				op_write(o, r->shard[l]);
			continue;
		}
		new_weights(bd, l, DLASIM_TIER_FORWARD, &r->w[l]);
		if (o && !bd->failed)
			write_weights(o, &r->w[l]);
	}
}

/* The weights layer l's ops read in phase ph: the resident ones, or
 * gathered from the data-parallel chips' shards (FSDP). */
static void layer_weights(struct builder *bd, const struct resident *r, int l, int ph,
			  struct weights *w)
{
	const struct tg_dims *d = bd->dm;
	struct tg_op *o;

	if (!d->fsdp) {
		*w = r->w[l];
		return;
	}
	new_weights(bd, l, ph, w);
	o = collective(bd, l, ph, "gather_w",
		       (d->dp - 1) / d->dp * layer_w_elems(d, l) * NPU_ELEM_BYTES);
	if (!o || bd->failed)
		return;
	op_read(o, r->shard[l], L_WQ, TG_ONCE, 1);
	write_weights(o, w);
}

/* The embedding for the ops that follow (gathered again, as `name`, under
 * FSDP). */
static int embedding(struct builder *bd, const struct resident *r, const char *name)
{
	const struct tg_dims *d = bd->dm;
	const int ph = DLASIM_TIER_FORWARD;
	char on[TG_NAME];
	struct tg_op *o;
	int e;

	if (!d->fsdp)
		return r->e;
	e = T(bd, -1, ph, name, d->vc * d->d, true);
	snprintf(on, sizeof(on), "gather_%s", name);
	o = collective(bd, -1, ph, on, (d->dp - 1) / d->dp * d->vc * d->d * NPU_ELEM_BYTES);
	if (o && !bd->failed) {
		op_read(o, r->e_shard, L_LMW, TG_ONCE, 1);
		op_write(o, e);
	}
	return e;
}

/* Reduce the gradients `g` (n tensors, `elems` in all) over the
 * data-parallel chips: a reduce-scatter to the chip's shard (fsdp) or an
 * all-reduce, kept until the update. */
static int reduce_grads(struct builder *bd, int l, const int *g, int n, double elems,
			const char *name)
{
	const struct tg_dims *d = bd->dm;
	const int ph = DLASIM_TIER_BACKWARD;
	double bytes = elems * NPU_ELEM_BYTES, moved = (d->dp - 1) / d->dp * bytes;
	struct tg_op *o = collective(bd, l, ph, name, d->fsdp ? moved : 2 * moved);
	int out = T(bd, l, ph, d->fsdp ? "Gshard" : "G", d->fsdp ? elems / d->dp : elems, false);

	if (!o || bd->failed)
		return -1;
	for (int i = 0; i < n; i++)
		op_read(o, g[i], L_WQ, TG_ONCE, 1);
	op_write(o, out);
	return out;
}

/* The optimizer step: reads each gradient and the weights it updates. */
static void update_state(struct builder *bd, const struct resident *r)
{
	const struct tg_dims *d = bd->dm;
	const int ph = DLASIM_TIER_BACKWARD;
	struct tg_op *o;

	for (int l = 0; l < d->layers && !bd->failed; l++) {
		const struct weights *w = &r->w[l];
		const int ids[] = { w->self.q, w->self.k, w->self.v, w->self.o, w->cross.q,
				    w->cross.k, w->cross.v, w->cross.o, w->w1, w->w2 };

		o = OP(bd, l, ph, "update");
		if (!o || bd->failed)
			return;
		op_read(o, r->grad[l], L_WQ, TG_ONCE, 1);
		if (d->fsdp) {
			op_read(o, r->shard[l], L_WQ, TG_ONCE, 1);
			continue;
		}
		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
			if (ids[i] >= 0)
				op_read(o, ids[i], L_WQ, TG_ONCE, 1);
	}
	o = OP(bd, -1, ph, "update_e");
	if (o && !bd->failed) {
		op_read(o, r->de, L_LMW, TG_ONCE, 1);
		op_read(o, d->fsdp ? r->e_shard : r->e, L_LMW, TG_ONCE, 1);
	}
}

/* ---- the layers ---- */

/* Forward of one attention block ("" self, "c" cross): queries from xq,
 * keys and values from xkv; head by head (Section 3.1), a head's scores
 * staying in CMEM between its two GEMMs (Section 4.3).  Writes `out`
 * (xq plus the block's output); returns the op that writes it. */
static struct tg_op *attention_fwd(struct builder *bd, int l, int ph, const char *pre,
				   int xq, int xkv, const struct attn_w *w, struct attn_a *a,
				   int out)
{
	const struct tg_dims *d = bd->dm;
	double bs = d->b * d->s, dc = d->hc * d->dh, dkv = d->kvc * d->dh, heads = d->b * d->hc;
	char n[TG_NAME], pn[TG_NAME];
	struct tg_op *o;

	layer_name(n, pre, "Q");
	a->q = T(bd, l, ph, n, bs * dc, false);
	layer_name(n, pre, "K");
	a->k = T(bd, l, ph, n, bs * dkv, false);
	layer_name(n, pre, "V");
	a->v = T(bd, l, ph, n, bs * dkv, false);
	layer_name(n, pre, "A");
	a->a = T(bd, l, ph, n, bs * dc, false);
	if (bd->failed)
		return NULL;
	layer_name(n, pre, "q");
	gemm(bd, l, ph, n, bs, d->d, dc, 1, xq, L_X, w->q, L_WQ, a->q);
	layer_name(n, pre, "k");
	gemm(bd, l, ph, n, bs, d->d, dkv, 1, xkv, L_X, w->k, L_WK, a->k);
	layer_name(n, pre, "v");
	gemm(bd, l, ph, n, bs, d->d, dkv, 1, xkv, L_X, w->v, L_WV, a->v);
	layer_name(n, pre, "attn");
	o = gemm(bd, l, ph, n, d->s, d->dh, d->s, heads, a->q, L_Q, a->k, L_KT, a->a);
	if (o) {
		op_read(o, a->v, L_V, TG_STATIONARY, 1);
		add_gemm(o, d->s, d->s, d->dh, heads);
		o->onchip_bytes = heads * d->s * d->s * NPU_ELEM_BYTES;
	}
	layer_name(n, pre, "o");
	layer_name(pn, pre, "Op");
	o = gemm(bd, l, ph, n, bs, dc, d->d, 1, a->a, L_A, w->o, L_WO, -1);
	return reduced(bd, o, l, ph, pn, xq, L_X, out);
}

/* Forward of layer l on input x (phase forward, or recompute: then it
 * stops before ff2, whose result the backward pass does not read).  In the
 * forward phase writes *xn, the next layer's input; returns the op that
 * writes it. */
static struct tg_op *layer_forward(struct builder *bd, int l, int ph, const struct weights *w,
				   struct acts *a, int eo, int *xn)
{
	const struct tg_dims *d = bd->dm;
	double bs = d->b * d->s, ff_out = d->ffc * (d->ffm - 1);
	int xf;
	struct tg_op *o;

	a->x2 = T(bd, l, ph, "X2", bs * d->d, false);
	a->x3 = -1;
	a->cross = (struct attn_a){ -1, -1, -1, -1 };
	attention_fwd(bd, l, ph, "", a->x, a->x, &w->self, &a->self, a->x2);
	xf = a->x2;
	if (decoder(d, l)) {
		a->x3 = T(bd, l, ph, "X3", bs * d->d, false);
		attention_fwd(bd, l, ph, "c", a->x2, eo, &w->cross, &a->cross, a->x3);
		xf = a->x3;
	}
	a->h = T(bd, l, ph, "H", bs * ff_out, false);
	if (bd->failed)
		return NULL;
	gemm(bd, l, ph, "ff1", bs, d->d, ff_out, 1, xf, L_X2, w->w1, L_W1, a->h);
	if (ph != DLASIM_TIER_FORWARD)
		return NULL;
	*xn = T(bd, l + 1, ph, "X", bs * d->d, false);
	/* A gated feed-forward multiplies its two halves on the fly: ff2 reads
	 * all of H for a contraction of d_ff. */
	o = gemm(bd, l, ph, "ff2", bs, d->ffc, d->d, 1, a->h, L_H, w->w2, L_W2, -1);
	return reduced(bd, o, l, ph, "Fp", xf, L_X2, *xn);
}

/* Backward of one attention block given the gradient of its output dout;
 * writes the gradients of its weights into g[] and returns the gradient
 * of its query input (plus dout, the residual).  A cross-attention block
 * adds the gradient of its keys' and values' input to *deo. */
static int attention_bwd(struct builder *bd, int l, const char *pre, int xq, int xkv,
			 const struct attn_w *w, const struct attn_a *a, int dout, int *g,
			 int *deo)
{
	const struct tg_dims *d = bd->dm;
	const int ph = DLASIM_TIER_BACKWARD;
	double bs = d->b * d->s, dc = d->hc * d->dh, dkv = d->kvc * d->dh, heads = d->b * d->hc;
	bool self = !*pre;
	int da, dq, dk, dv, dx, deo_new = -1;
	char n[TG_NAME];
	struct tg_op *o;

	layer_name(n, pre, "dA");
	da = T(bd, l, ph, n, bs * dc, false);
	layer_name(n, pre, "dQ");
	dq = T(bd, l, ph, n, bs * dc, false);
	layer_name(n, pre, "dK");
	dk = T(bd, l, ph, n, bs * dkv, false);
	layer_name(n, pre, "dV");
	dv = T(bd, l, ph, n, bs * dkv, false);
	layer_name(n, pre, "dX");
	dx = T(bd, l, ph, n, bs * d->d, false);
	layer_name(n, pre, "dWq");
	g[0] = T(bd, l, ph, n, d->d * dc, false);
	layer_name(n, pre, "dWk");
	g[1] = T(bd, l, ph, n, d->d * dkv, false);
	layer_name(n, pre, "dWv");
	g[2] = T(bd, l, ph, n, d->d * dkv, false);
	layer_name(n, pre, "dWo");
	g[3] = T(bd, l, ph, n, dc * d->d, false);
	if (!self)
		deo_new = T(bd, l, ph, "dEo", bs * d->d, false);
	if (bd->failed)
		return -1;
	layer_name(n, pre, "o_dx");
	gemm(bd, l, ph, n, bs, d->d, dc, 1, dout, L_A, w->o, L_WO, da);
	/* A weight gradient keeps its larger operand stationary, so that the
	 * one re-read in passes is the smaller. */
	layer_name(n, pre, "o_dw");
	gemm(bd, l, ph, n, dc, bs, d->d, 1, a->a, L_A, dout, L_WO, g[3]);
	/* Head by head: the scores again (Q K^T), then dP = dA V^T, dV =
	 * P^T dA, dQ = dS K, dK = dS^T Q, with P and dS in CMEM. */
	layer_name(n, pre, "attn_bwd");
	o = gemm(bd, l, ph, n, d->s, d->dh, d->s, heads, a->q, L_Q, a->k, L_KT, dq);
	if (o) {
		op_read(o, a->v, L_V, TG_STATIONARY, 1);
		op_read(o, da, L_P, TG_ONCE, 1);
		add_gemm(o, d->s, d->dh, d->s, heads);
		add_gemm(o, d->s, d->s, d->dh, 3 * heads);
		op_write(o, dk);
		op_write(o, dv);
		o->onchip_bytes = 2 * heads * d->s * d->s * NPU_ELEM_BYTES;
	}
	if (self) {
		o = gemm(bd, l, ph, "qkv_dx", bs, dc + 2 * dkv, d->d, 1, dq, L_X, w->q, L_WQ, -1);
		if (o) {
			op_read(o, dk, L_X, TG_STREAMED, 1);
			op_read(o, dv, L_X, TG_STREAMED, 1);
			op_read(o, w->k, L_WK, TG_STATIONARY, 1);
			op_read(o, w->v, L_WV, TG_STATIONARY, 1);
		}
		reduced(bd, o, l, ph, "dXp", dout, L_X, dx);
		o = gemm(bd, l, ph, "qkv_dw", d->d, bs, dc + 2 * dkv, 1, xq, L_X, dq, L_WQ, g[0]);
		if (o) {
			op_read(o, dk, L_WK, TG_STATIONARY, 1);
			op_read(o, dv, L_WV, TG_STATIONARY, 1);
			op_write(o, g[1]);
			op_write(o, g[2]);
		}
		return dx;
	}
	o = gemm(bd, l, ph, "cq_dx", bs, dc, d->d, 1, dq, L_X, w->q, L_WQ, -1);
	reduced(bd, o, l, ph, "cdXp", dout, L_X, dx);
	o = gemm(bd, l, ph, "ckv_dx", bs, 2 * dkv, d->d, 1, dk, L_X, w->k, L_WK, -1);
	if (o) {
		op_read(o, dv, L_X, TG_STREAMED, 1);
		op_read(o, w->v, L_WV, TG_STATIONARY, 1);
	}
	reduced(bd, o, l, ph, "dEop", *deo, L_X, deo_new);
	*deo = deo_new;
	gemm(bd, l, ph, "cq_dw", d->d, bs, dc, 1, xq, L_X, dq, L_WQ, g[0]);
	o = gemm(bd, l, ph, "ckv_dw", d->d, bs, 2 * dkv, 1, xkv, L_X, dk, L_WK, g[1]);
	if (o) {
		op_read(o, dv, L_WV, TG_STATIONARY, 1);
		op_write(o, g[2]);
	}
	return dx;
}

/* Backward ops of layer l given its forward activations and dY; reduces
 * its weight gradients into *grad.  Returns dX. */
static int layer_backward(struct builder *bd, int l, const struct weights *w,
			  const struct acts *a, int dy, int eo, int *deo, int *grad)
{
	const struct tg_dims *d = bd->dm;
	const int ph = DLASIM_TIER_BACKWARD;
	double bs = d->b * d->s, ff_out = d->ffc * (d->ffm - 1), elems;
	int xf = a->x3 >= 0 ? a->x3 : a->x2, dh, dxf, dx, g[10], ng = 0;
	struct tg_op *o;

	dh = T(bd, l, ph, "dH", bs * ff_out, false);
	dxf = T(bd, l, ph, a->x3 >= 0 ? "dX3" : "dX2", bs * d->d, false);
	g[ng++] = T(bd, l, ph, "dW2", d->ffc * d->d, false);
	g[ng++] = T(bd, l, ph, "dW1", d->d * ff_out, false);
	if (bd->failed)
		return -1;
	o = gemm(bd, l, ph, "ff2_dx", bs, d->d, d->ffc, 1, dy, L_H, w->w2, L_W2, dh);
	if (o)
		op_read(o, a->h, L_H, TG_ONCE, 1);	/* activation derivative */
	gemm(bd, l, ph, "ff2_dw", d->d, bs, d->ffc, 1, dy, L_W2, a->h, L_H, g[0]);
	o = gemm(bd, l, ph, "ff1_dx", bs, ff_out, d->d, 1, dh, L_X2, w->w1, L_W1, -1);
	reduced(bd, o, l, ph, "dFp", dy, L_X2, dxf);
	gemm(bd, l, ph, "ff1_dw", d->d, bs, ff_out, 1, xf, L_X2, dh, L_W1, g[1]);
	if (a->x3 >= 0) {
		dxf = attention_bwd(bd, l, "c", a->x2, eo, &w->cross, &a->cross, dxf, &g[ng], deo);
		ng += 4;
	}
	dx = attention_bwd(bd, l, "", a->x, a->x, &w->self, &a->self, dxf, &g[ng], NULL);
	ng += 4;
	if (bd->failed)
		return -1;
	elems = layer_w_elems(d, l);
	*grad = reduce_grads(bd, l, g, ng, elems, "reduce_dw");
	return dx;
}

/* ---- the iteration ---- */

struct chain {
	int *in;	/* per layer, its input */
	int *ckpt;	/* per layer, the checkpoint its recomputation starts
			 * from (its input, or a 1/mp slice of it); -1 */
	struct acts *a;	/* per layer, forward activations (kept layers) */
	int eo;		/* encoder output (encoder-decoder), -1 */
	int out;	/* the last layer's output */
};

static bool recomputed(const struct tg_dims *d, int l)
{
	return l < d->recomputed;
}

/* The op writing layer l's input also writes its checkpoint, a 1/mp slice
 * along the sequence with model parallelism (Korthikanti et al. 2022). */
static void checkpoint(struct builder *bd, struct chain *c, struct tg_op *writer, int l)
{
	const struct tg_dims *d = bd->dm;

	c->ckpt[l] = -1;
	if (!recomputed(d, l) || !writer || bd->failed)
		return;
	if (d->mp <= 1) {
		c->ckpt[l] = c->in[l];
		return;
	}
	c->ckpt[l] = T(bd, l, DLASIM_TIER_FORWARD, "C", d->b * d->s * d->d / d->mp, false);
	if (c->ckpt[l] >= 0)
		op_write(writer, c->ckpt[l]);
}

/* Token embedding into a new layer input (a vocabulary-parallel lookup
 * with model parallelism: partial rows all-reduced). */
static struct tg_op *embed(struct builder *bd, int e, const char *name, int layer,
			   const char *xname, int *x)
{
	const struct tg_dims *d = bd->dm;
	double bs = d->b * d->s;
	char pn[TG_NAME];
	struct tg_op *o = OP(bd, -1, DLASIM_TIER_FORWARD, name);

	*x = T(bd, layer, DLASIM_TIER_FORWARD, xname, bs * d->d, false);
	if (!o || bd->failed)
		return NULL;
	op_read(o, e, L_LMW, TG_ONCE, fmin(1, bs / d->vc));
	snprintf(pn, sizeof(pn), "%sp", name);
	return reduced(bd, o, -1, DLASIM_TIER_FORWARD, pn, -1, L_LMIN, *x);
}

static void forward(struct builder *bd, const struct resident *r, struct chain *c)
{
	const struct tg_dims *d = bd->dm;
	int le = (int)d->enc_layers, e = embedding(bd, r, "E");
	struct weights w, wn;
	struct tg_op *o;

	o = embed(bd, e, "embed", 0, "X", &c->in[0]);
	checkpoint(bd, c, o, 0);
	if (le < d->layers) {
		o = embed(bd, e, "embed_dec", le, "Y", &c->in[le]);
		checkpoint(bd, c, o, le);
	}
	layer_weights(bd, r, 0, DLASIM_TIER_FORWARD, &w);
	for (int l = 0; l < d->layers && !bd->failed; l++) {
		int xn;

		/* The next layer's weights are gathered while this one runs. */
		wn = w;
		if (l + 1 < d->layers)
			layer_weights(bd, r, l + 1, DLASIM_TIER_FORWARD, &wn);
		c->a[l].x = c->in[l];
		o = layer_forward(bd, l, DLASIM_TIER_FORWARD, &w, &c->a[l], c->eo, &xn);
		if (l + 1 == le && le < d->layers) {
			c->eo = xn;
		} else if (l + 1 < d->layers) {
			c->in[l + 1] = xn;
			checkpoint(bd, c, o, l + 1);
		} else {
			c->out = xn;
		}
		w = wn;
	}
}

/* The layer input the backward pass recomputes layer l from: gathered
 * from its sequence-sharded checkpoint with model parallelism. */
static int layer_input(struct builder *bd, const struct chain *c, int l)
{
	const struct tg_dims *d = bd->dm;
	struct tg_op *o;
	int x;

	if (d->mp <= 1)
		return c->ckpt[l];
	x = T(bd, l, DLASIM_TIER_RECOMPUTE, "X", d->b * d->s * d->d, false);
	o = collective(bd, l, DLASIM_TIER_RECOMPUTE, "gather_x",
		       (d->mp - 1) / d->mp * d->b * d->s * d->d * NPU_ELEM_BYTES);
	if (o && !bd->failed) {
		op_read(o, c->ckpt[l], L_X, TG_ONCE, 1);
		op_write(o, x);
	}
	return x;
}

/* Language-model head and loss; returns the gradient of the last layer's
 * output and writes the embedding's gradient *de. */
static int head(struct builder *bd, const struct resident *r, const struct chain *c, int *de)
{
	const struct tg_dims *d = bd->dm;
	double bs = d->b * d->s;
	int e = embedding(bd, r, "E_head"), lg, dlg, dy;
	struct tg_op *o;

	lg = T(bd, -1, 0, "logits", bs * d->vc, false);
	gemm(bd, -1, 0, "lm", bs, d->d, d->vc, 1, c->out, L_LMIN, e, L_LMW, lg);
	dlg = T(bd, -1, 2, "dlogits", bs * d->vc, false);
	o = OP(bd, -1, 2, "loss");
	if (o && !bd->failed) {
		op_read(o, lg, L_LMIN, TG_ONCE, 1);
		op_write(o, dlg);
	}
	dy = T(bd, d->layers, 2, "dX", bs * d->d, false);
	*de = T(bd, -1, 2, "dE", d->vc * d->d, false);
	o = gemm(bd, -1, 2, "lm_dx", bs, d->vc, d->d, 1, dlg, L_LMIN, e, L_LMW, -1);
	reduced(bd, o, -1, 2, "dXLp", -1, L_LMIN, dy);
	gemm(bd, -1, 2, "lm_dw", d->d, bs, d->vc, 1, c->out, L_LMIN, dlg, L_LMW, *de);
	return dy;
}

static void backward(struct builder *bd, struct resident *r, struct chain *c, int dy, int de)
{
	const struct tg_dims *d = bd->dm;
	struct weights w, wn;
	struct tg_op *o;
	int deo = -1, dy0 = -1;

	layer_weights(bd, r, (int)d->layers - 1, DLASIM_TIER_BACKWARD, &w);
	for (int l = (int)d->layers - 1; l >= 0 && !bd->failed; l--) {
		struct acts rec, *a = &c->a[l];

		wn = w;
		if (l > 0)
			layer_weights(bd, r, l - 1, DLASIM_TIER_BACKWARD, &wn);
		if (recomputed(d, l)) {
			rec.x = layer_input(bd, c, l);
			layer_forward(bd, l, DLASIM_TIER_RECOMPUTE, &w, &rec, c->eo, NULL);
			a = &rec;
		}
		dy = layer_backward(bd, l, &w, a, dy, c->eo, &deo, &r->grad[l]);
		if (l == d->enc_layers && l > 0) {
			dy0 = dy;	/* the decoder's input embedding */
			dy = deo;	/* the encoder's output */
		}
		w = wn;
	}
	/* Embedding gradient: scatter-add into dE, then reduce it. */
	o = OP(bd, -1, 2, "embed_dw");
	if (o && !bd->failed) {
		op_read(o, dy, L_LMIN, TG_ONCE, 1);
		if (dy0 >= 0)
			op_read(o, dy0, L_LMIN, TG_ONCE, 1);
		op_read(o, de, L_LMW, TG_ONCE, fmin(1, d->b * d->s / d->vc));
	}
	r->de = reduce_grads(bd, -1, &de, 1, d->vc * d->d, "reduce_de");
}

/*
 * Per chip: load the state, forward, head, backward (recomputing the
 * first d->recomputed layers from checkpoints), update (docs/tier.md).
 */
static void build(struct builder *bd)
{
	const struct tg_dims *d = bd->dm;
	size_t L = (size_t)d->layers;
	struct resident r = { 0 };
	struct chain c = { 0 };
	int dy = -1, de = -1;	/* set by head() unless it failed */

	r.w = calloc(L, sizeof(*r.w));
	r.shard = calloc(L, sizeof(int));
	r.grad = calloc(L, sizeof(int));
	c.in = calloc(L, sizeof(int));
	c.ckpt = calloc(L, sizeof(int));
	c.a = calloc(L, sizeof(*c.a));
	c.eo = -1;
	if (!r.w || !r.shard || !r.grad || !c.in || !c.ckpt || !c.a) {
		bd->failed = true;
		goto out;
	}
	load_state(bd, &r);
	if (!bd->failed)
		forward(bd, &r, &c);
	if (!bd->failed)
		dy = head(bd, &r, &c, &de);
	if (!bd->failed)
		backward(bd, &r, &c, dy, de);
	if (!bd->failed)
		update_state(bd, &r);
out:
	free(r.w);
	free(r.shard);
	free(r.grad);
	free(c.in);
	free(c.ckpt);
	free(c.a);
}

int tg_build(struct tier_graph *g)
{
	struct builder bd = { .g = g, .dm = &g->dims };

	build(&bd);
	return bd.failed ? -1 : 0;
}
