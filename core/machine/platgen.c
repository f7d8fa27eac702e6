/* SPDX-License-Identifier: MIT */
/*
 * Platform generator.  Every machine is a set of devices d0..dN-1, each
 * with a ring successor d(i+1 mod N); what differs is how the ring hops,
 * the backing store and its links are wired.  Rings are declared in the
 * file (zone properties dlasim.ring.K), so the generated file needs nothing
 * from the generator to be understood: a hand-written file following
 * docs/platforms.md behaves the same.
 *
 * Zone layout: up to `block` devices the platform is one Full zone.  Above,
 * devices go into Full zones of `block` devices and the root zone joins
 * consecutive blocks by zoneRoutes, so routing tables cost
 * O(N * block + (N / block)^2) entries instead of O(N^2).
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

static const char *const topo_names[DL_TOPOLOGIES] = {
	[DL_TOPO_DC] = "dc", [DL_TOPO_DC_GEN4] = "dc-gen4", [DL_TOPO_HC] = "hc",
	[DL_TOPO_MC_STAR] = "mc-star", [DL_TOPO_MC_RING] = "mc-ring",
	[DL_TOPO_SWITCH] = "switch", [DL_TOPO_HC_RING] = "hc-ring",
	[DL_TOPO_NVSWITCH] = "nvswitch", [DL_TOPO_NVL72] = "nvl72", [DL_TOPO_GH200] = "gh200",
	[DL_TOPO_CXL] = "cxl", [DL_TOPO_MC_NVSWITCH] = "mc-nvswitch",
};

/*
 * NVLink generations (docs/platforms.md, "Fabrics of today", with the
 * datasheet of each number): NVLinks per device and their bandwidth per
 * direction, the scale-out NIC of the era's DGX, its PCIe link, its CPU
 * socket's memory bandwidth, devices per NVLink domain and device TDP.
 */
static const struct generation {
	const char *name;
	int links;
	double link_bw, nic_bw, pcie_bw, socket_mem_bw;
	int node_devices;
	double tdp_w;
} generations[DL_GENERATIONS] = {
	[DL_GEN_V100] = { "v100", 6, 25e9, 12.5e9, PCIE_GEN3_BW, XEON_SOCKET_MEM_BW, 16, 300 },
	[DL_GEN_A100] = { "a100", 12, 25e9, 25e9, 32e9, 204.8e9, 8, 400 },
	[DL_GEN_H100] = { "h100", 18, 25e9, 50e9, 64e9, 307.2e9, 8, 700 },
	[DL_GEN_B200] = { "b200", 18, 50e9, 50e9, 64e9, 358.4e9, 8, 1000 },
};

/* Grace: LPDDR5X bandwidth per CPU (GH200 datasheet). */
#define GRACE_MEM_BW 512e9
/* An NVL72 rack: 72 devices in one NVLink domain. */
#define NVL72_DEVICES 72
/* GH200 NVL32: 32 superchips in one NVLink domain. */
#define GH200_DOMAIN 32

const char *dl_generation_name(enum dl_generation gen)
{
	return gen < DL_GENERATIONS ? generations[gen].name : "?";
}

int dl_generation_parse(const char *s, enum dl_generation *gen)
{
	for (int i = 0; i < DL_GENERATIONS; i++) {
		if (strcmp(s, generations[i].name) == 0) {
			*gen = i;
			return 0;
		}
	}
	return -1;
}

/* The family's own parts stay: an NVL72 rack holds 72 devices, a GH200
 * or NVL72 device's memory is its Grace's. */
void dl_platgen_generation(struct dl_platgen *g, enum dl_generation gen)
{
	const struct generation *x = &generations[gen];

	g->generation = gen;
	g->links = x->links;
	g->link_bw = x->link_bw;
	g->nic_bw = x->nic_bw;
	g->pcie_bw = x->pcie_bw;
	g->cpu_mem_bw = x->socket_mem_bw;
	g->node_devices = x->node_devices;
	g->device_tdp_w = x->tdp_w;
	if (g->topology == DL_TOPO_NVL72)
		g->node_devices = NVL72_DEVICES;
	if (g->topology == DL_TOPO_GH200)
		g->node_devices = GH200_DOMAIN;
	if (g->topology == DL_TOPO_NVL72 || g->topology == DL_TOPO_GH200)
		g->cpu_mem_bw = GRACE_MEM_BW;
}

