/* SPDX-License-Identifier: MIT */
/* Device-node roofline (docs/model.md, "Device-node"). */
#include "device.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"

/* Table II of the memory-centric paper. */
#define TABLE2_PES 1024
#define TABLE2_MACS_PER_PE 125
#define TABLE2_FREQ_HZ 1e9
#define TABLE2_SRAM_BYTES (32 * 1024)
#define TABLE2_HBM_BPS 900e9
#define TABLE2_HBM_LATENCY_CYCLES 100

void mc_device_defaults(struct mc_device *d)
{
	d->model = DL_DEV_PE_ARRAY;
	d->elem_bytes = MC_ELEM_BYTES;
	d->peak_macs = 0;
	d->pes = TABLE2_PES;
	d->macs_per_pe = TABLE2_MACS_PER_PE;
	d->freq_hz = TABLE2_FREQ_HZ;
	d->sram_bytes = TABLE2_SRAM_BYTES;
	d->hbm_Bps = TABLE2_HBM_BPS;
	d->hbm_latency_s = TABLE2_HBM_LATENCY_CYCLES / TABLE2_FREQ_HZ;
	d->efficiency = 1.0;
}

int mc_device_from_desc(struct mc_device *d, const struct dl_devdesc *x, enum dl_dtype t,
			const char *where)
{
	if (!dl_devdesc_has(x, t))
		return dl_err("%s: device '%s': dlasim.device.peak.%s: missing (the workload computes in %s)",
			      where, x->name, dl_dtype_name(t), dl_dtype_name(t));
	*d = (struct mc_device){
		.model = x->model, .elem_bytes = dl_dtype_bytes(t), .peak_macs = x->peak[t] / 2,
		.hbm_Bps = x->hbm_Bps, .hbm_latency_s = x->hbm_latency_s,
		.efficiency = x->efficiency, .desc = *x, .dtype = t,
	};
	if (x->model != DL_DEV_PE_ARRAY)
		return 0;
	d->pes = x->pes;
	d->macs_per_pe = x->macs_per_pe;
	d->freq_hz = x->peak[t] / (2 * x->pes * x->macs_per_pe);
	d->sram_bytes = x->sram_bytes / x->pes;
	return 0;
}

int mc_device_named(struct mc_device *d, const char *name, enum dl_dtype t)
{
	struct dl_devdesc x;
	struct dl_props props;
	char *path;
	int ret;

	if (dl_devfile_read(name, &props, &path, &x))
		return -1;
	ret = mc_device_from_desc(d, &x, t, path);
	free(path);
	dl_devfile_free(&props);
	return ret;
}

int mc_device_for_run(struct mc_device *d, const struct dl_platform *p, const char *name,
		      enum dl_dtype t, char *label, size_t len)
{
	struct dl_devdesc x;

	if (name) {
		snprintf(label, len, "%s", name);
		return mc_device_named(d, name, t);
	}
	if (dl_devdesc_of_platform(p, &x))
		return -1;
	snprintf(label, len, "%s", x.name);
	return mc_device_from_desc(d, &x, t, p->file);
}

double mc_device_peak(const struct mc_device *d)
{
	if (d->model == DL_DEV_ROOFLINE)
		return d->peak_macs * d->efficiency;
	return d->pes * d->macs_per_pe * d->freq_hz * d->efficiency;
}

/*
 * A mapping of a GEMM onto the PE array: ks groups of a pr x pc grid of
 * PEs, each PE holding an mt x nt tile of outputs.  The A rows of a grid
 * row and the B columns of a grid column are read from HBM once and
 * multicast to the PEs that share them, so the array computes blocks of
 * (pr mt) x (pc nt) outputs.  With ks > 1 each group accumulates the block
 * over its slice of the reduction (split-K) and the groups' tiles are
 * summed on chip before the block is written.
 */
struct mapping {
	double pr, pc, ks, mt, nt;
};

/* Along one axis: source pixels under r consecutive destination pixels. */
static double span(double r, double step, double win, double src)
{
	return fmin(src, (r - 1) * step + win);
}

double mc_window_pixels(const struct mc_window *w, double r)
{
	double per_sample = w->dst_h * w->dst_w;

	if (r >= per_sample)		/* whole samples */
		return r / per_sample * w->src_h * w->src_w;
	if (r >= w->dst_w)		/* whole rows */
		return span(ceil(r / w->dst_w), w->step, w->win, w->src_h) *
		       span(w->dst_w, w->step, w->win, w->src_w);
	return span(1, w->step, w->win, w->src_h) * span(r, w->step, w->win, w->src_w);
}

/*
 * Fraction of an operand's im2col entries that HBM delivers: A's block
 * rows (r destination pixels) read their windows once; B's reduction
 * slides over every destination pixel, each block column reading the
 * source channels it covers once (a column of fewer than `taps` entries
 * covers part of one channel, whose map it still reads whole).
 */
static double reuse_a(const struct mc_gemm *g, double r)
{
	return fmin(1, mc_window_pixels(&g->win, r) / (r * g->win.taps));
}

