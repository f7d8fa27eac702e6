/* SPDX-License-Identifier: MIT */
/*
 * The ideal case (Section 5.1): Hor_Off's offline replacement (the data
 * read furthest in the future leave tier 1 first, sparing data promoted
 * and not yet read) and TM-Training's split with the ratio fine-tuned (no
 * 1/seq steps), every window known in advance from the ops' MXU times (no
 * monitor, no first layer to measure); essential promotions ahead of need
 * (perfect prefetch).  It makes room before an op writes and waits for it
 * rather than spill to flash what it would read back (docs/tier.md).
 * It is the paper's reference policy, not an upper bound on every policy:
 * a heuristic that knows more is not a better one (docs/validation/tm.md,
 * I).
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->belady_victim(ctx, DLASIM_TIER_SPARE_PROMOTED);
}

DLASIM_TIER_SPLIT_PLUGIN_FLAGS("ideal", "the paper's ideal case (a reference, not a bound): exact split ratios from every op's MXU time, Belady",
			 DLASIM_TIER_ORACLE | DLASIM_TIER_EXACT | DLASIM_TIER_WAIT, victim, DLASIM_TIER_OFFLINE);