static enum dl_generation default_generation(enum dl_topology t)
{
	switch (t) {
	case DL_TOPO_NVSWITCH: return DL_GEN_A100;
	case DL_TOPO_NVL72: return DL_GEN_B200;
	default: return DL_GEN_H100;
	}
}

const char *dl_topology_name(enum dl_topology t)
{
	return t < DL_TOPOLOGIES ? topo_names[t] : "?";
}

int dl_topology_parse(const char *s, enum dl_topology *t)
{
	for (int i = 0; i < DL_TOPOLOGIES; i++) {
		if (strcmp(s, topo_names[i]) == 0) {
			*t = i;
			return 0;
		}
	}
	return -1;
}

void dl_platgen_defaults(struct dl_platgen *g, enum dl_topology topology, int devices)
{
	memset(g, 0, sizeof(*g));
	g->topology = topology;
	g->devices = devices;
	g->links = 6;
	g->link_bw = 25e9;
	g->link_lat = 1e-6;
	g->dimm_bytes = 128e9;
	g->block = 64;
	g->device_tdp_w = DEVICE_TDP_W;
	g->radix = SWITCH_RADIX;
	g->uplink_bw = UPLINK_BW;
	g->oversubscription = 1;
	if (dl_topology_is_domain(topology)) {
		g->radix = RAIL_LEAF_RADIX;
		dl_platgen_generation(g, default_generation(topology));
	}
}

double dl_socket_memory_bw(const char *name)
{
	if (strcmp(name, "xeon") == 0)
		return XEON_SOCKET_MEM_BW;
	if (strcmp(name, "power9") == 0)
		return POWER9_SOCKET_MEM_BW;
	return 0;
}

/* Up-ports of a leaf switch: its DL_NODE_DEVICES down-ports' worth of
 * bandwidth divided by the oversubscription. */
static int leaf_up_ports(const struct dl_platgen *g)
{
	return (int)ceil(DL_NODE_DEVICES / g->oversubscription);
}

static int check_scale_out(const struct dl_platgen *g)
{
	if (g->topology == DL_TOPO_MC_STAR || g->topology == DL_TOPO_SWITCH)
		return dl_err("platform: --nodes: system nodes are dc, dc-gen4, hc, hc-ring or mc-ring machines inside");
	if (g->devices != g->nodes * DL_NODE_DEVICES)
		return dl_err("platform: --nodes %d makes %d devices (%d per system node), not --devices %d",
			      g->nodes, g->nodes * DL_NODE_DEVICES, DL_NODE_DEVICES, g->devices);
	if (!(g->oversubscription >= 1 && g->oversubscription <= DL_NODE_DEVICES))
		return dl_err("platform: --oversubscription %g: from 1 (non-blocking) to %d",
			      g->oversubscription, DL_NODE_DEVICES);
	if (g->radix < DL_NODE_DEVICES + leaf_up_ports(g))
		return dl_err("platform: --switch-radix %d: a system node's switch needs %d ports (%d devices, %d up)",
			      g->radix, DL_NODE_DEVICES + leaf_up_ports(g), DL_NODE_DEVICES,
			      leaf_up_ports(g));
	if (!(g->uplink_bw > 0))
		return dl_err("platform: --uplink-bandwidth must be greater than zero");
	return 0;
}

/* What the platform reader would refuse; aggregated links carry up to
 * devices x links x B, which must stay finite. */
