/* SPDX-License-Identifier: MIT */
/*
 * The device-node model (memory-centric paper, Table II; docs/model.md):
 * a spatial array of PEs with an output-stationary dataflow, each PE
 * holding a tile of outputs in its local SRAM, operands read from HBM once
 * per block of the array and multicast to the PEs that share them.  A
 * layer pass is a GEMM; its time is the roofline of MAC throughput and HBM
 * traffic under the fastest mapping.
 */
#ifndef MC_DEVICE_H
#define MC_DEVICE_H

#include <stddef.h>

#include "machine/devdesc.h"
#include "machine/platform.h"
#include "workload/workload.h"

struct mc_device {
	enum dl_devmodel model;
	double elem_bytes;	/* of the workload's data type */
	double peak_macs;	/* roofline: MACs per second of that type */
	struct dl_devdesc desc;	/* roofline: the description, */
	enum dl_dtype dtype;	/* computing this type */
	double pes;		/* processing elements */
	double macs_per_pe;	/* MACs per PE per cycle */
	double freq_hz;
	double sram_bytes;	/* local SRAM per PE */
	double hbm_Bps;		/* HBM bandwidth */
	double hbm_latency_s;	/* paid once per pass */
	double efficiency;	/* the one global MAC efficiency constant */
};

/*
 * A sliding-window operand: the im2col view of a feature map that a
 * convolution's GEMM reads.  The GEMM runs over the pixels of a
 * destination grid; each destination pixel reads, per channel, `taps`
 * entries of the reduction from a window of the source map that is `win`
 * source pixels wide along each axis and moves `step` source pixels per
 * destination pixel.  The device reads the source map itself, not its
 * im2col copy (docs/model.md, "Sliding windows").
 */
struct mc_window {
	double dst_h, dst_w;	/* destination grid of one sample */
	double src_h, src_w;	/* source map of one sample */
	double win, step;	/* along each axis, in source pixels */
	double taps;		/* reduction entries per source channel */
};

enum mc_expand {
	MC_PLAIN,		/* both operands are matrices in HBM */
	MC_EXPAND_A,		/* A's rows are destination pixels (forward, dX) */
	MC_EXPAND_B,		/* B's reduction runs over destination pixels (dW) */
};

/* C[m x n] = A[m x k] B[k x n], one operand possibly a window view. */
struct mc_gemm {
	double m, n, k;
	enum mc_expand expand;
	struct mc_window win;
};

/* Time of one layer's passes, seconds. */
struct mc_layer_time {
	double fwd_s;		/* forward (one timestep for RNNs) */
	double bwd_data_s;	/* backward data gradient (one timestep) */
	double bwd_weight_s;	/* weight gradient (whole layer, all steps) */
};

void mc_device_defaults(struct mc_device *d);
/*
 * The model of description `x` computing type `t` (a PE array's clock is
 * its peak of `t` over 2 x PEs x MACs per PE); an error naming `where`
 * when `x` has no peak for `t`.
 */
int mc_device_from_desc(struct mc_device *d, const struct dl_devdesc *x, enum dl_dtype t,
			const char *where);
/* The same from a device file: a shipped name ("table2") or a path. */
int mc_device_named(struct mc_device *d, const char *name, enum dl_dtype t);
/*
 * The device a run computes on: description `name` (a shipped name or a
 * file) when given, else the one every device host of `p` carries; its
 * name in label.
 */
int mc_device_for_run(struct mc_device *d, const struct dl_platform *p, const char *name,
		      enum dl_dtype t, char *label, size_t len);
/* Peak MACs per second. */
double mc_device_peak(const struct mc_device *d);

/* HBM bytes moved by an M x N x K GEMM (C = A[MxK] B[KxN]). */
double mc_gemm_bytes(const struct mc_device *d, double m, double n, double k);
/* Time of an M x N x K GEMM. */
double mc_gemm_time(const struct mc_device *d, double m, double n, double k);
/* The same for a GEMM that may read a sliding-window operand. */
double mc_gemm_op_bytes(const struct mc_device *d, const struct mc_gemm *g);
double mc_gemm_op_time(const struct mc_device *d, const struct mc_gemm *g);
/* Source pixels under `r` consecutive destination pixels (raster order,
 * sample after sample). */
double mc_window_pixels(const struct mc_window *w, double r);
/* Time of an elementwise pass: `ops` operations over `bytes` of HBM. */
double mc_stream_time(const struct mc_device *d, double ops, double bytes);

/*
 * Times of layer `l` (of workload `w`) for `batch` samples on one device,
 * its output channels (gates for RNNs) split over `split` devices
 * (1 for data-parallel training).
 */
void mc_layer_times(const struct mc_device *d, const struct mc_workload *w,
		    const struct mc_layer *l, double batch, int split,
		    struct mc_layer_time *t);

#endif
