/* SPDX-License-Identifier: MIT */
/*
 * The ideal case (Section 5.1): an oracle.  Each tensor keeps in tier 1
 * the smallest share with which no access to it waits for tier 2, worked
 * out exactly from every op's MXU time (no monitor, no 1/seq steps);
 * Hor_Off's offline replacement: a tensor takes room in tier 1 only from
 * data read after it, and the data read furthest in the future (per pass)
 * leave first; essential promotions ahead of need (perfect prefetch).
 */
#include <dlasim/tier.h>

DLASIM_TIER_SERVICES(svc)

static int victim(void *state, struct dlasim_tier_ctx *ctx, double bytes)
{
	return svc->belady_victim(ctx, DLASIM_TIER_SPARE_PROMOTED);
}

DLASIM_TIER_SPLIT_PLUGIN_FLAGS("ideal", "ideal: exact split ratios from every op's MXU time, Belady replacement",
			 DLASIM_TIER_ORACLE | DLASIM_TIER_EXACT, victim, DLASIM_TIER_OFFLINE);
