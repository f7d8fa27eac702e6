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

#include "workload/workload.h"
#include "device.h"

#define MC_MAX_NEED 16

enum mc_parallel { MC_DATA_PARALLEL, MC_MODEL_PARALLEL };

/* One forward step: a layer, or one timestep of a layer over a sequence. */
struct mc_op {
	int layer;
	int step;
	double fwd_s;		/* forward compute */
	double bwd_s;		/* backward data (cheap layers: recompute + backward) */
	double wgrad_s;		/* weight gradients, after this step's backward */
	int stash;		/* stash entry this step produces, or -1 */
	int need[MC_MAX_NEED];	/* stash entries its backward reads */
	int nneed;
	/* Collectives, each split in `tiles` equal parts: */
	double gather_bytes;	/* model-parallel: all-gather of X before forward, */
	double dx_reduce_bytes;	/* all-reduce of dX after backward data, */
	double bwd_gather_bytes;	/* all-gather of X again for dW; */
	double dw_reduce_bytes;	/* data-parallel: all-reduce of dW after wgrad */
	double work_bytes;	/* working buffers beside the stash entries (gathered X,
				 * gradients, activations not kept), untiled */
	int tiles;		/* batch tiles the step runs in (mc_plan_fit) */
};

/* A feature map kept for backward: offloaded after its last forward use,
 * prefetched before its first backward use. */
struct mc_stash {
	double bytes;
	int producer;		/* op */
	int last_fwd_use;	/* op after whose forward it is offloaded */
	int first_bwd_use;	/* highest op index needing it in backward */
	int last_bwd_use;	/* lowest: freed after that op's backward */
	bool kept;		/* stays on the device (mc_plan_keep) */
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
	double elem;		/* bytes per element (the workload's type) */
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
 * Fit the plan to a device of `capacity` bytes: weights and gradients, the
 * feature maps live at any one step, and each step's working buffers, a
 * step whose buffers do not fit beside the others running over its batch
 * in tiles (docs/model.md, "Device memory").  On failure names the layer
 * and what does not fit.  `*budget` receives the bytes left for stash
 * entries.
 */
int mc_plan_fit(struct mc_plan *plan, const struct mc_workload *w, const struct mc_device *d,
		double capacity, const char *option, double *budget);

/*
 * Offload only what does not fit (`--overlay spill`): mark the entries
 * that can stay on the device from their producer to their last backward
 * use, first needed in backward first, as long as at every forward and
 * backward step the entries kept and those live there fit in `budget`
 * bytes.  Returns the bytes kept.
 */
double mc_plan_keep(struct mc_plan *plan, double budget);

/* Totals over the iteration (no overlap): compute seconds. */
double mc_plan_compute(const struct mc_plan *plan);

#endif
