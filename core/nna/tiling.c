/* SPDX-License-Identifier: MIT */
/* Layer tiling, tensor layout and the DTiles (docs/nna.md, "Tiles"). */
#include "tiling.h"

#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"

/* Partial sums are accumulated in 32 bits (docs/nna.md). */
#define ACC_BYTES 4

static int ceil_div(long a, long b)
{
	return (int)((a + b - 1) / b);
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

/* Channels in group g of a tensor of c channels. */
static int group_width(const struct nna_tiles *x, int c, int g)
{
	return min_int(x->a.size, c - g * x->a.size);
}

long nna_blocks(const struct nna_tiles *x, long bytes)
{
	return (bytes + x->a.block_bytes - 1) / x->a.block_bytes;
}

long nna_piece_blocks(const struct nna_tiles *x, const struct nna_piece *p)
{
	long b = x->a.block_bytes;

	return p->bytes ? (p->offset + p->bytes + b - 1) / b - p->offset / b : 0;
}

void nna_dtile_describe(const struct nna_tiles *x, long d, struct dlasim_dtile *t)
{
	const struct nna_dtile *dt = &x->d[d];

	*t = (struct dlasim_dtile){ sizeof(*t), d, dt->kind, dt->layer, (double)dt->bytes,
				    nna_blocks(x, dt->bytes),
				    (int)((dt->bytes + x->a.row_bytes - 1) / x->a.row_bytes),
				    dt->kind != DLASIM_DTILE_FMAP };
}

void nna_band_rows(const struct nna_tiles *x, int layer, int y, int *p0, int *p1)
{
	const struct nna_layer *l = &x->net->layer[layer];
	int pb = x->t[layer].band_rows;

	*p0 = y * pb;
	*p1 = min_int(l->P, (y + 1) * pb);
}

static void input_rows(const struct nna_layer *l, int p0, int p1, int *r0, int *r1)
{
	*r0 = p0 * l->stride - l->pad;
	*r1 = (p1 - 1) * l->stride - l->pad + l->R;
	if (*r0 < 0)
		*r0 = 0;
	if (*r1 > l->H)
		*r1 = l->H;
}

void nna_band_input_rows(const struct nna_tiles *x, int layer, int y, int *r0, int *r1)
{
	int p0, p1;

	nna_band_rows(x, layer, y, &p0, &p1);
	input_rows(&x->net->layer[layer], p0, p1, r0, r1);
}

/* ---- tiling a layer ---- */

/* Scratchpad bytes a band of `pb` output rows needs, and what is left of
 * it for open partial-sum tiles (docs/nna.md, "Scratchpad"). */
static double spm_need(const struct nna_tiles *x, const struct nna_layer *l, int pb,
		       double *ifmap, double *budget)
{
	int t = x->a.size, e = x->a.elem_bytes;
	int rows = l->kind == DLASIM_DF_FC ? 1 : min_int(l->H, (pb - 1) * l->stride + l->R);
	double weight = (double)t * t * e, out = (double)pb * l->Q * t * e;

	*ifmap = (double)rows * l->W * min_int(t, l->C) * e;
	*budget = x->a.spm_bytes - 2 * *ifmap - 2 * weight - out;
	return *budget - (double)pb * l->Q * t * ACC_BYTES;
}

/*
 * The schedule holds every step and its weight tile, about 110 bytes a
 * step (VGG16 on a 4 x 4 array: 8.6 M steps, 0.9 GB); 2^24 steps keep a
 * run under 2 GB and admit every network of the study down to a 4 x 4
 * array.  A 1 x 1 array would ask VGG16 for 136 M steps and 14 GB.
 */
#define NNA_MAX_STEPS (1L << 24)

static int too_many_steps(const struct nna_tiles *x, const struct nna_layer *l, bool alone)
{
	return dl_err("%s:%d: %s '%s'%s needs more than %ld steps on a %d x %d array (the schedule is held in memory, about 110 bytes a step): use a larger --sa",
		      x->net->file, l->line, alone ? "layer" : "the network up to layer", l->name,
		      alone ? " alone" : "", NNA_MAX_STEPS, x->a.size, x->a.size);
}

static int tile_layer(struct nna_tiles *x, int i, long *next_dtile, long *total)
{
	const struct nna_layer *l = &x->net->layer[i];
	struct nna_tiling *t = &x->t[i];
	int size = x->a.size, pb = l->P, bands;
	long steps = 1;

	t->n[DLASIM_LOOP_K] = ceil_div(l->K, size);
	t->n[DLASIM_LOOP_F] = l->kind == DLASIM_DF_DEPTHWISE ? 1 : ceil_div(l->C, size);
	t->n[DLASIM_LOOP_R] = l->R;
	t->n[DLASIM_LOOP_S] = l->S;
	/* The fewest bands that fit; then bands of equal height. */
	for (bands = 1; bands <= l->P; bands++) {
		pb = ceil_div(l->P, bands);
		if (spm_need(x, l, pb, &t->ifmap_max_bytes, &t->budget_bytes) >= 0)
			break;
	}
	if (bands > l->P)
		return dl_err("%s:%d: layer '%s' does not fit the %.0f-byte scratchpad even one output row at a time",
			      x->net->file, l->line, l->name, x->a.spm_bytes);
	t->band_rows = pb;
	t->n[DLASIM_LOOP_Y] = ceil_div(l->P, pb);
	t->psum_bytes = (double)pb * l->Q * size * ACC_BYTES;
	for (int k = 0; k < DLASIM_LOOPS; k++)
		if (__builtin_mul_overflow(steps, t->n[k], &steps) || steps > NNA_MAX_STEPS)
			return too_many_steps(x, l, true);
	t->nsteps = (int)steps;
	*total += steps;
	if (*total > NNA_MAX_STEPS)
		return too_many_steps(x, l, false);
	t->wbase = *next_dtile;
	*next_dtile += (long)t->n[DLASIM_LOOP_K] * t->n[DLASIM_LOOP_R] * t->n[DLASIM_LOOP_S] *
		       t->n[DLASIM_LOOP_F];
	return 0;
}

/* ---- laying out a tensor ---- */

static int first_reader(const struct nna_net *net, int ti)
{
	for (int i = 0; i < net->nlayers; i++)
		if (net->layer[i].in == ti || net->layer[i].skip == ti)
			return i;
	return -1;
}

static int set_bands(struct nna_tiles *x, int ti)
{
	const struct nna_tensor *tn = &x->net->tensor[ti];
	struct nna_layout *lay = &x->lay[ti];
	int layer = tn->producer >= 0 ? tn->producer : first_reader(x->net, ti);
	const struct nna_layer *l = &x->net->layer[layer];
	bool flat = l->kind == DLASIM_DF_FC && tn->producer < 0;

	lay->nbands = flat ? 1 : x->t[layer].n[DLASIM_LOOP_Y];
	lay->band = calloc((size_t)lay->nbands + 1, sizeof(*lay->band));
	if (!lay->band)
		return dl_err("out of memory");
	for (int b = 1; b < lay->nbands; b++) {
		int p0, p1, r1;

		nna_band_rows(x, layer, b, &p0, &p1);
		if (tn->producer < 0) {
			/* An input: band b starts where reader's band b starts reading. */
			input_rows(l, p0, p1, &lay->band[b], &r1);
			continue;
		}
		/* An output: final row j belongs to the band holding the last conv
		 * row it depends on. */
		lay->band[b] = lay->band[b - 1];
		while (lay->band[b] < tn->H && nna_last_conv_row(l, lay->band[b]) < p0)
			lay->band[b]++;
	}
	lay->band[lay->nbands] = tn->H;
	return 0;
}

static void add_fmap_dtiles(struct nna_tiles *x, int ti)
{
	const struct nna_tensor *tn = &x->net->tensor[ti];
	const struct nna_layout *lay = &x->lay[ti];
	int e = x->a.elem_bytes;

	for (int g = 0; g < lay->groups; g++) {
		for (int b = 0; b < lay->nbands; b++) {
			struct nna_dtile *d = &x->d[lay->base + (long)g * lay->nbands + b];

			d->kind = tn->producer >= 0 ? DLASIM_DTILE_FMAP : DLASIM_DTILE_INPUT;
			d->layer = tn->producer >= 0 ? tn->producer : first_reader(x->net, ti);
			d->tensor = ti;
			d->bytes = (long)(lay->band[b + 1] - lay->band[b]) * tn->W *
				   group_width(x, tn->C, g) * e;
		}
	}
}

static void add_weight_dtiles(struct nna_tiles *x, int i)
{
	const struct nna_layer *l = &x->net->layer[i];
	const struct nna_tiling *t = &x->t[i];
	int at[DLASIM_LOOPS] = { 0 };

	for (at[0] = 0; at[0] < t->n[0]; at[0]++) {
		for (at[2] = 0; at[2] < t->n[2]; at[2]++) {
			for (at[3] = 0; at[3] < t->n[3]; at[3]++) {
				for (at[1] = 0; at[1] < t->n[1]; at[1]++) {
					struct nna_dtile *d = &x->d[nna_weight_dtile(x, i, at)];
					int cols = group_width(x, l->K, at[DLASIM_LOOP_K]);
					int rows = l->kind == DLASIM_DF_DEPTHWISE ? 1 :
						   group_width(x, l->C, at[DLASIM_LOOP_F]);

					*d = (struct nna_dtile){ DLASIM_DTILE_WEIGHT, i, -1,
								 (long)rows * cols * x->a.elem_bytes };
				}
			}
		}
	}
}

int nna_tiles_build(struct nna_tiles *x, const struct nna_net *net, const struct nna_array *a)
{
	long next = 0, steps = 0;

	memset(x, 0, sizeof(*x));
	x->net = net;
	x->a = *a;
	x->t = calloc((size_t)net->nlayers, sizeof(*x->t));
	x->lay = calloc((size_t)net->ntensors, sizeof(*x->lay));
	if (!x->t || !x->lay)
		goto oom;
	for (int i = 0; i < net->nlayers; i++)
		if (tile_layer(x, i, &next, &steps))
			goto fail;
	for (int ti = 0; ti < net->ntensors; ti++) {
		x->lay[ti].groups = ceil_div(net->tensor[ti].C, a->size);
		if (set_bands(x, ti))
			goto fail;
		x->lay[ti].base = next;
		next += (long)x->lay[ti].groups * x->lay[ti].nbands;
	}
	x->ndtiles = next;
	x->d = calloc((size_t)next, sizeof(*x->d));
	if (!x->d)
		goto oom;
	for (int i = 0; i < net->nlayers; i++)
		add_weight_dtiles(x, i);
	for (int ti = 0; ti < net->ntensors; ti++)
		add_fmap_dtiles(x, ti);
	return 0;
oom:
	dl_err("out of memory");
fail:
	nna_tiles_free(x);
	return -1;
}

void nna_tiles_free(struct nna_tiles *x)
{
	if (x->lay)
		for (int ti = 0; ti < x->net->ntensors; ti++)
			free(x->lay[ti].band);
	free(x->lay);
	free(x->t);
	free(x->d);
	memset(x, 0, sizeof(*x));
}

/* ---- steps to tiles ---- */

long nna_weight_dtile(const struct nna_tiles *x, int layer, const int at[DLASIM_LOOPS])
{
	const struct nna_tiling *t = &x->t[layer];

	return t->wbase + (((long)at[DLASIM_LOOP_K] * t->n[DLASIM_LOOP_R] + at[DLASIM_LOOP_R]) *
			   t->n[DLASIM_LOOP_S] + at[DLASIM_LOOP_S]) * t->n[DLASIM_LOOP_F] +
	       at[DLASIM_LOOP_F];
}

int nna_ifmap_group(const struct nna_tiles *x, int layer, const int at[DLASIM_LOOPS])
{
	return x->net->layer[layer].kind == DLASIM_DF_DEPTHWISE ? at[DLASIM_LOOP_K] :
	       at[DLASIM_LOOP_F];
}

int nna_ofmap_tile(const struct nna_tiles *x, int layer, int k, int y)
{
	return k * x->t[layer].n[DLASIM_LOOP_Y] + y;
}

long nna_ofmap_dtile(const struct nna_tiles *x, int layer, int k, int y)
{
	const struct nna_layout *lay = &x->lay[x->net->layer[layer].out];

	return lay->base + (long)k * lay->nbands + y;
}

/* ---- reads as pieces of DTiles ---- */

/* Rows [r0, r1) of channel group g of tensor ti. */
static long rows_pieces(const struct nna_tiles *x, int ti, int g, int r0, int r1,
			nna_piece_fn fn, void *arg)
{
	const struct nna_tensor *tn = &x->net->tensor[ti];
	const struct nna_layout *lay = &x->lay[ti];
	long row_bytes = (long)tn->W * group_width(x, tn->C, g) * x->a.elem_bytes, total = 0;

	for (int b = 0; b < lay->nbands; b++) {
		int a0 = lay->band[b] > r0 ? lay->band[b] : r0;
		int a1 = lay->band[b + 1] < r1 ? lay->band[b + 1] : r1;
		struct nna_piece p = { lay->base + (long)g * lay->nbands + b,
				       (a0 - lay->band[b]) * row_bytes, (a1 - a0) * row_bytes };

		if (a1 <= a0)
			continue;
		fn(&p, arg);
		total += p.bytes;
	}
	return total;
}

/* Features [i0, i1) of tensor ti flattened in NHWC order (a fully
 * connected layer's input). */
static long flat_pieces(const struct nna_tiles *x, int ti, long i0, long i1, nna_piece_fn fn,
			void *arg)
{
	const struct nna_tensor *tn = &x->net->tensor[ti];
	const struct nna_layout *lay = &x->lay[ti];
	int e = x->a.elem_bytes, size = x->a.size;
	struct nna_piece cur = { -1, 0, 0 };
	long total = 0;

	for (long i = i0; i < i1;) {
		long pix = i / tn->C;
		int c = (int)(i % tn->C), y = (int)(pix / tn->W), xc = (int)(pix % tn->W);
		int g = c / size, gw = group_width(x, tn->C, g), b = 0;
		long run = min_int(tn->C, (g + 1) * size) - c;
		struct nna_piece p;

		if (run > i1 - i)
			run = i1 - i;
		while (lay->band[b + 1] <= y)
			b++;
		p = (struct nna_piece){ lay->base + (long)g * lay->nbands + b,
					(((long)(y - lay->band[b]) * tn->W + xc) * gw + c - g * size) * e,
					run * e };
		if (cur.dtile == p.dtile && cur.offset + cur.bytes == p.offset) {
			cur.bytes += p.bytes;
		} else {
			if (cur.dtile >= 0)
				fn(&cur, arg);
			cur = p;
		}
		total += p.bytes;
		i += run;
	}
	if (cur.dtile >= 0)
		fn(&cur, arg);
	return total;
}

long nna_ifmap_pieces(const struct nna_tiles *x, int layer, int g, int y, nna_piece_fn fn,
		      void *arg)
{
	const struct nna_layer *l = &x->net->layer[layer];
	int r0, r1;

	if (l->kind == DLASIM_DF_FC)
		return flat_pieces(x, l->in, (long)g * x->a.size,
				   (long)g * x->a.size + group_width(x, l->C, g), fn, arg);
	nna_band_input_rows(x, layer, y, &r0, &r1);
	return rows_pieces(x, l->in, g, r0, r1, fn, arg);
}

long nna_skip_pieces(const struct nna_tiles *x, int layer, int k, int y, nna_piece_fn fn,
		     void *arg)
{
	const struct nna_layer *l = &x->net->layer[layer];
	const struct nna_layout *out = &x->lay[l->out];

	return rows_pieces(x, l->skip, k, out->band[y], out->band[y + 1], fn, arg);
}
