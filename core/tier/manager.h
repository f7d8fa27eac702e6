/* SPDX-License-Identifier: MIT */
/* The placement manager actor: calls the plugin, hands it the tier services. */
#ifndef DL_TIER_MANAGER_H
#define DL_TIER_MANAGER_H

#include <stdbool.h>

#include "state.h"

void manager_start(struct dlasim_tier_ctx *run);
void manager_prepare(struct dlasim_tier_ctx *run, int op);
/* Place the results of `op` (tier1_bytes of each says where they go). */
void manager_place(struct dlasim_tier_ctx *run, int op);
/* The MXUs start `op`: the plugin's start(), if it has one. */
void manager_start_op(struct dlasim_tier_ctx *run, int op);
extern const struct dlasim_tier_services tier_services;
bool tier_ops_check(const void *ops, const char **why);

#endif