static int check_ranges(const struct dl_platgen *g)
{
	const struct { const char *option; double bw; } bws[] = {
		{ "--link-bandwidth", g->link_bw }, { "--pcie-bandwidth", g->pcie_bw },
		{ "--cpu-memory-bandwidth", g->cpu_mem_bw },
	};
	const char *why;

	if ((why = dl_platform_latency_range(g->link_lat)))
		return dl_err("platform: --link-latency %gs: %s", g->link_lat, why);
	for (size_t i = 0; i < sizeof(bws) / sizeof(bws[0]); i++) {
		if (bws[i].bw == 0 && i > 0)
			continue;	/* the topology's default */
		if ((why = dl_platform_bandwidth_range(bws[i].bw)))
			return dl_err("platform: %s %gBps: %s", bws[i].option, bws[i].bw, why);
		if (!isfinite(bws[i].bw * g->devices * g->links))
			return dl_err("platform: %s %gBps: too large for the links that aggregate it",
				      bws[i].option, bws[i].bw);
	}
	return 0;
}

/* A host with its device and nothing between devices: the baseline of a
 * scaling study (docs/platforms.md, "One device"). */
static bool one_device_machine(const struct dl_platgen *g)
{
	return !g->nodes && (g->topology == DL_TOPO_DC || g->topology == DL_TOPO_DC_GEN4 ||
			     pg_is_hc(g));
}

static int check_domain(const struct dl_platgen *g)
{
	const char *why;

	if (g->nodes)
		return dl_err("platform: --nodes: %s counts NVLink domains of --node-devices devices",
			      dl_topology_name(g->topology));
	if (g->node_devices < 2 || g->node_devices > NVL72_DEVICES)
		return dl_err("platform: --node-devices %d: from 2 to %d devices per NVLink domain",
			      g->node_devices, NVL72_DEVICES);
	if ((why = dl_platform_bandwidth_range(g->nic_bw)) ||
	    !isfinite(g->nic_bw * g->devices))
		return dl_err("platform: --nic-bandwidth %gBps: %s", g->nic_bw, why ? why : "too large");
	if (g->radix < 2 || g->radix % 2)
		return dl_err("platform: --switch-radix %d: an even number >= 2 (a rail leaf's ports, half down, half up)",
			      g->radix);
	if (!(g->oversubscription >= 1 && g->oversubscription <= g->radix / 2))
		return dl_err("platform: --oversubscription %g: from 1 (non-blocking) to %d",
			      g->oversubscription, g->radix / 2);
	return 0;
}

int dl_platgen_check(const struct dl_platgen *g)
{
	if (g->devices < 1)
		return dl_err("platform: --devices %d: need at least 1 device", g->devices);
	if (g->devices == 1 && !one_device_machine(g))
		return dl_err("platform: --devices 1: only dc, dc-gen4, hc and hc-ring have a one-device machine (the others place memory-nodes or switches between devices)");
	if (g->devices > DL_PLATGEN_MAX_DEVICES)
		return dl_err("platform: --devices %d: at most %d devices", g->devices,
			      DL_PLATGEN_MAX_DEVICES);
	if (g->links < 2 || g->links % 2)
		return dl_err("platform: --links-per-device %d: an even number >= 2 (two per ring)", g->links);
	if (pg_is_hc(g) && g->links < 4)
		return dl_err("platform: hc needs --links-per-device >= 4 (half to the CPU, a ring with the rest)");
	if (g->topology == DL_TOPO_MC_STAR && g->links != 6)
		return dl_err("platform: mc-star is Figure 7(b)'s wiring, defined for --links-per-device 6");
	if (!pg_dimm_option(g->dimm_bytes))
		return dl_err("platform: --dimm: Table IV has 8GB, 16GB, 32GB, 64GB and 128GB DIMMs");
	if (g->block < 0 || (g->block > 0 && g->block < 4) || g->block % 4)
		return dl_err("platform: --block %d: 0 (one zone) or a multiple of 4", g->block);
	if (check_ranges(g))
		return -1;
	if (!(g->device_tdp_w >= 0 && g->device_tdp_w < 1e6))
		return dl_err("platform: --device-tdp %g W: from 0 to 1 MW", g->device_tdp_w);
	if (dl_topology_is_domain(g->topology))
		return check_domain(g);
	if (g->nodes)
		return check_scale_out(g);
	return 0;
}

/* ---- assembling ---- */

