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

static int shares(const struct out *o, int i)
{
	return pg_dom_size(o->g, i) < MEMNODE_SHARES ? pg_dom_size(o->g, i) : MEMNODE_SHARES;
}

/* The k-th memory-node of device i's backing: round its domain. */
static int memnode(const struct out *o, int i, int k)
{
	return i - pg_dom_local(o->g, i) + (pg_dom_local(o->g, i) + k) % pg_dom_size(o->g, i);
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
	for (int k = 0; k < shares(o, i); k++)
		pg_route_store(o, i, "nv", "m", memnode(o, i, k));
}

const struct machine pg_mc_nvswitch = { hosts_mc_nvswitch, links_mc_nvswitch, routes_mc_nvswitch, NULL };
