/* SPDX-License-Identifier: MIT */
/*
 * Memory-nodes on the NVSwitch plane (mc-nvswitch, docs/platforms.md):
 * MC-DLA on today's switch.  Every device has a memory-node of Table IV
 * on the same plane, with as many links into it as a device; a device's
 * backing store is its own memory-node first, then the next ones of its
 * domain (up to MEMNODE_SHARES), which BW_AWARE spreads its pages over.
 */
#include "platgen.h"

#include <stdbool.h>
#include <stdio.h>

#include "platgen_parts.h"

#define MEMNODE_SHARES 8

/* Devices (and memory-nodes) of device i's domain; the last may be short. */
static int dom_size(const struct out *o, int i)
{
	int lo = i - pg_dom_local(o->g, i), size = pg_dom_devices(o->g);

	return lo + size > o->g->devices ? o->g->devices - lo : size;
}

static int shares(const struct out *o, int i)
{
	return dom_size(o, i) < MEMNODE_SHARES ? dom_size(o, i) : MEMNODE_SHARES;
}

/* The k-th memory-node of device i's backing: round its domain. */
static int memnode(const struct out *o, int i, int k)
{
	return i - pg_dom_local(o->g, i) + (pg_dom_local(o->g, i) + k) % dom_size(o, i);
}

static void hosts_mc_nvswitch(struct out *o, int i)
{
	const struct dimm_option *d = pg_dimm_option(o->g->dimm_bytes);
	char backing[512], name[32], cap[64], tdp[64];
	int n = 0;

	for (int k = 0; k < shares(o, i); k++)
		n += snprintf(backing + n, sizeof(backing) - n, "%sm%d", k ? " " : "", memnode(o, i, k));
	pg_device(o, i, backing);
	snprintf(name, sizeof(name), "m%d", i);
	snprintf(cap, sizeof(cap), "%.17gB", d->bytes * DIMMS_PER_MEMNODE);
	snprintf(tdp, sizeof(tdp), "%gW", d->node_tdp_w);
	pg_host(o, name, HOST_SPEED, "memory", "dlasim.memory-node", name, "dlasim.capacity", cap,
		"dlasim.tdp", tdp, NULL);
}

static void links_mc_nvswitch(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "nv-m%d", i);
	pg_nvlink(o, name, o->g->links);
	snprintf(name, sizeof(name), "dram-m%d", i);
	pg_link(o, name, MEMNODE_DIMM_BW, DRAM_LAT, false, "dram", 1);
}

static void routes_mc_nvswitch(struct out *o, int i)
{
	char src[32], dst[32], hops[256];

	snprintf(src, sizeof(src), "d%d", i);
	for (int k = 0; k < shares(o, i); k++) {
		int m = memnode(o, i, k);

		snprintf(dst, sizeof(dst), "m%d", m);
		snprintf(hops, sizeof(hops), "nv-d%d:UP nv-m%d:DOWN dram-m%d", i, m, m);
		pg_route(o, src, dst, true, hops, NULL, NULL);
	}
}

const struct machine pg_mc_nvswitch = { hosts_mc_nvswitch, links_mc_nvswitch, routes_mc_nvswitch, NULL };
