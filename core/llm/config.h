/* SPDX-License-Identifier: MIT */
/* One `dlasim llm` configuration and its checks before any simulation. */
#ifndef LLM_CONFIG_H
#define LLM_CONFIG_H

#include "cost.h"
#include "device.h"
#include "model.h"

struct llm_cfg {
	const char *platform, *workload;
	const char *coll;		/* collective plugin; NULL: by group */
	const char *device;		/* --device NAME|FILE; NULL: the platform's */
	const char *link_stats;		/* --link-stats FILE; NULL: none */
	struct llm_par par;
	bool all_replicas;	/* simulate every data-parallel replica's pipeline */
	/* Memory (docs/llm.md, "Offload"): the device memory a stage must
	 * fit (0: the device description's HBM capacity; INFINITY: no limit,
	 * the oracle), and whether what does not fit goes to the platform's
	 * backing store, placed by page-allocation plugin `page_alloc`
	 * (NULL: local). */
	double device_memory;
	bool offload;
	const char *page_alloc;
};

/* Parallelism and batch against the model; one line and -1 if not. */
int llm_check_shape(const struct llm_model *m, const struct llm_par *c);
/* The devices the run needs against the platform's `ndevices`. */
int llm_check_devices(const struct llm_par *c, int ndevices, const char *platform);
/* The workload's type on the device, and every stage's memory against
 * its HBM (none given: not checked): -1 after one line saying by how
 * much the worst stage is over. */
int llm_check_fit(const struct llm_model *m, const struct llm_par *c,
		  const struct llm_device *d);
/* The memory a stage's device must fit: --device-memory, else the
 * device's HBM (0: the description gives none); INFINITY: no limit. */
double llm_memory_limit(const struct llm_cfg *cfg, const struct llm_device *d);
/* llm_check_fit against llm_memory_limit(); with --offload, what does not
 * fit goes to the backing store (docs/llm.md, "Offload"), and only a
 * stage whose gradients alone are over is refused. */
int llm_check_memory(const struct llm_cfg *cfg, const struct llm_model *m,
		     const struct llm_device *d);
/* Platform rank of tensor rank i, stage j, data-parallel replica r
 * (Megatron's order: tensor fastest, then data, then pipeline). */
static inline int llm_rank(const struct llm_par *c, long i, long j, long r)
{
	return (int)(i + c->tp * (r + c->dp * j));
}

#endif