static double reuse_b(const struct mc_gemm *g, double cols)
{
	return fmin(1, mc_window_pixels(&g->win, g->k) / (g->k * fmin(g->win.taps, cols)));
}

static double map_bytes(const struct mc_device *d, const struct mapping *x,
			const struct mc_gemm *g)
{
	double fa = g->expand == MC_EXPAND_A ? reuse_a(g, x->pr * x->mt) : 1;
	double fb = g->expand == MC_EXPAND_B ? reuse_b(g, x->pc * x->nt) : 1;
	double E = d->elem_bytes;

	/* A is read once per block column, B once per block row, C written once. */
	return E * (ceil(g->n / (x->pc * x->nt)) * g->m * g->k * fa +
				ceil(g->m / (x->pr * x->mt)) * g->n * g->k * fb + g->m * g->n);
}

static double map_cycles(const struct mc_device *d, const struct mapping *x,
			 const struct mc_gemm *g)
{
	double blocks = ceil(g->m / (x->pr * x->mt)) * ceil(g->n / (x->pc * x->nt));
	double per_step = ceil(x->mt * x->nt / d->macs_per_pe);

	/* A PE's MAC lanes each own an output of its tile for its K/ks
	 * steps; split-K adds log2(ks) steps of the adder tree. */
	return blocks * per_step * (ceil(g->k / x->ks) + log2(x->ks));
}

static double map_time(const struct mc_device *d, const struct mapping *x,
		       const struct mc_gemm *g)
{
	double compute = map_cycles(d, x, g) / (d->freq_hz * d->efficiency);

	return fmax(compute, map_bytes(d, x, g) / d->hbm_Bps);
}

/*
 * Largest nt that fits beside mt rows: the tile of outputs and two
 * buffers (double-buffered) of operands, one column of A and one row of
 * B per reduction step:  E mt nt + 2 E (a + nt) <= S, with a = mt, or,
 * when A is a window view, the window of the PE's mt pixels, which it
 * keeps for the taps of one channel.
 */
static double fit_nt(const struct mc_device *d, const struct mc_gemm *g, double mt)
{
	double a = g->expand == MC_EXPAND_A ? mc_window_pixels(&g->win, mt) : mt;

	return floor((d->sram_bytes / d->elem_bytes - 2 * a) / (mt + 2));
}

/* The fastest tile height for a grid of pr x pc PEs in ks groups. */
static void best_tile(const struct mc_device *d, const struct mc_gemm *g, double pr,
		      double pc, double ks, struct mapping *best, double *best_t)
{
	double tmax = d->sram_bytes / d->elem_bytes;

	for (double base = 1; base <= tmax; base *= 2) {
		for (int h = 0; h < 2; h++) {
			struct mapping x = { pr, pc, ks, base * (h ? 1.5 : 1), 0 };
			double t;

			if (x.mt != floor(x.mt) || (x.nt = fit_nt(d, g, x.mt)) < 1)
				continue;
			x.mt = fmin(x.mt, ceil(g->m / pr));
			x.nt = fmin(x.nt, ceil(g->n / pc));
			t = map_time(d, &x, g);
			if (t < *best_t) {
				*best_t = t;
				*best = x;
			}
		}
	}
}

/*
 * The mapping a compiler would pick: the fastest over grid shapes and
 * reduction splits (power-of-two divisions of the array) and tile heights
 * (powers of two and their 1.5 multiples), each tile as wide as the SRAM
 * allows and no larger than the matrix needs.
 */
static void best_mapping(const struct mc_device *d, const struct mc_gemm *g,
			 struct mapping *best)
{
	double best_t = INFINITY;

	*best = (struct mapping){ 1, d->pes, 1, 1, 1 };
	for (double ks = 1; ks <= d->pes && ks <= g->k; ks *= 2)
		for (double pr = 1; pr * ks <= d->pes; pr *= 2)
			best_tile(d, g, pr, floor(d->pes / (pr * ks)), ks, best, &best_t);
}

/*
 * The roofline's traffic: each operand crosses HBM once (a window view
 * reads its source map once), the output is written once.
 */
static double roofline_bytes(const struct mc_device *d, const struct mc_gemm *g)
{
	double fa = g->expand == MC_EXPAND_A ? reuse_a(g, g->m) : 1;
	double fb = g->expand == MC_EXPAND_B ? reuse_b(g, g->n) : 1;

	return d->elem_bytes * (g->m * g->k * fa + g->k * g->n * fb + g->m * g->n);
}

double mc_gemm_op_bytes(const struct mc_device *d, const struct mc_gemm *g)
{
	struct mapping x;

	if (d->model == DL_DEV_ROOFLINE)
		return roofline_bytes(d, g);
	best_mapping(d, g, &x);
	return map_bytes(d, &x, g);
}

double mc_gemm_op_time(const struct mc_device *d, const struct mc_gemm *g)
{
	struct mapping x;

	if (g->m <= 0 || g->n <= 0 || g->k <= 0)
		return 0;
	if (d->model == DL_DEV_ROOFLINE)
		return mc_stream_time(d, g->m * g->n * g->k, roofline_bytes(d, g));
	best_mapping(d, g, &x);
	return map_time(d, &x, g) + d->hbm_latency_s;
}

