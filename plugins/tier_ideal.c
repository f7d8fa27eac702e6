/* SPDX-License-Identifier: MIT */
/* The ideal case (Section 5.1): Hor_Off's Belady replacement and
 * TM-Training's data splitting with the ratio tuned exactly instead of in
 * steps of 1/sequence length. */
#define TM_NAME "ideal"
#define TM_DESCRIPTION "ideal: Belady replacement and exactly tuned split ratios"
#define TM_RATIO_FLAGS DLASIM_TIER_EXACT
#define TM_VICTIM(ctx) svc->belady_victim(ctx, 0)
#include "tier_tm_training.c"
