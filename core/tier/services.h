/* SPDX-License-Identifier: MIT */
/* The tier services a plugin calls, and the checks of what it may know. */
#ifndef DL_TIER_SERVICES_H
#define DL_TIER_SERVICES_H

#include <stdbool.h>

#include "state.h"

extern const struct dlasim_tier_services tier_services;
/* The plugin's ops pass the loader's check (plugin/plugin.h). */
bool tier_ops_check(const void *ops, const char **why);
/* Op i as the plugin sees it: online, with the MXU time the monitor
 * measured (-1 before the first op of its kind has ended). */
const struct dlasim_tier_op *services_op(struct dlasim_tier_ctx *run, int i);

#endif