double mc_gemm_bytes(const struct mc_device *d, double m, double n, double k)
{
	return mc_gemm_op_bytes(d, &(struct mc_gemm){ .m = m, .n = n, .k = k });
}

double mc_gemm_time(const struct mc_device *d, double m, double n, double k)
{
	return mc_gemm_op_time(d, &(struct mc_gemm){ .m = m, .n = n, .k = k });
}

double mc_stream_time(const struct mc_device *d, double ops, double bytes)
{
	if (d->model == DL_DEV_ROOFLINE)
		return dl_devdesc_roofline_s(&d->desc, d->dtype, 2 * ops, bytes);
	if (ops <= 0 && bytes <= 0)
		return 0;
	return fmax(ops / mc_device_peak(d), bytes / d->hbm_Bps) + d->hbm_latency_s;
}

/*
 * The three passes of a convolution as GEMMs over sliding windows: forward
 * over the output pixels (windows of k x k input pixels, stride s);
 * backward data over the input pixels (windows of ceil(k/s) output
 * gradients, moving 1/s per pixel); weight gradient reducing over the
 * output pixels (the forward's windows, along the reduction).
 */
static void conv_times(const struct mc_device *d, const struct mc_workload *w,
		       const struct mc_layer *l, double b, int split, struct mc_layer_time *t)
{
	const struct mc_layer *x = &w->layer[l->in[0]];
	double groups = l->groups, k2 = (double)l->kernel * l->kernel;
	double cin = x->c / groups, cout = l->c / groups / split;
	double pix = (double)l->h * l->w, inpix = (double)x->h * x->w;
	double m = b * pix, kf = cin * k2, taps_dx = pix * k2 / inpix;
	struct mc_window fwd = { l->h, l->w, x->h, x->w, l->kernel, l->stride, k2 };
	struct mc_window dx = { x->h, x->w, l->h, l->w, ceil((double)l->kernel / l->stride),
				1.0 / l->stride, taps_dx };

	t->fwd_s = groups * mc_gemm_op_time(d, &(struct mc_gemm){ m, cout, kf, MC_EXPAND_A, fwd });
	/* dX = dY W^T: one MAC per forward MAC, over the input pixels; the
	 * network input needs no gradient. */
	if (x->kind != MC_INPUT)
		t->bwd_data_s = groups * mc_gemm_op_time(d, &(struct mc_gemm){
			b * inpix, cin, cout * taps_dx, MC_EXPAND_A, dx });
	/* dW = X^T dY, summed over the batch and output pixels. */
	t->bwd_weight_s = groups * mc_gemm_op_time(d, &(struct mc_gemm){ cout, kf, m, MC_EXPAND_B, fwd });
}

static void fc_times(const struct mc_device *d, const struct mc_workload *w,
		     const struct mc_layer *l, double b, int split, struct mc_layer_time *t)
{
	const struct mc_layer *x = &w->layer[l->in[0]];
	double in = (double)x->c * x->h * x->w, out = l->c / split;

	t->fwd_s = mc_gemm_time(d, b, out, in);
	if (x->kind != MC_INPUT)
		t->bwd_data_s = mc_gemm_time(d, b, in, out);
	t->bwd_weight_s = mc_gemm_time(d, out, in, b);
}

static void recurrent_times(const struct mc_device *d, const struct mc_layer *l, double b,
			    int split, struct mc_layer_time *t)
{
	double gh = (double)mc_layer_gates(l) * l->c / split, k = (double)l->features + l->c;

	t->fwd_s = mc_gemm_time(d, b, gh, k);
	t->bwd_data_s = mc_gemm_time(d, b, k, gh);
	/* Weight gradients of all steps in one GEMM after backward through
	 * time, as cuDNN's backward-weights call does. */
	t->bwd_weight_s = mc_gemm_time(d, gh, k, b * l->steps);
}

void mc_layer_times(const struct mc_device *d, const struct mc_workload *w,
		    const struct mc_layer *l, double batch, int split,
		    struct mc_layer_time *t)
{
	double in = batch * l->in_elems / split, out = batch * l->out_elems / split;
	double ops = batch * l->macs / split;

	t->fwd_s = t->bwd_data_s = t->bwd_weight_s = 0;
	switch (l->kind) {
	case MC_INPUT:
		return;
	case MC_CONV:
		conv_times(d, w, l, batch, split, t);
		return;
	case MC_FC:
		fc_times(d, w, l, batch, split, t);
		return;
	case MC_RNN:
	case MC_LSTM:
	case MC_GRU:
		recurrent_times(d, l, batch, split, t);
		return;
	default:
		/* Read X, write Y; backward reads dY and X, writes dX. */
		t->fwd_s = mc_stream_time(d, ops, d->elem_bytes * (in + out));
		t->bwd_data_s = mc_stream_time(d, ops, d->elem_bytes * (2 * in + out));
		return;
	}
}