static const struct machine *const machines[DL_TOPOLOGIES] = {
	[DL_TOPO_DC] = &pg_dc_hc, [DL_TOPO_DC_GEN4] = &pg_dc_hc, [DL_TOPO_HC] = &pg_dc_hc,
	[DL_TOPO_HC_RING] = &pg_dc_hc,
	[DL_TOPO_MC_STAR] = &pg_mc_star, [DL_TOPO_MC_RING] = &pg_mc_ring,
	[DL_TOPO_SWITCH] = &pg_switch,
	[DL_TOPO_NVSWITCH] = &pg_nvswitch, [DL_TOPO_NVL72] = &pg_nvl72, [DL_TOPO_GH200] = &pg_gh200,
	[DL_TOPO_CXL] = &pg_cxl, [DL_TOPO_MC_NVSWITCH] = &pg_mc_nvswitch,
};

/* The root zone's properties: the rings, and the power of what the
 * hosts do not stand for. */
static void ring_props(struct out *o)
{
	const char *suffix[3] = { "", ".p1", ".p2" };
	int n = o->g->devices;

	bool sockets = o->g->topology == DL_TOPO_DC || o->g->topology == DL_TOPO_DC_GEN4 ||
		       pg_is_hc(o->g) || o->g->topology == DL_TOPO_NVSWITCH;

	fprintf(o->f, "  <prop id=\"dlasim.other-power\" value=\"%gW\"/>\n",
		n * OTHER_POWER_PER_DEVICE_W +
		(sockets ? 0 : (n + DEVICES_PER_SOCKET - 1) / DEVICES_PER_SOCKET * SOCKET_TDP_W));
	for (int k = 0; k < o->rings; k++) {
		const char *sfx = o->g->topology == DL_TOPO_MC_STAR ? suffix[k] : "";

		fprintf(o->f, "  <prop id=\"dlasim.ring.%d\" value=\"", k);
		for (int i = 0; i < n; i++)
			fprintf(o->f, "%sd%d%s", i ? " " : "", i, sfx);
		fprintf(o->f, "\"/>\n");
	}
}

static bool hop_inside(const struct out *o, int i, int lo, int hi)
{
	int j = pg_nxt(o, i);

	return j >= lo && j < hi && (j != 0 || lo == 0);
}

/*
 * Symmetrical zoneRoutes between every pair of sibling zones [first, last)
 * through a switch fabric: zone i (named by zone_fmt) is reached at its
 * gateway (gw_fmt) over its uplink (up_fmt), UP out of the source zone and
 * DOWN into the destination (FATPIPE uplinks have no direction).  Each
 * format takes the zone's number.
 */
static void zone_mesh(struct out *o, int first, int last, const char *zone_fmt,
		      const char *gw_fmt, const char *up_fmt, bool fatpipe)
{
	char src[32], dst[32], zsrc[32], zdst[32], up_a[32], up_b[32], hops[128];

	for (int a = first; a < last; a++) {
		for (int b = a + 1; b < last; b++) {
			snprintf(src, sizeof(src), gw_fmt, a);
			snprintf(dst, sizeof(dst), gw_fmt, b);
			snprintf(zsrc, sizeof(zsrc), zone_fmt, a);
			snprintf(zdst, sizeof(zdst), zone_fmt, b);
			snprintf(up_a, sizeof(up_a), up_fmt, a);
			snprintf(up_b, sizeof(up_b), up_fmt, b);
			snprintf(hops, sizeof(hops), fatpipe ? "%s %s" : "%s:UP %s:DOWN", up_a, up_b);
			pg_route(o, src, dst, true, hops, zsrc, zdst);
		}
	}
}

static void links_of(struct out *o, int lo, int hi)
{
	for (int i = lo; i < hi; i++)
		machines[o->g->topology]->links(o, i);
}

/* The routes of devices [lo, hi) to their own hosts and along the ring. */
static void block_routes(struct out *o, int lo, int hi)
{
	const struct machine *m = machines[o->g->topology];
	char src[32], dst[32], hops[256];

	for (int i = lo; i < hi; i++) {
		if (o->g->topology == DL_TOPO_SWITCH) {
			pg_routes_switch(o, i, lo, hi);
			continue;
		}
		m->routes(o, i);
		if (o->g->devices == 1 || !hop_inside(o, i, lo, hi))
			continue;
		snprintf(src, sizeof(src), "d%d", i);
		snprintf(dst, sizeof(dst), "d%d", pg_nxt(o, i));
		m->hop(o, i, hops, sizeof(hops));
		pg_route(o, src, dst, pg_hop_sym(o), hops, NULL, NULL);
	}
}

