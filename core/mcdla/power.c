/* SPDX-License-Identifier: MIT */
/*
 * System power (docs/model.md, "Power"): the dlasim.tdp of every host
 * that has one (devices, sockets, memory-nodes) and the dlasim.other-power
 * of the zones (what no host stands for).
 */
#include "power.h"

#include "lib/diag.h"
#include "lib/units.h"

int mc_platform_power(const struct dl_platform *p, struct mc_power *out)
{
	const char *v, *why;
	double w;

	out->system_w = out->memory_w = 0;
	for (int i = 0; i < p->nhosts; i++) {
		const struct dl_host *h = &p->hosts[i];

		if (!(v = dl_host_prop(h, "dlasim.tdp")))
			continue;
		if ((why = dl_parse_power(v, &w)))
			return dl_err("%s:%d: host '%s': dlasim.tdp '%s': %s", p->file, h->line,
				      h->name, v, why);
		out->system_w += w;
		if (h->role == DL_ROLE_MEMORY)
			out->memory_w += w;
	}
	for (int i = 0; i < p->nzones; i++) {
		const struct dl_zone *z = &p->zones[i];

		if (!(v = dl_zone_prop(z, "dlasim.other-power")))
			continue;
		if ((why = dl_parse_power(v, &w)))
			return dl_err("%s:%d: zone '%s': dlasim.other-power '%s': %s", p->file,
				      z->line, z->name, v, why);
		out->system_w += w;
	}
	return 0;
}
