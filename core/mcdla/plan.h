/* SPDX-License-Identifier: MIT */
/*
 * The schedule of one training iteration on one device (every device runs
 * the same one, SPMD): forward steps in order, backward in reverse, with
 * their compute times, the feature maps kept for backward (stash entries)
 * and the collectives of data- or model-parallel training
 * (docs/model.md, "Training iteration").
 */
#ifndef MC_PLAN_H
#define MC_PLAN_H

#include <stdbool.h>

#include "kernel/workload.h"
#include "device.h"

#define MC_MAX_NEED 16

enum mc_parallel { MC_DATA_PARALLEL, MC_MODEL_PARALLEL };

/* One forward step: a layer, or one timestep of a recurrent layer. */
struct mc_op {
	int layer;
	int step;
	double fwd_s;		/* forward compute */
	double bwd_s;		/* backward data (cheap layers: recompute + backward) */
	double wgrad_s;		/* weight gradients, after this step's backward */
	int stash;		/* stash entry this step produces, or -1 */
	int need[MC_MAX_NEED];	/* stash entries its backward reads */
	int nneed;
	double gather_bytes;	/* model-parallel: all-gather before forward */
	double dx_reduce_bytes;	/* model-parallel: all-reduce of dX after backward */
	double dw_reduce_bytes;	/* data-parallel: all-reduce of dW after wgrad */
	double work_bytes;	/* working buffers of this step (X, Y and gradients) */
};

/* A feature map kept for backward: offloaded after its last forward use,
 * prefetched before its first backward use. */
struct mc_stash {
	double bytes;
	int producer;		/* op */
	int last_fwd_use;	/* op after whose forward it is offloaded */
	int first_bwd_use;	/* highest op index needing it in backward */
	int last_bwd_use;	/* lowest: freed after that op's backward */
};

struct mc_plan {
	struct mc_op *op;
	int nops;
	struct mc_stash *stash;
	int nstash;
	int *prefetch_order;	/* stash entries by first backward use */
	int nprefetch;
	double static_bytes;	/* weights and weight gradients on the device */
	double workspace_bytes;	/* largest working set of one step */
	double batch;		/* samples per device */
	int split;		/* devices sharing each layer (model-parallel) */
	int collectives;	/* per iteration, upper bound */
};

/*
 * Build the plan of workload `w` for a global batch `batch` on `devices`
 * devices.  Reports a batch that does not divide across devices.
 */
int mc_plan_build(struct mc_plan *plan, const struct mc_workload *w,
		  const struct mc_device *d, double batch, int devices,
		  enum mc_parallel mode);
void mc_plan_free(struct mc_plan *plan);

/*
 * Check that a device of `capacity` bytes can run the plan with memory
 * overlaying: weights, gradients, working buffers and the feature maps
 * live at any one time.  On failure names the layer that does not fit.
 * `*budget` receives the bytes left for stash entries.
 */
int mc_plan_check_capacity(const struct mc_plan *plan, const struct mc_workload *w,
			   double capacity, const char *option, double *budget);

/* Totals over the iteration (no overlap): compute seconds. */
double mc_plan_compute(const struct mc_plan *plan);

#endif
