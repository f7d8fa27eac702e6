/* SPDX-License-Identifier: MIT */
/* The power a platform file declares (docs/model.md, "Power"). */
#ifndef MC_POWER_H
#define MC_POWER_H

#include "machine/platform.h"

struct mc_power {
	double system_w;	/* every host's dlasim.tdp and every zone's dlasim.other-power */
	double memory_w;	/* the dlasim.tdp of the memory-nodes */
};

/* Sum the platform's powers; one message naming file:line on a bad value. */
int mc_platform_power(const struct dl_platform *p, struct mc_power *out);

#endif
