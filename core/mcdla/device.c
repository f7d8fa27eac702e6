/* SPDX-License-Identifier: MIT */
/* Device-node roofline (docs/model.md, "Device-node"). */
#include "device.h"

#include <math.h>

/* Table II of the memory-centric paper. */
#define TABLE2_PES 1024
#define TABLE2_MACS_PER_PE 125
#define TABLE2_FREQ_HZ 1e9
#define TABLE2_SRAM_BYTES (32 * 1024)
#define TABLE2_HBM_BPS 900e9
#define TABLE2_HBM_LATENCY_CYCLES 100

void mc_device_defaults(struct mc_device *d)
{
	d->pes = TABLE2_PES;
	d->macs_per_pe = TABLE2_MACS_PER_PE;
	d->freq_hz = TABLE2_FREQ_HZ;
	d->sram_bytes = TABLE2_SRAM_BYTES;
	d->hbm_Bps = TABLE2_HBM_BPS;
	d->hbm_latency_s = TABLE2_HBM_LATENCY_CYCLES / TABLE2_FREQ_HZ;
	d->efficiency = 1.0;
}

double mc_device_peak(const struct mc_device *d)
{
	return d->pes * d->macs_per_pe * d->freq_hz * d->efficiency;
}

/*
 * Largest t with a t x t output tile plus two double-buffered operand
 * slabs (a column of A and a row of B, t elements each) in one PE's SRAM:
 * E*t^2 + 4*E*t <= S.
 */
double mc_pe_tile(const struct mc_device *d)
{
	double e = MC_ELEM_BYTES, s = d->sram_bytes;

	return floor((-4 * e + sqrt(16 * e * e + 4 * e * s)) / (2 * e));
}

/* Tile of one PE: as square as the matrix allows, small enough that every
 * PE gets one when there are few outputs. */
static void pe_tile(const struct mc_device *d, double m, double n, double *mt, double *nt)
{
	double side = fmin(mc_pe_tile(d), ceil(sqrt(m * n / d->pes)));

	if (side < 1)
		side = 1;
	*mt = fmin(m, side);
	*nt = fmin(n, ceil(side * side / *mt));
}

double mc_gemm_bytes(const struct mc_device *d, double m, double n, double k)
{
	double mt, nt;

	pe_tile(d, m, n, &mt, &nt);
	/* Each PE tile streams its rows of A and columns of B once; C is
	 * written once. */
	return MC_ELEM_BYTES * (ceil(m / mt) * ceil(n / nt) * k * (mt + nt) + m * n);
}

double mc_gemm_time(const struct mc_device *d, double m, double n, double k)
{
	double mt, nt, tiles, rounds, cycles, compute, memory;

	if (m <= 0 || n <= 0 || k <= 0)
		return 0;
	pe_tile(d, m, n, &mt, &nt);
	tiles = ceil(m / mt) * ceil(n / nt);
	rounds = ceil(tiles / d->pes);
	/* A PE's MAC lanes each own an output of its tile for K cycles. */
	cycles = rounds * ceil(mt * nt / d->macs_per_pe) * k;
	compute = cycles / (d->freq_hz * d->efficiency);
	memory = mc_gemm_bytes(d, m, n, k) / d->hbm_Bps;
	return fmax(compute, memory) + d->hbm_latency_s;
}

double mc_stream_time(const struct mc_device *d, double ops, double bytes)
{
	if (ops <= 0 && bytes <= 0)
		return 0;
	return fmax(ops / mc_device_peak(d), bytes / d->hbm_Bps) + d->hbm_latency_s;
}

static void conv_fc_times(const struct mc_device *d, const struct mc_workload *w,
			  const struct mc_layer *l, double b, int split, struct mc_layer_time *t)
{
	const struct mc_layer *x = &w->layer[l->in[0]];
	double groups = l->kind == MC_CONV ? l->groups : 1;
	double k2 = l->kind == MC_CONV ? (double)l->kernel * l->kernel : 1;
	double cin = l->kind == MC_CONV ? x->c / groups : x->c * x->h * x->w;
	double cout = l->c / groups / split;
	double pix = l->kind == MC_CONV ? (double)l->h * l->w : 1;
	double inpix = l->kind == MC_CONV ? (double)x->h * x->w : 1;
	double m = b * pix, kf = cin * k2;

	t->fwd_s = groups * mc_gemm_time(d, m, cout, kf);
	/* dX = dY W^T: one MAC per forward MAC, over the input pixels; the
	 * network input needs no gradient. */
	if (x->kind != MC_INPUT)
		t->bwd_data_s = groups * mc_gemm_time(d, b * inpix, cin, m * cout * kf / (b * inpix * cin));
	/* dW = X^T dY, summed over the batch and output pixels. */
	t->bwd_weight_s = groups * mc_gemm_time(d, cout, kf, m);
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
	case MC_FC:
		conv_fc_times(d, w, l, batch, split, t);
		return;
	case MC_RNN:
	case MC_LSTM:
	case MC_GRU:
		recurrent_times(d, l, batch, split, t);
		return;
	default:
		/* Read X, write Y; backward reads dY and X, writes dX. */
		t->fwd_s = mc_stream_time(d, ops, MC_ELEM_BYTES * (in + out));
		t->bwd_data_s = mc_stream_time(d, ops, MC_ELEM_BYTES * (2 * in + out));
		return;
	}
}
