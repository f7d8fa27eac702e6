/* SPDX-License-Identifier: MIT */
/*
 * One training iteration of a workload on a platform: every device runs
 * its schedule (plan.h) in SimGrid actors (compute, offload DMA, prefetch
 * DMA, collectives), with memory overlaying to the backing store through
 * the page-allocation plugin, and the collectives through the collective
 * plugin (docs/model.md).
 */
#ifndef MC_TRAIN_H
#define MC_TRAIN_H

#include <stdbool.h>

#include "machine/platform.h"
#include "plan.h"

struct mc_train_cfg {
	const char *platform;
	const char *workload;
	const char *page_alloc;		/* plugin spec */
	const char *coll;		/* plugin spec, NULL: dl_coll_default() */
	const char *link_stats;		/* CSV path or NULL */
	double batch;			/* global batch */
	enum mc_parallel mode;
	double device_memory;		/* bytes, INFINITY: no overlaying */
	double page_bytes;
	const char *device;		/* device description (a shipped name or a
					 * file), NULL: the platform's */
	double compression;		/* overlay DMA compression ratio, >= 1
					 * (0: none) */
	bool overlay_spill;		/* offload only what does not fit
					 * (mc_plan_keep); else every entry
					 * out and back (Section IV) */
	bool dx_reduce_scatter;		/* model-parallel input gradients by
					 * reduce-scatter; else all-reduce
					 * (Figure 4) */
};

/* Per-device figures are means over the devices. */
struct mc_train_result {
	char workload[64];
	const char *workload_format;	/* dnn, scalesim-csv or chakra */
	char coll[256];			/* the collective plugin spec used */
	char device[64];		/* the device description's name */
	int devices;
	double iteration_s;
	double compute_s;		/* device busy computing */
	double sync_s;			/* collectives communicating: from the
					 * last device's arrival to the end */
	double sync_wait_s;		/* in a collective, waiting for peers
					 * to arrive */
	double sync_exposed_s;		/* compute waiting for collectives */
	double virt_s;			/* offload and prefetch DMAs running */
	double virt_exposed_s;		/* compute waiting for memory overlaying */
	double offload_bytes;		/* per device */
	double prefetch_bytes;		/* per device */
	double cpu_mem_bw_avg_Bps;	/* per CPU socket, mean over sockets */
	double cpu_mem_bw_max_Bps;	/* highest window, any socket */
	double cpu_mem_bw_window_s;	/* the windows' width (linkstats.h) */
	double class_bytes[DL_LINK_CLASSES];
	double memory_node_tdp_w;	/* sum over memory hosts */
	double system_power_w;		/* every host's TDP and the rest */
};

/* What each device of a run of either kind (layers or a Chakra trace)
 * counts; sync_s only where the device's own communication time is known
 * (a trace), the layers' run finding it from the collectives' times. */
struct mc_dev_stats {
	double compute_s, sync_s, sync_exposed_s, virt_s, virt_exposed_s;
	double offload_bytes, prefetch_bytes;
	double end_s;			/* the device's iteration ended */
};

/* Run one iteration; reports every problem itself.  One per process. */
int mc_train_run(const struct mc_train_cfg *cfg, struct mc_train_result *r);

struct bk_links;
struct mc_power;
/* The collective a run uses: --coll, or the platform's default. */
const char *mc_train_coll(const struct mc_train_cfg *cfg, const struct dl_platform *p);
/* Does the run overlay memory (finite --device-memory; not the oracle)? */
bool mc_train_overlays(const struct mc_train_cfg *cfg);
/* The plugins a run will load (--page-alloc when overlaying, --coll when
 * given), checked before its platform is read: 0, or -1 after a message. */
int mc_train_check_plugins(const struct mc_train_cfg *cfg);
/* A result for `workload` on n devices, then each device's share: the
 * iteration ends with the last device, the rest are means. */
void mc_result_start(struct mc_train_result *r, const char *workload, int devices);
void mc_result_add_device(struct mc_train_result *r, const struct mc_dev_stats *st);
/* What a run of either kind (layers or a Chakra trace) reports of its
 * machine: the collective it used, the bytes by link class, the CPU
 * memory bandwidth over `iteration_s`, the power. */
void mc_result_machine(struct mc_train_result *r, const struct mc_train_cfg *cfg,
		       const struct dl_platform *p, const struct bk_links *links,
		       const struct mc_power *power);

/* Default page size of remote allocations. */
#define MC_DEFAULT_PAGE_BYTES 65536.0

#endif