/* The hosts and routes of devices [lo, hi), and their links unless the
 * links are declared elsewhere. */
static void block_body(struct out *o, int lo, int hi, bool with_links)
{
	for (int i = lo; i < hi; i++)
		machines[o->g->topology]->hosts(o, i);
	if (with_links)
		links_of(o, lo, hi);
	block_routes(o, lo, hi);
}

static void write_flat(struct out *o)
{
	fprintf(o->f, "<zone id=\"%s\" routing=\"Full\">\n", dl_topology_name(o->g->topology));
	ring_props(o);
	block_body(o, 0, o->g->devices, true);
	fprintf(o->f, "</zone>\n");
}

/*
 * Devices per block zone.  A ring crosses between consecutive blocks, and
 * SimGrid has one zoneRoute per ordered pair of zones: with two blocks the
 * ring would cross between the same pair twice (d(k-1) -> dk and
 * d(N-1) -> d0), which no zoneRoute pair can express for both directions.
 * Ring machines therefore get at least three blocks, each crossing its own
 * pair of zones.  Blocks hold whole CPU sockets (multiples of 4 devices).
 * The switch fabric's blocks are its leaf switches: `block` devices each.
 * Above MAX_BLOCKS x block devices, blocks grow so that there are at most
 * MAX_BLOCKS of them.
 */
static int round_to_sockets(int devices)
{
	return (devices + DEVICES_PER_SOCKET - 1) / DEVICES_PER_SOCKET * DEVICES_PER_SOCKET;
}

static int block_devices(const struct out *o)
{
	int n = o->g->devices, k = o->g->block;

	if (o->g->topology != DL_TOPO_SWITCH && (n + k - 1) / k < 3)
		k = round_to_sockets((n + 2) / 3);
	if ((n + k - 1) / k > MAX_BLOCKS)
		k = round_to_sockets((n + MAX_BLOCKS - 1) / MAX_BLOCKS);
	return k;
}

/*
 * Block zones.  Every link is declared in the first zone of the root, a
 * zone of links only (`links`): SimGrid finds a link named in a route by
 * searching the root zone and then every zone in document order, so links
 * spread over N / block zones would make loading the platform quadratic in
 * N.  (SimGrid's grammar does not let a zone declare links before its
 * sub-zones.)
 */
static void write_blocks(struct out *o)
{
	int n = o->g->devices, k = block_devices(o), nb = (n + k - 1) / k;
	char src[32], dst[32], zsrc[32], zdst[32], hops[256], name[64];

	fprintf(o->f, "<zone id=\"%s\" routing=\"Full\">\n", dl_topology_name(o->g->topology));
	ring_props(o);
	fprintf(o->f, "  <zone id=\"links\" routing=\"Full\">\n");
	links_of(o, 0, n);
	if (o->g->topology == DL_TOPO_SWITCH) {
		/* Non-blocking spine: each leaf's uplink carries all its devices. */
		for (int b = 0; b < nb; b++) {
			snprintf(name, sizeof(name), "nv-sw%d-spine", b);
			pg_nvlink(o, name, o->g->links * k);
		}
	}
	fprintf(o->f, "  </zone>\n");
	for (int b = 0; b < nb; b++) {
		int lo = b * k, hi = lo + k < n ? lo + k : n;

		fprintf(o->f, "  <zone id=\"block%d\" routing=\"Full\">\n", b);
		block_body(o, lo, hi, false);
		fprintf(o->f, "  </zone>\n");
	}
	if (o->g->topology == DL_TOPO_SWITCH) {
		zone_mesh(o, 0, nb, "block%d", "sw%d", "nv-sw%d-spine", false);
	} else {
		/* The ring hop leaving each block; its reverse (symmetrical)
		 * takes the DOWN halves of the same links, as inside a block. */
		for (int b = 0; b < nb; b++) {
			int i = (b + 1) * k < n ? (b + 1) * k - 1 : n - 1;

			snprintf(src, sizeof(src), "d%d", i);
			snprintf(dst, sizeof(dst), "d%d", pg_nxt(o, i));
			snprintf(zsrc, sizeof(zsrc), "block%d", b);
			snprintf(zdst, sizeof(zdst), "block%d", (b + 1) % nb);
			machines[o->g->topology]->hop(o, i, hops, sizeof(hops));
			pg_route(o, src, dst, true, hops, zsrc, zdst);
		}
	}
	fprintf(o->f, "</zone>\n");
}

