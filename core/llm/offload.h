/* SPDX-License-Identifier: MIT */
/*
 * Offload of what does not fit in device memory to the platform's backing
 * store (docs/llm.md, "Offload"): every stage's split (cost.h,
 * llm_offload_split), placed by the page-allocation plugin and moved by
 * core/backing's controllers over the platform's routes.  Each device that
 * offloads has DMA actors beside its stage actor: one writes the
 * activation checkpoints after their forward and, at the optimizer step,
 * the optimizer states and parameters back; one reads the checkpoints
 * back one layer ahead of backward, then the optimizer states for the
 * step; one reads the parameters one layer ahead of every forward and
 * backward.  The stage actor waits only for what has not arrived: the
 * exposed offload time.
 */
#ifndef LLM_OFFLOAD_H
#define LLM_OFFLOAD_H

#include <stdbool.h>

#include <simgrid/forward.h>

#include "machine/platform.h"
#include "machine/traffic.h"
#include "config.h"
#include "cost.h"

struct llm_offload;
struct llm_offload_dev;

/* The page-allocation plugin a run offloads with, "none" without --offload. */
const char *llm_offload_plugin(const struct llm_cfg *cfg);
/* Before the platform is read: --page-alloc loads (with --offload). */
int llm_offload_check_plugin(const struct llm_cfg *cfg);
/* Once the platform is read, before any actor: with --offload, the run's
 * devices declare a backing store, and what every device of the run
 * offloads fits in it; then, if some stage offloads, open the plugin.
 * *out stays NULL when nothing is offloaded.  -1 after one line. */
int llm_offload_open(struct llm_offload **out, const struct llm_cfg *cfg,
		     const struct llm_model *m, struct dl_platform *p, double cap);
/* The device of platform rank `rank`, stage `stage`, simulated on `host`:
 * its DMA actors, or NULL if its stage keeps everything (or o is NULL). */
struct llm_offload_dev *llm_offload_attach(struct llm_offload *o, int rank, long stage,
					   sg_host_t host);
/* After every attach: the controllers and the DMA actors start. */
int llm_offload_start(struct llm_offload *o);
void llm_offload_close(struct llm_offload *o);

/* From the stage actor (d may be NULL: nothing to do). */
void llm_offload_forward_done(struct llm_offload_dev *d);	/* after a layer's forward */
void llm_offload_before_layer(struct llm_offload_dev *d, bool backward);
void llm_offload_step(struct llm_offload_dev *d);		/* the optimizer step */

/* Seconds the stage actor waited on the backing store, bytes moved. */
double llm_offload_wait_s(const struct llm_offload_dev *d);
double llm_offload_moved(const struct llm_offload_dev *d);
/* Bytes a device of stage `stage` keeps in the backing store (0: o NULL). */
double llm_offload_stage_bytes(const struct llm_offload *o, long stage);
/* The ledger of every backing-store transfer (NULL: none). */
const struct dl_traffic *llm_offload_traffic_ledger(const struct llm_offload *o);

#endif
