/* SPDX-License-Identifier: MIT */
/*
 * MC-DLA star (mc-star): every device with its links to memory-nodes
 * (docs/platforms.md).
 */
#include "platgen.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/units.h"
#include "platform.h"

#include "platgen_parts.h"

static void hosts_mc_star(struct out *o, int i)
{
	const struct dimm_option *d = pg_dimm_option(o->g->dimm_bytes);
	char name[32], of[32], cap[64], tdp[64], backing[32];

	snprintf(backing, sizeof(backing), "m%d", i);
	pg_device(o, i, backing);
	snprintf(of, sizeof(of), "d%d", i);
	for (int p = 1; p <= 2; p++) {
		snprintf(name, sizeof(name), "d%d.p%d", i, p);
		pg_host(o, name, HOST_SPEED, "port", "dlasim.port-of", of, NULL);
	}
	snprintf(name, sizeof(name), "m%d", i);
	snprintf(cap, sizeof(cap), "%.17gB", d->bytes * DIMMS_PER_MEMNODE);
	snprintf(tdp, sizeof(tdp), "%gW", d->node_tdp_w);
	pg_host(o, name, HOST_SPEED, "memory", "dlasim.memory-node", name, "dlasim.capacity", cap,
	     "dlasim.tdp", tdp, NULL);
}

static void links_mc_star(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "nv-d%d-d%d", i, pg_nxt(o, i));
	pg_nvlink(o, name, 1);
	snprintf(name, sizeof(name), "nv-d%d-m%d", i, i);
	pg_nvlink(o, name, 2);
	snprintf(name, sizeof(name), "dram-m%d", i);
	pg_link(o, name, MEMNODE_DIMM_BW, DRAM_LAT, false, "dram", 1);
	snprintf(name, sizeof(name), "nv-m%d-m%d", i, pg_nxt(o, i));
	pg_nvlink(o, name, 1);
	if (i % 2 == 0) {
		snprintf(name, sizeof(name), "nvb-d%d-d%d", i, pg_nxt(o, i));
		pg_nvlink(o, name, 1);
	} else {
		snprintf(name, sizeof(name), "nvb-d%d-m%d", i, i);
		pg_nvlink(o, name, 1);
		snprintf(name, sizeof(name), "nvb-m%d-d%d", i, pg_nxt(o, i));
		pg_nvlink(o, name, 1);
	}
}

static void routes_mc_star(struct out *o, int i)
{
	char src[32], dst[32], hops[256];
	int n = pg_nxt(o, i);

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "m%d", i);
	snprintf(hops, sizeof(hops), "nv-d%d-m%d:UP dram-m%d", i, i, i);
	pg_route(o, src, dst, true, hops, NULL, NULL);
	/* ring 1 */
	snprintf(src, sizeof(src), "d%d.p1", i);
	snprintf(dst, sizeof(dst), "d%d.p1", n);
	if (i % 2 == 0)
		snprintf(hops, sizeof(hops), "nvb-d%d-d%d:UP", i, n);
	else
		snprintf(hops, sizeof(hops), "nvb-d%d-m%d:UP nvb-m%d-d%d:UP", i, i, i, n);
	pg_route(o, src, dst, pg_hop_sym(o), hops, NULL, NULL);
	/* ring 2 */
	snprintf(src, sizeof(src), "d%d.p2", i);
	snprintf(dst, sizeof(dst), "d%d.p2", n);
	snprintf(hops, sizeof(hops), "nv-d%d-m%d:UP nv-m%d-m%d:UP nv-d%d-m%d:DOWN", i, i, i, n, n, n);
	pg_route(o, src, dst, pg_hop_sym(o), hops, NULL, NULL);
}

static void hop_mc_star(struct out *o, int i, char *hops, size_t len)
{
	snprintf(hops, len, "nv-d%d-d%d:UP", i, pg_nxt(o, i));
}

const struct machine pg_mc_star = { hosts_mc_star, links_mc_star, routes_mc_star, hop_mc_star };
