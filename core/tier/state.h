/* SPDX-License-Identifier: MIT */
/*
 * The state of one tier-placement run, owned by the run (run.c) and shared
 * by the services below it (chip, manager, monitor, placement, the tiers),
 * with the primitives they synchronise through.  Nothing here calls up
 * into those services.
 */
#ifndef DL_TIER_STATE_H
#define DL_TIER_STATE_H

#include <stdbool.h>

#include <simgrid/cond.h>
#include <simgrid/forward.h>
#include <simgrid/mutex.h>

#include <dlasim/tier.h>

#include "tmgraph/graph.h"
#include "result.h"
#include "tmgraph/workload.h"

struct tstate {
	int pins;		/* ops reading or writing it now */
	bool written;
	double dirty;		/* vertical: tier-1 bytes not in tier 2 */
	bool resident;		/* in the tier-1 resident list */
	double promoting;	/* in flight to tier 1 (still in tier 2) */
	double demoting;	/* in flight to tier 2 (still in tier 1) */
	double kept;		/* of demoting, taken back before they left:
				 * they stay in tier 1 (mem_promote_missing) */
};

struct monitor_event {
	int kind;		/* 1, 2, 3: T1, T2, T3 */
	int label;		/* record of (label, phase), or -1 */
	int phase;
	int key;		/* record of a use (use_key), or -1 */
	double t;
	double bytes;
};

struct writer {
	struct dlasim_tier_ctx *run;
	int op;
};

/* Something the plugin is told after the callback that caused it: the
 * host evicted bytes of a tensor for it, or an op ended. */
struct notice {
	bool op_done;		/* else: evicted */
	int id;			/* tensor, or op */
	double bytes;
	struct dlasim_tier_feedback fb;
};

struct dlasim_tier_ctx {
	struct tier_workload w;
	struct tier_graph g;
	double clock_hz;		/* the MXUs' clock: one flop of the chip host */
	struct dlasim_tier_system sys;
	struct dl_plugin *plugin;
	const struct dlasim_tier_ops *ops;
	struct dlasim_tier_ops ops_copy;	/* the plugin's, zero-extended */
	void *state;
	bool online;		/* online-only mode and the plugin is online:
				 * it sees only the past and the present */
	bool in_callback;	/* in prepare() or start(): it may move data */
	struct dlasim_tier_op *op_view;	/* online: the ops as it sees them */
	struct notice *notices;	/* for it, not delivered yet */
	int nnotices, capnotices;
	double fb_end_s;	/* the last op_done: when, and the counters */
	double fb_bytes[6];
	sg_host_t chip, hbm, flash, ici;
	double hbm_static_w_per_byte;	/* Table 2, per byte of a device */
	double hbm_device_w;		/* Table 2: static power of one HBM device */
	double flash_static_w_per_byte;
	double hbm_price, flash_price;	/* per byte, relative */
	double iommu_page;	/* 0: no IOMMU; else its page size */
	double iommu_walk;	/* bytes a page walk reads from HBM */
	double iommu_leak_w;

	/* memory */
	struct tstate *ts;
	int *resident;		/* tensors with tier-1 bytes */
	int nresident;
	double used1, used2;	/* committed bytes */
	double leaving1;	/* of used1, bytes being demoted: their room
				 * is free when they have left */
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

	/* request timing monitor: per use (op kind x operand slot), and per
	 * Table 4 label and phase; the op each record belongs to */
	struct dlasim_tier_timing *use_timing;
	int *use_owner;
	struct dlasim_tier_timing timing[DLASIM_TIER_LABELS][DLASIM_TIER_PHASES];
	int timing_op[DLASIM_TIER_LABELS][DLASIM_TIER_PHASES];

	/* accounting */
	struct tier_result *res;
	double stall_s;
};

/* The monitor's record of operand `slot` of the ops of op's kind. */
static inline int use_key(const struct dlasim_tier_ctx *run, int op, int slot)
{
	return run->g.ops[op].pub.kind * TG_MAX_IN + slot;
}

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
/* The energy of `seconds` of the run in which the bytes counted in `r`
 * moved and the MXUs did `macs` MACs with `sram_bytes` of SRAM accesses
 * (docs/tier.md, "Energy"): sets r's migration_bytes and energy fields. */
void run_energy(const struct dlasim_tier_ctx *run, struct tier_result *r, double macs,
		double sram_bytes, double seconds);
/* Queue a notice for the plugin (the manager delivers it). */
void run_notify(struct dlasim_tier_ctx *run, const struct notice *n);
/* Report a plugin error and stop the simulation. */
void run_plugin_fail(struct dlasim_tier_ctx *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

#endif
