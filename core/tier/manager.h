/* SPDX-License-Identifier: MIT */
/* The placement manager actor: every call into the plugin. */
#ifndef DL_TIER_MANAGER_H
#define DL_TIER_MANAGER_H

#include <stdbool.h>

#include "state.h"

/* Start the manager actor after the plugin's setup(); -1 if it failed. */
int manager_start(struct dlasim_tier_ctx *run);
void manager_prepare(struct dlasim_tier_ctx *run, int op);
/* Place the results of `op` (tier1_bytes of each says where they go). */
void manager_place(struct dlasim_tier_ctx *run, int op);
/* The MXUs start `op`: the plugin's start(), if it has one. */
void manager_start_op(struct dlasim_tier_ctx *run, int op);
/* Deliver the notices queued for the plugin (evictions, ops done). */
void manager_notify(struct dlasim_tier_ctx *run);

#endif