/*
 * Scale-out (Figure 15): system nodes of DL_NODE_DEVICES devices, each the
 * machine of the topology inside (its rings close inside the node, its
 * memory stays there), joined by device-side switches as a folded Clos:
 * every device has an uplink of uplink_bw to its node's switch (`swA`),
 * which reaches device pairs of the node that are not ring neighbours; a
 * pod of `radix` nodes shares a spine (`spineP`), reached by each node
 * switch over 8 x uplink_bw / oversubscription; pods join through a
 * non-blocking core.  The spine and core are fluid aggregates of the
 * switches they stand for (docs/platforms.md).  Zones: root > pods > nodes
 * (and each pod's spine), so routes cost O(N) declarations.
 *
 * A stage whose capacity equals the sum of the links feeding it can never
 * be a flow's bottleneck (the pods' uplinks always, the node switches'
 * without oversubscription): such links are FATPIPE, which bounds each
 * flow alone instead of tying every flow of the plane into one max-min
 * problem, and give the same rates.
 */
static bool leaf_fatpipe(const struct dl_platgen *g)
{
	return g->oversubscription == 1;
}

static void fatpipe(struct out *o, const char *name, double bw, const char *lat)
{
	pg_fatpipe(o, name, bw, lat, "nvlink");
}

static void uplink_links(struct out *o)
{
	const struct dl_platgen *g = o->g;
	double leaf_up = DL_NODE_DEVICES * g->uplink_bw / g->oversubscription;
	int lanes = (int)fmax(1, round(g->uplink_bw / g->link_bw)), pod = g->radix;
	char name[64], lat[64];

	pg_lat_text(g->link_lat, lat, sizeof(lat));
	for (int i = 0; i < g->devices; i++) {
		snprintf(name, sizeof(name), "up-d%d", i);
		pg_link(o, name, g->uplink_bw, lat, true, "nvlink", lanes);
	}
	for (int a = 0; a < g->nodes; a++) {
		snprintf(name, sizeof(name), "up-sw%d", a);
		if (leaf_fatpipe(g))
			fatpipe(o, name, leaf_up, lat);
		else
			pg_link(o, name, leaf_up, lat, true, "nvlink", 1);
	}
	for (int p = 0; p * pod < g->nodes; p++) {
		int members = g->nodes - p * pod < pod ? g->nodes - p * pod : pod;

		snprintf(name, sizeof(name), "up-spine%d", p);
		fatpipe(o, name, members * leaf_up, lat);
	}
}

static bool ring_neighbours(const struct out *o, int i, int j)
{
	return pg_nxt(o, i) == j || pg_nxt(o, j) == i;
}

static void system_node(struct out *o, int a)
{
	int lo = a * DL_NODE_DEVICES, hi = lo + DL_NODE_DEVICES;
	char sw[32], src[32], dst[32], hops[128];

	snprintf(sw, sizeof(sw), "sw%d", a);
	fprintf(o->f, "    <zone id=\"node%d\" routing=\"Full\">\n", a);
	for (int i = lo; i < hi; i++)
		machines[o->g->topology]->hosts(o, i);
	pg_host(o, sw, HOST_SPEED, "switch", NULL);
	block_routes(o, lo, hi);
	for (int i = lo; i < hi; i++) {
		snprintf(src, sizeof(src), "d%d", i);
		snprintf(hops, sizeof(hops), "up-d%d:UP", i);
		pg_route(o, src, sw, true, hops, NULL, NULL);
		for (int j = i + 1; j < hi; j++) {
			if (ring_neighbours(o, i, j))
				continue;
			snprintf(dst, sizeof(dst), "d%d", j);
			snprintf(hops, sizeof(hops), "up-d%d:UP up-d%d:DOWN", i, j);
			pg_route(o, src, dst, true, hops, NULL, NULL);
		}
	}
	fprintf(o->f, "    </zone>\n");
}

