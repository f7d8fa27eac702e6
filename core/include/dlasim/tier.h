/* SPDX-License-Identifier: MIT */
/* Tier-placement plugins (DLASIM_KIND_TIER_PLACEMENT). */
#ifndef DLASIM_TIER_H
#define DLASIM_TIER_H

#include <dlasim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_TIER_OPS_VERSION 1u

struct dlasim_tier_ops {
	size_t size;	/* sizeof(struct dlasim_tier_ops) of the plugin */
};

struct dlasim_tier_services {
	size_t size;
};

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_TIER_H */
