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
 * A mapping of a GEMM onto the PE array: a pr x pc grid of PEs, each
 * holding an mt x nt tile of outputs.  The A rows of a grid row and the B
 * columns of a grid column are read from HBM once and multicast to the
 * PEs that share them, so the array as a whole computes (pr mt) x (pc nt)
 * blocks of C.
 */
struct mapping {
	double pr, pc, mt, nt;
};

static double map_bytes(const struct mapping *x, double m, double n, double k)
{
	/* A is read once per block column, B once per block row, C written once. */
	return MC_ELEM_BYTES * (ceil(n / (x->pc * x->nt)) * m * k +
				ceil(m / (x->pr * x->mt)) * n * k + m * n);
}

static double map_cycles(const struct mc_device *d, const struct mapping *x,
			 double m, double n, double k)
{
	double blocks = ceil(m / (x->pr * x->mt)) * ceil(n / (x->pc * x->nt));

	/* A PE's MAC lanes each own an output of its tile for K cycles. */
	return blocks * ceil(x->mt * x->nt / d->macs_per_pe) * k;
}

static double map_time(const struct mc_device *d, const struct mapping *x,
		       double m, double n, double k)
{
	double compute = map_cycles(d, x, m, n, k) / (d->freq_hz * d->efficiency);

	return fmax(compute, map_bytes(x, m, n, k) / d->hbm_Bps);
}

/* Largest nt that fits beside mt rows: E mt nt + 2 E (mt + nt) <= S. */
static double fit_nt(const struct mc_device *d, double mt)
{
	return floor((d->sram_bytes / MC_ELEM_BYTES - 2 * mt) / (mt + 2));
}

/*
 * The mapping a compiler would pick: the fastest over grid shapes
 * (power-of-two splits of the array) and tile heights (powers of two and
 * their 1.5 multiples), each tile as wide as the SRAM allows and no
 * larger than the matrix needs.
 */
static void best_mapping(const struct mc_device *d, double m, double n, double k,
			 struct mapping *best)
{
	double best_t = INFINITY, tmax = d->sram_bytes / MC_ELEM_BYTES;

	for (double pr = 1; pr <= d->pes; pr *= 2) {
		double pc = floor(d->pes / pr);

		for (double base = 1; base <= tmax; base *= 2) {
			for (int h = 0; h < 2; h++) {
				struct mapping x = { pr, pc, base * (h ? 1.5 : 1), 0 };
				double t;

				if (x.mt != floor(x.mt) || (x.nt = fit_nt(d, x.mt)) < 1)
					continue;
				x.mt = fmin(x.mt, ceil(m / pr));
				x.nt = fmin(x.nt, ceil(n / pc));
				t = map_time(d, &x, m, n, k);
				if (t < best_t) {
					best_t = t;
					*best = x;
				}
			}
		}
	}
}

double mc_gemm_bytes(const struct mc_device *d, double m, double n, double k)
{
	struct mapping x;

	best_mapping(d, m, n, k, &x);
	return map_bytes(&x, m, n, k);
}

double mc_gemm_time(const struct mc_device *d, double m, double n, double k)
{
	struct mapping x;

	if (m <= 0 || n <= 0 || k <= 0)
		return 0;
	best_mapping(d, m, n, k, &x);
	return map_time(d, &x, m, n, k) + d->hbm_latency_s;
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
	double cin = l->kind == MC_CONV ? x->c / groups : (double)x->c * x->h * x->w;
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
