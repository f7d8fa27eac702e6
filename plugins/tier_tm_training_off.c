/* SPDX-License-Identifier: MIT */
/* TM-Training_Off (Figure 14): TM-Training with Belady's replacement in
 * place of LRU; still sparing promoted data not yet used. */
#define TM_NAME "tm_training_off"
#define TM_DESCRIPTION "TM-Training with Belady's replacement instead of LRU"
#define TM_RATIO_FLAGS 0u
#define TM_VICTIM(ctx) svc->belady_victim(ctx, DLASIM_TIER_SPARE_PROMOTED)
#include "tier_tm_training.c"
