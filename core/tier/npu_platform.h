/* SPDX-License-Identifier: MIT */
/* The NPU platform files of the two tier arrangements, generated in memory. */
#ifndef DL_TIER_NPU_PLATFORM_H
#define DL_TIER_NPU_PLATFORM_H

#include <dlasim/tier.h>

/* SimGrid XML of the chip, its HBM and its flash for arrangement `a`. */
const char *npu_platform_xml(enum dlasim_tier_arrangement a);

/*
 * The same with the NPU of device description `device` (a shipped name or
 * a file, docs/devices.md): Table 1's MXUs at the clock that gives the
 * description's bf16 peak, its HBM bandwidth.  *xml is malloc'd; an error
 * naming the description and the field when it has no bf16 peak.
 */
int npu_platform_xml_device(enum dlasim_tier_arrangement a, const char *device, char **xml);

#endif