static void pod(struct out *o, int p)
{
	int first = p * o->g->radix, last = first + o->g->radix;
	char src[32], dst[32], zsrc[32], zdst[32], hops[128];

	if (last > o->g->nodes)
		last = o->g->nodes;
	fprintf(o->f, "  <zone id=\"pod%d\" routing=\"Full\">\n", p);
	for (int a = first; a < last; a++)
		system_node(o, a);
	fprintf(o->f, "    <zone id=\"pod%d-spine\" routing=\"Full\">\n", p);
	snprintf(dst, sizeof(dst), "spine%d", p);
	pg_host(o, dst, HOST_SPEED, "switch", NULL);
	fprintf(o->f, "    </zone>\n");
	for (int a = first; a < last; a++) {
		snprintf(src, sizeof(src), "sw%d", a);
		snprintf(zsrc, sizeof(zsrc), "node%d", a);
		snprintf(zdst, sizeof(zdst), "pod%d-spine", p);
		snprintf(hops, sizeof(hops), leaf_fatpipe(o->g) ? "up-sw%d" : "up-sw%d:UP", a);
		pg_route(o, src, dst, true, hops, zsrc, zdst);
	}
	zone_mesh(o, first, last, "node%d", "sw%d", "up-sw%d", leaf_fatpipe(o->g));
	fprintf(o->f, "  </zone>\n");
}

static void write_scale_out(struct out *o)
{
	int npods = (o->g->nodes + o->g->radix - 1) / o->g->radix;

	fprintf(o->f, "<zone id=\"%s-scale-out\" routing=\"Full\">\n", dl_topology_name(o->g->topology));
	ring_props(o);
	fprintf(o->f, "  <zone id=\"links\" routing=\"Full\">\n");
	links_of(o, 0, o->g->devices);
	uplink_links(o);
	fprintf(o->f, "  </zone>\n");
	for (int p = 0; p < npods; p++)
		pod(o, p);
	zone_mesh(o, 0, npods, "pod%d", "spine%d", "up-spine%d", true);
	fprintf(o->f, "</zone>\n");
}

int dl_platgen_write(const struct dl_platgen *g, FILE *f)
{
	struct out o = { .f = f, .g = g };
	char bw[64], lat[64];

	if (dl_platgen_check(g))
		return -1;
	switch (g->topology) {
	case DL_TOPO_HC:
	case DL_TOPO_HC_RING:
		o.cpu_links = g->links / 2;
		o.rings = (g->links - o.cpu_links) / 2;
		break;
	case DL_TOPO_MC_STAR:
		o.rings = 3;
		break;
	default:
		o.rings = g->links / 2;
	}
	if (g->devices == 1)
		o.rings = 0;	/* no device to talk to */
	pg_bw_text(g->link_bw, bw, sizeof(bw));
	pg_lat_text(g->link_lat, lat, sizeof(lat));
	fprintf(f, "<?xml version='1.0'?>\n"
		"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
		"<!-- generated by dlasim platform: topology %s, %d devices, %d links per"
		" device of %s and %s; conventions in docs/platforms.md -->\n"
		"<platform version=\"4.1\">\n",
		dl_topology_name(g->topology), g->devices, g->links, bw, lat);
	if (dl_topology_is_domain(g->topology)) {
		fprintf(f, "<zone id=\"%s\" routing=\"Full\">\n", dl_topology_name(g->topology));
		ring_props(&o);
		pg_write_rail(&o, machines[g->topology]);
		fprintf(f, "</zone>\n");
	} else if (g->nodes) {
		write_scale_out(&o);
	} else if (g->block && g->devices > g->block && g->topology != DL_TOPO_MC_STAR) {
		write_blocks(&o);
	} else {
		write_flat(&o);
	}
	fprintf(f, "</platform>\n");
	return 0;
}
