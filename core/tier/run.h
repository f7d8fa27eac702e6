/* SPDX-License-Identifier: MIT */
/*
 * One simulated training iteration of a workload on one NPU chip with a
 * tier-placement plugin: configuration, results, and (for the files of
 * core/tier/) the state the actors share.
 */
#ifndef DL_TIER_RUN_H
#define DL_TIER_RUN_H

#include <stdbool.h>

#include <simgrid/cond.h>
#include <simgrid/forward.h>
#include <simgrid/mutex.h>

#include <dlasim/tier.h>

#include "graph.h"
#include "workload.h"

struct tier_config {
	const char *workload;		/* file */
	const char *policy;		/* plugin name or path, ":options" */
	double tier1_ratio;		/* R of R:1; tier 1 = R/200 of 32 GiB */
	double batch_scale;		/* batch and address space x K */
	double tier2_bw_scale;		/* flash bandwidth x F */
	const char *platform;		/* NULL: the generated npu platform */
};

struct tier_result {
	char workload[64];
	char policy[64];
	enum dlasim_tier_arrangement arrangement;
	double tier1_ratio, batch_scale, tier2_bw_scale;
	double address_space_bytes, tier1_capacity_bytes, tier2_capacity_bytes;
	double params;			/* simulated, from the dimensions */
	double samples;			/* sequences per chip per iteration */
	double peak_bytes;		/* most data live at once */
	double data_bytes;		/* data created or used (Table 3) */
	double traffic_bytes;		/* off-chip bytes an HBM-only chip moves */
	double iteration_time_s, compute_s, stall_s;
	double migration_bytes, promoted_bytes, demoted_bytes;
	double tier1_read_bytes, tier2_read_bytes;
	double tier1_write_bytes, tier2_write_bytes;
	double energy_j, energy_migration_j, energy_prefetch_j, energy_static_j;
	double energy_sram_j, energy_mac_j;
	double throughput_samples_per_s;
	double throughput_per_watt;	/* samples/s per W = samples per J */
	int ops, tensors;
};

/* Run one iteration; reports errors itself.  One per process. */
int tier_run(const struct tier_config *cfg, struct tier_result *res);

/* Tier-1 capacity of ratio R:1 (TM-Training's 25:1 = 12.5%, 100:1 = 50%). */
double tier_ratio_bytes(double ratio);

/* ---- inside core/tier ---- */

struct tstate {
	int pins;		/* ops reading or writing it now */
	bool written;
	double dirty;		/* vertical: tier-1 bytes not in tier 2 */
	bool resident;		/* in the tier-1 resident list */
	double promoting;	/* in flight to tier 1 (still in tier 2) */
	double demoting;	/* in flight to tier 2 (still in tier 1) */
};

struct monitor_event {
	int kind;		/* 1, 2, 3: T1, T2, T3 */
	unsigned label;
	int phase;
	int op;
	double t;
	double bytes;
};

struct writer {
	struct dlasim_tier_ctx *run;
	int op;
};

struct dlasim_tier_ctx {
	struct tier_workload w;
	struct tier_graph g;
	struct dlasim_tier_system sys;
	struct dl_plugin *plugin;
	const struct dlasim_tier_ops *ops;
	struct dlasim_tier_ops ops_copy;	/* the plugin's, zero-extended */
	void *state;
	sg_host_t chip, hbm, flash;

	/* memory */
	struct tstate *ts;
	int *resident;		/* tensors with tier-1 bytes */
	int nresident;
	double used1, used2;	/* committed bytes */
	int cur_op;		/* op whose operands the DMA fetches now */
	bool start_pending;	/* the MXUs wait for the plugin's start() */

	/* pipeline */
	double *t2, *t3;	/* per op, < 0 until reached */
	bool *ready, *written;
	struct writer *writers_of;	/* per op */
	sg_mutex_t mutex;
	sg_cond_t changed;	/* any state change */
	sg_mailbox_t manager_mb, monitor_mb;
	double end_s;

	/* request timing monitor */
	struct dlasim_tier_timing timing[DLASIM_TIER_LABELS][DLASIM_TIER_PHASES];
	int timing_op[DLASIM_TIER_LABELS][DLASIM_TIER_PHASES];

	/* accounting */
	struct tier_result *res;
	double stall_s;
};

/* Wake every actor waiting for a state change. */
void run_changed(struct dlasim_tier_ctx *run);
/* Block until `cond` holds.  The test runs with the mutex held, so that no
 * change can slip between it and the wait. */
#define RUN_WAIT_UNTIL(run, cond) \
	do { \
		sg_mutex_lock((run)->mutex); \
		while (!(cond)) \
			sg_cond_wait((run)->changed, (run)->mutex); \
		sg_mutex_unlock((run)->mutex); \
	} while (0)
/* Report a plugin error and stop the simulation. */
void run_plugin_fail(struct dlasim_tier_ctx *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* mem.c: the two tiers. */
int mem_init(struct dlasim_tier_ctx *run);
void mem_free_state(struct dlasim_tier_ctx *run);
/* Reserve room for a tensor being written: `ratio` of it in tier 1 if
 * room can be made (vertical: as much as fits), the rest in tier 2. */
void mem_place(struct dlasim_tier_ctx *run, int id, double ratio);
void mem_written(struct dlasim_tier_ctx *run, int id);
void mem_release(struct dlasim_tier_ctx *run, int id);
double mem_promote(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags);
double mem_evict(struct dlasim_tier_ctx *run, int id, double bytes, unsigned flags);
double mem_make_room(struct dlasim_tier_ctx *run, double bytes, unsigned flags);
double mem_tier1_free(const struct dlasim_tier_ctx *run);
bool mem_evictable(const struct dlasim_tier_ctx *run, int id);
int mem_lru_victim(const struct dlasim_tier_ctx *run, unsigned flags);
int mem_belady_victim(const struct dlasim_tier_ctx *run, unsigned flags);
double mem_evictable_after(const struct dlasim_tier_ctx *run, int op);
/* Move accounting into the result. */
void mem_account_move(struct dlasim_tier_ctx *run, double bytes, bool promotion);

/* monitor.c: the request timing monitor actor. */
void monitor_start(struct dlasim_tier_ctx *run);
void monitor_fetch(struct dlasim_tier_ctx *run, int op, const struct dlasim_tier_operand *in,
		   double bytes);
void monitor_op(struct dlasim_tier_ctx *run, int op, int kind);

/* manager.c: the placement manager actor (calls the plugin). */
void manager_start(struct dlasim_tier_ctx *run);
void manager_prepare(struct dlasim_tier_ctx *run, int op);
/* Place the results of `op` (tier1_bytes of each says where they go). */
void manager_place(struct dlasim_tier_ctx *run, int op);
/* The MXUs start `op`: the plugin's start(), if it has one. */
void manager_start_op(struct dlasim_tier_ctx *run, int op);
extern const struct dlasim_tier_services tier_services;
bool tier_ops_check(const void *ops, const char **why);

/* chip.c: the MXU, the DMA controller and output writers. */
void chip_start(struct dlasim_tier_ctx *run);

/* npu_platform.c */
const char *npu_platform_xml(enum dlasim_tier_arrangement a);

#endif
