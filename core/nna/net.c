/* SPDX-License-Identifier: MIT */
/* A .dnn workload fused into the NNA's compute layers (docs/nna.md). */
#include "net.h"

#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "workload/workload.h"

/* While fusing: what a workload layer's output is. */
struct origin {
	int carrier;		/* compute layer whose fused chain ends here, or -1 */
	int tensor;		/* tensor it denotes once stored, or -1 */
	int consumers;		/* workload layers reading it */
};

struct fuser {
	struct nna_net *net;
	const struct mc_workload *w;
	struct origin *o;
	int *end;		/* per compute layer: workload layer ending its chain */
};

enum nna_class nna_class_of(int channels)
{
	return channels <= 32 ? NNA_NARROW : channels <= 64 ? NNA_MEDIUM :
	       channels <= 128 ? NNA_WIDE : NNA_WIDER;
}

const char *nna_class_name(enum nna_class c)
{
	static const char *const names[NNA_CLASSES] = { "narrow", "medium", "wide", "wider" };

	return c < NNA_CLASSES ? names[c] : "?";
}

static int wl_err(const struct fuser *f, const struct mc_layer *l, const char *what)
{
	return dl_err("%s:%d: %s '%s': %s", f->net->file, l->line, mc_layer_kind_name(l->kind),
		      l->name, what);
}

static int new_tensor(struct fuser *f, const struct mc_layer *l, int producer)
{
	struct nna_tensor *t = &f->net->tensor[f->net->ntensors];

	*t = (struct nna_tensor){ (int)l->h, (int)l->w, (int)l->c, producer, -1, l->name };
	return f->net->ntensors++;
}

/* The tensor workload layer j denotes, as a compute layer reads it. */
static int stored(struct fuser *f, int j)
{
	struct origin *o = &f->o[j];

	if (o->tensor < 0 && o->carrier >= 0) {
		o->tensor = new_tensor(f, &f->w->layer[j], o->carrier);
		f->net->layer[o->carrier].out = o->tensor;
	}
	return o->tensor;
}

static int add_compute(struct fuser *f, int i)
{
	const struct mc_layer *l = &f->w->layer[i], *x = &f->w->layer[l->in[0]];
	struct nna_layer *n = &f->net->layer[f->net->nlayers];

	*n = (struct nna_layer){ .name = l->name, .line = l->line, .skip = -1, .out = -1,
				 .H = (int)x->h, .W = (int)x->w, .C = (int)x->c, .K = (int)l->c,
				 .R = 1, .S = 1, .stride = 1, .P = 1, .Q = 1 };
	n->in = stored(f, l->in[0]);
	if (l->kind == MC_FC) {
		n->kind = DLASIM_DF_FC;
		n->C = (int)(x->c * x->h * x->w);
		n->H = n->W = 1;
	} else {
		if (l->groups > 1 && !(l->groups == x->c && l->groups == l->c))
			return wl_err(f, l, "grouped convolutions are not modelled: use groups=1 or depthwise (groups = input = output channels)");
		n->kind = l->groups > 1 ? DLASIM_DF_DEPTHWISE : DLASIM_DF_CONV;
		n->R = (int)l->kernel;
		n->S = (int)l->kernel_w;
		n->stride = (int)l->stride;
		n->pad = (int)l->pad;
		n->P = (int)l->h;
		n->Q = (int)l->w;
	}
	n->cls = nna_class_of(n->C);
	f->o[i].carrier = f->net->nlayers;
	f->end[f->net->nlayers] = i;
	f->net->nlayers++;
	return 0;
}

/* Can layer i extend the fused chain ending at workload layer j? */
static bool extends(const struct fuser *f, int j)
{
	const struct origin *o = &f->o[j];

	return o->carrier >= 0 && o->tensor < 0 && f->end[o->carrier] == j && o->consumers == 1;
}

static int fuse_unary(struct fuser *f, int i)
{
	const struct mc_layer *l = &f->w->layer[i];
	int j = l->in[0], c = f->o[j].carrier;
	struct nna_layer *n;

	if (!extends(f, j))
		return wl_err(f, l, f->o[j].carrier < 0 ?
			      "nothing to fuse it into: it must follow a conv or fc layer" :
			      "cannot be fused: the layer before it has other readers");
	n = &f->net->layer[c];
	if (l->kind == MC_POOL) {
		if (n->npools == NNA_MAX_POOLS)
			return wl_err(f, l, "too many pools fused into one layer");
		n->pool[n->npools++] = (struct nna_pool){ (int)l->kernel, (int)l->stride, (int)l->pad,
							  (int)l->kernel_w, (int)l->stride_w,
							  (int)l->pad_w };
	}
	f->o[i].carrier = c;
	f->end[c] = i;
	return 0;
}

/* A residual add: fused into the later of its operands' layers, which
 * reads the other operand (a stored tensor) as its skip input. */
static int fuse_add(struct fuser *f, int i)
{
	const struct mc_layer *l = &f->w->layer[i];
	int a, b, c;

	if (l->nin != 2)
		return wl_err(f, l, "only adds of two operands are modelled");
	a = l->in[0];
	b = l->in[1];
	if (!extends(f, a) || (extends(f, b) && f->o[b].carrier > f->o[a].carrier)) {
		int t = a;

		a = b;
		b = t;
	}
	if (!extends(f, a))
		return wl_err(f, l, "neither operand ends a conv layer's fused chain");
	c = f->o[a].carrier;
	f->net->layer[c].skip = stored(f, b);
	if (f->net->layer[c].skip < 0)
		return wl_err(f, l, "its other operand is not a stored tensor");
	f->o[i].carrier = c;
	f->end[c] = i;
	return 0;
}

