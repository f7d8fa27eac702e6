/* SPDX-License-Identifier: MIT */
/* The device-side switch (switch, docs/platforms.md). */
#include "platgen.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/units.h"
#include "platform.h"

#include "platgen_parts.h"

/*
 * Device-side switch (Figure 15): every device has all its links to one
 * switch; blocks of devices share a leaf switch, leaves join through a
 * non-blocking spine.  Any ring or tree can be cast on it.
 */
static int leaf_of(const struct out *o, int i)
{
	return o->g->block ? i / o->g->block : 0;
}

static void hosts_switch(struct out *o, int i)
{
	char name[32];

	pg_device(o, i, NULL);
	if (i == 0 || (o->g->block && i % o->g->block == 0)) {
		snprintf(name, sizeof(name), "sw%d", leaf_of(o, i));
		pg_host(o, name, HOST_SPEED, "switch", NULL);
	}
}

static void links_switch(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "nv-d%d-sw%d", i, leaf_of(o, i));
	pg_nvlink(o, name, o->g->links);
}

void pg_routes_switch(struct out *o, int i, int lo, int hi)
{
	char src[32], dst[32], hops[256];

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "sw%d", leaf_of(o, i));
	snprintf(hops, sizeof(hops), "nv-d%d-sw%d:UP", i, leaf_of(o, i));
	pg_route(o, src, dst, true, hops, NULL, NULL);
	for (int j = i + 1; j < hi; j++) {
		snprintf(dst, sizeof(dst), "d%d", j);
		snprintf(hops, sizeof(hops), "nv-d%d-sw%d:UP nv-d%d-sw%d:DOWN", i, leaf_of(o, i),
			 j, leaf_of(o, j));
		pg_route(o, src, dst, true, hops, NULL, NULL);
	}
	(void)lo;
}

/* Its routes are written by block (pg_routes_switch), not per device. */
const struct machine pg_switch = { hosts_switch, links_switch, NULL, NULL };
