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

#include "kernel/workload.h"

struct mc_device {
	double pes;		/* processing elements */
	double macs_per_pe;	/* MACs per PE per cycle */
	double freq_hz;
	double sram_bytes;	/* local SRAM per PE */
	double hbm_Bps;		/* HBM bandwidth */
	double hbm_latency_s;	/* paid once per pass */
	double efficiency;	/* the one global MAC efficiency constant */
};

/* Time of one layer's passes, seconds. */
struct mc_layer_time {
	double fwd_s;		/* forward (one timestep for RNNs) */
	double bwd_data_s;	/* backward data gradient (one timestep) */
	double bwd_weight_s;	/* weight gradient (whole layer, all steps) */
};

void mc_device_defaults(struct mc_device *d);
/* Peak MACs per second. */
double mc_device_peak(const struct mc_device *d);

/* HBM bytes moved by an M x N x K GEMM (C = A[MxK] B[KxN]). */
double mc_gemm_bytes(const struct mc_device *d, double m, double n, double k);
/* Time of an M x N x K GEMM. */
double mc_gemm_time(const struct mc_device *d, double m, double n, double k);
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