static int fuse_layer(struct fuser *f, int i)
{
	const struct mc_layer *l = &f->w->layer[i];

	switch (l->kind) {
	case MC_INPUT:
		if (l->steps > 1)
			return wl_err(f, l, "sequences are not modelled: the input must be an image");
		f->o[i].tensor = new_tensor(f, l, -1);
		return 0;
	case MC_CONV:
	case MC_GEMM:		/* a 1 x 1 convolution over its positions */
	case MC_FC:
		return add_compute(f, i);
	case MC_RELU:
	case MC_BN:
	case MC_LRN:
	case MC_POOL:
		return fuse_unary(f, i);
	case MC_ADD:
		return fuse_add(f, i);
	default:
		return wl_err(f, l, "this layer type is not modelled by the NNA (conv, gemm, fc, relu, bn, lrn, pool, add are)");
	}
}

/* Shapes of the stored outputs and who reads what last. */
static void finish(struct fuser *f)
{
	struct nna_net *net = f->net;

	for (int i = 0; i < f->w->nlayers; i++)
		if (f->o[i].consumers == 0)
			stored(f, i);
	for (int c = 0; c < net->nlayers; c++) {
		struct nna_layer *n = &net->layer[c];
		struct nna_tensor *t = &net->tensor[n->out];

		t->H = nna_pooled_rows(n);
		t->W = nna_pooled_cols(n);
		t->C = n->K;
		net->tensor[n->in].last_reader = c;
		if (n->skip >= 0)
			net->tensor[n->skip].last_reader = c;
	}
}

static int fuse(struct nna_net *net, const struct mc_workload *w)
{
	struct fuser f = { .net = net, .w = w };
	int ret = -1;

	f.o = calloc((size_t)w->nlayers, sizeof(*f.o));
	f.end = calloc((size_t)w->nlayers, sizeof(*f.end));
	net->layer = calloc((size_t)w->nlayers, sizeof(*net->layer));
	net->tensor = calloc((size_t)w->nlayers, sizeof(*net->tensor));
	if (!f.o || !f.end || !net->layer || !net->tensor) {
		dl_err("out of memory");
		goto out;
	}
	for (int i = 0; i < w->nlayers; i++) {
		f.o[i] = (struct origin){ -1, -1, 0 };
		for (int k = 0; k < w->layer[i].nin; k++)
			f.o[w->layer[i].in[k]].consumers++;
	}
	for (int i = 0; i < w->nlayers; i++)
		if (fuse_layer(&f, i))
			goto out;
	if (net->nlayers == 0) {
		dl_err("%s: no conv or fc layer: nothing for the NNA to run", net->file);
		goto out;
	}
	for (int i = 0; i < w->nlayers; i++) {
		if (w->layer[i].kind == MC_INPUT && f.o[i].consumers == 0) {
			dl_err("%s:%d: input '%s' is read by no layer", net->file, w->layer[i].line,
			       w->layer[i].name);
			goto out;
		}
	}
	finish(&f);
	ret = 0;
out:
	free(f.o);
	free(f.end);
	return ret;
}

int nna_net_read(struct nna_net *net, const char *file)
{
	memset(net, 0, sizeof(*net));
	if (mc_workload_read(&net->w, file))
		return -1;
	net->file = net->w->file;
	net->name = net->w->name;
	if (fuse(net, net->w)) {
		nna_net_free(net);
		return -1;
	}
	return 0;
}

void nna_net_free(struct nna_net *net)
{
	free(net->layer);
	free(net->tensor);
	mc_workload_free(net->w);
	memset(net, 0, sizeof(*net));
}

/* Out of a pool on `in` rows or columns (the reader's sliding window rule). */
static int pool_out(int in, int kernel, int stride, int pad)
{
	return (in + 2 * pad - kernel) / stride + 1;
}

int nna_pooled_rows(const struct nna_layer *l)
{
	int rows = l->P;

	for (int i = 0; i < l->npools; i++)
		rows = pool_out(rows, l->pool[i].kernel, l->pool[i].stride, l->pool[i].pad);
	return rows;
}

int nna_pooled_cols(const struct nna_layer *l)
{
	int cols = l->Q;

	for (int i = 0; i < l->npools; i++)
		cols = pool_out(cols, l->pool[i].kernel_w, l->pool[i].stride_w, l->pool[i].pad_w);
	return cols;
}

int nna_last_conv_row(const struct nna_layer *l, int j)
{
	int rows[NNA_MAX_POOLS + 1];

	rows[0] = l->P;
	for (int i = 0; i < l->npools; i++)
		rows[i + 1] = pool_out(rows[i], l->pool[i].kernel, l->pool[i].stride, l->pool[i].pad);
	for (int i = l->npools - 1; i >= 0; i--) {
		const struct nna_pool *p = &l->pool[i];
		int last = j * p->stride - p->pad + p->kernel - 1;

		j = last < rows[i] - 1 ? last : rows[i] - 1;
	}
	return j;
}
