/* SPDX-License-Identifier: MIT */
/*
 * CXL memory pool (cxl, docs/platforms.md): the devices of a domain reach
 * a pool of CXL memory expanders through a CXL switch, each over its own
 * x16 link (PCIe 5.0 signalling); the pool is their backing store, the
 * memory-nodes' present form over a slower fabric.  The switch is its
 * links: no traffic ends there.
 */
#include "platgen.h"

#include <stdbool.h>
#include <stdio.h>

#include "platgen_parts.h"

/* One expander per two devices; each holds 512 GB behind four DDR5-4800
 * channels (4 x 38.4 GB/s), more than its x16 link carries. */
#define DEVICES_PER_EXPANDER 2
#define EXPANDER_DRAM_BW 153.6e9
#define EXPANDER_BYTES "512000000000B"
#define CXL_LAT "1us"

/* Expanders per domain, numbered as if every domain were whole. */
static int expanders(const struct out *o)
{
	return (pg_dom_devices(o->g) + DEVICES_PER_EXPANDER - 1) / DEVICES_PER_EXPANDER;
}

/* Expanders of device i's domain: fewer in a short last domain. */
static int pool_of(const struct out *o, int i)
{
	return (pg_dom_size(o->g, i) + DEVICES_PER_EXPANDER - 1) / DEVICES_PER_EXPANDER;
}

/* Expander k of device i's domain. */
static int expander(const struct out *o, int i, int k)
{
	return pg_dom_of(o->g, i) * expanders(o) + k;
}

/* The pool in the order the device prefers it: its own expander first,
 * then round the pool. */
static void hosts_cxl(struct out *o, int i)
{
	char backing[1024], name[32];
	int n = 0, own = pg_dom_local(o->g, i) / DEVICES_PER_EXPANDER;

	for (int k = 0; k < pool_of(o, i); k++)
		n += snprintf(backing + n, sizeof(backing) - n, "%sp%d", k ? " " : "",
			      expander(o, i, (own + k) % pool_of(o, i)));
	pg_device(o, i, backing);
	if (pg_dom_local(o->g, i) % DEVICES_PER_EXPANDER == 0) {
		snprintf(name, sizeof(name), "p%d", expander(o, i, own));
		pg_host(o, name, HOST_SPEED, "memory", "dlasim.memory-node", name,
			"dlasim.capacity", EXPANDER_BYTES, NULL);
	}
}

static void links_cxl(struct out *o, int i)
{
	char name[64];
	int own = pg_dom_local(o->g, i) / DEVICES_PER_EXPANDER;

	snprintf(name, sizeof(name), "cxl-d%d", i);
	pg_link(o, name, o->g->pcie_bw, CXL_LAT, true, "pcie", 1);
	if (pg_dom_local(o->g, i) % DEVICES_PER_EXPANDER)
		return;
	snprintf(name, sizeof(name), "cxl-p%d", expander(o, i, own));
	pg_link(o, name, o->g->pcie_bw, CXL_LAT, true, "pcie", 1);
	snprintf(name, sizeof(name), "dram-p%d", expander(o, i, own));
	pg_link(o, name, EXPANDER_DRAM_BW, DRAM_LAT, false, "dram", 1);
}

static void routes_cxl(struct out *o, int i)
{
	for (int k = 0; k < pool_of(o, i); k++)
		pg_route_store(o, i, "cxl", "p", expander(o, i, k));
}

const struct machine pg_cxl = { hosts_cxl, links_cxl, routes_cxl, NULL };
