/* SPDX-License-Identifier: MIT */
/* The NPU platform files of the two tier arrangements, generated in memory. */
#ifndef DL_TIER_NPU_PLATFORM_H
#define DL_TIER_NPU_PLATFORM_H

#include <dlasim/tier.h>

/* SimGrid XML of the chip, its HBM and its flash for arrangement `a`. */
const char *npu_platform_xml(enum dlasim_tier_arrangement a);

#endif
