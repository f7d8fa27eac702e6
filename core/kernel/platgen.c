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

#include "diag.h"
#include "platform.h"
#include "units.h"

/* Table II and Section IV of the memory-centric paper. */
#define DEVICE_SPEED "256Tf"		/* 1024 PEs x 125 MACs x 2 flop x 1 GHz */
#define HOST_SPEED "1Gf"		/* CPUs, switches, memory-nodes: no compute modelled */
#define PCIE_GEN3_BW 16e9		/* x16, per direction */
#define PCIE_LAT "1us"
#define XEON_SOCKET_MEM_BW 80e9		/* high-end Xeon socket, Section II-C [38] */
#define POWER9_SOCKET_MEM_BW 120e9	/* IBM Power9 socket, Section II-C [39] */
#define MEMNODE_DIMM_BW 256e9		/* ten PC4-25600 DIMMs */
#define DRAM_LAT "100ns"		/* 100 cycles at 1 GHz */
#define DEVICES_PER_SOCKET 4
#define DEVICES_PER_PCIE_SWITCH 2
#define DIMMS_PER_MEMNODE 10
/*
 * Power (docs/model.md, "Power"): the DGX-1 with V100s the paper's DC-DLA
 * is modelled after has a TDP of 3200 W, its eight V100 (SXM2) 300 W each
 * (Section V-C); its two Xeon E5-2698 v4 sockets 135 W each (Intel's
 * datasheet); the 530 W left (fans, DRAM, NICs, storage, conversion) are
 * counted per device, 66.25 W.  Machines whose sockets are not hosts of
 * the platform (MC-DLA, switch) count them in that rest.
 */
#define DEVICE_TDP_W 300
#define SOCKET_TDP_W 135
#define SOCKET_TDP "135W"
#define OTHER_POWER_PER_DEVICE_W 66.25
/* SimGrid searches every zone when it declares a host and scans every
 * host when it seals a zone: loading costs N x zones. */
#define MAX_BLOCKS 256
/* Scale-out defaults: an NVSwitch has 18 NVLink ports; a DGX-2 gives each
 * of its GPUs 6 NVLinks of 25 GB/s (150 GB/s) into a non-blocking switch
 * plane (docs/platforms.md). */
#define SWITCH_RADIX 18
#define UPLINK_BW 150e9

static const char *const topo_names[DL_TOPOLOGIES] = {
	[DL_TOPO_DC] = "dc", [DL_TOPO_DC_GEN4] = "dc-gen4", [DL_TOPO_HC] = "hc",
	[DL_TOPO_MC_STAR] = "mc-star", [DL_TOPO_MC_RING] = "mc-ring",
	[DL_TOPO_SWITCH] = "switch", [DL_TOPO_HC_RING] = "hc-ring",
};

/* HC-DLA, in the paper's accounting or as one ring (docs/platforms.md). */
static bool is_hc(enum dl_topology t)
{
	return t == DL_TOPO_HC || t == DL_TOPO_HC_RING;
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

/* Table IV: DDR4 DIMM options of a memory-node, ten DIMMs each. */
struct dimm_option {
	double bytes;
	double node_tdp_w;
};

static const struct dimm_option dimm_options[] = {
	{ 8e9, 29 }, { 16e9, 66 }, { 32e9, 87 }, { 64e9, 102 }, { 128e9, 127 },
};

static const struct dimm_option *dimm_option(double bytes)
{
	for (size_t i = 0; i < sizeof(dimm_options) / sizeof(dimm_options[0]); i++)
		if (dimm_options[i].bytes == bytes)
			return &dimm_options[i];
	return NULL;
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
			     is_hc(g->topology));
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
	if (is_hc(g->topology) && g->links < 4)
		return dl_err("platform: hc needs --links-per-device >= 4 (half to the CPU, a ring with the rest)");
	if (g->topology == DL_TOPO_MC_STAR && g->links != 6)
		return dl_err("platform: mc-star is Figure 7(b)'s wiring, defined for --links-per-device 6");
	if (!dimm_option(g->dimm_bytes))
		return dl_err("platform: --dimm: Table IV has 8GB, 16GB, 32GB, 64GB and 128GB DIMMs");
	if (g->block < 0 || (g->block > 0 && g->block < 4) || g->block % 4)
		return dl_err("platform: --block %d: 0 (one zone) or a multiple of 4", g->block);
	if (check_ranges(g))
		return -1;
	if (!(g->device_tdp_w >= 0 && g->device_tdp_w < 1e6))
		return dl_err("platform: --device-tdp %g W: from 0 to 1 MW", g->device_tdp_w);
	if (g->nodes)
		return check_scale_out(g);
	return 0;
}

/* ---- XML output ---- */

struct out {
	FILE *f;
	const struct dl_platgen *g;
	int rings;		/* device rings declared */
	int cpu_links;		/* hc: links per device to its socket */
};

static void bw_text(double bps, char *buf, size_t len)
{
	if (bps >= 1e9 && bps / 1e9 == (double)(long long)(bps / 1e9))
		snprintf(buf, len, "%.0fGBps", bps / 1e9);
	else
		snprintf(buf, len, "%.17gBps", bps);
}

static void lat_text(double s, char *buf, size_t len)
{
	if (s == 0)
		snprintf(buf, len, "0s");
	else if (s * 1e9 == (double)(long long)(s * 1e9))
		snprintf(buf, len, "%.0fns", s * 1e9);
	else
		snprintf(buf, len, "%.17gs", s);
}

/* <host> with its role and more properties: key, value, ..., NULL. */
static void host(struct out *o, const char *name, const char *speed, const char *role, ...)
{
	FILE *f = o->f;
	const char *k;
	va_list ap;

	fprintf(f, "    <host id=\"%s\" speed=\"%s\">\n", name, speed);
	fprintf(f, "      <prop id=\"dlasim.role\" value=\"%s\"/>\n", role);
	va_start(ap, role);
	while ((k = va_arg(ap, const char *)))
		fprintf(f, "      <prop id=\"%s\" value=\"%s\"/>\n", k, va_arg(ap, const char *));
	va_end(ap);
	fprintf(f, "    </host>\n");
}

static void link(struct out *o, const char *name, double bw, const char *lat,
		 bool splitduplex, const char *cls, int lanes)
{
	char b[64];

	bw_text(bw, b, sizeof(b));
	fprintf(o->f, "    <link id=\"%s\" bandwidth=\"%s\" latency=\"%s\"%s>\n", name, b, lat,
		splitduplex ? " sharing_policy=\"SPLITDUPLEX\"" : "");
	fprintf(o->f, "      <prop id=\"dlasim.class\" value=\"%s\"/>\n", cls);
	if (lanes > 1)
		fprintf(o->f, "      <prop id=\"dlasim.lanes\" value=\"%d\"/>\n", lanes);
	fprintf(o->f, "    </link>\n");
}

static void nvlink(struct out *o, const char *name, int lanes)
{
	char lat[64];

	lat_text(o->g->link_lat, lat, sizeof(lat));
	link(o, name, lanes * o->g->link_bw, lat, true, "nvlink", lanes);
}

/*
 * A route: `hops` is a space-separated list of link names, each followed by
 * ":UP" or ":DOWN" when the link is SPLITDUPLEX.  `zone_route` gives the
 * gateways of a zoneRoute between two blocks.
 */
static void route(struct out *o, const char *src, const char *dst, bool sym, const char *hops,
		  const char *zsrc, const char *zdst)
{
	char copy[512], *save = NULL;

	if (zsrc)
		fprintf(o->f, "    <zoneRoute src=\"%s\" dst=\"%s\" gw_src=\"%s\" gw_dst=\"%s\"%s>",
			zsrc, zdst, src, dst, sym ? "" : " symmetrical=\"NO\"");
	else
		fprintf(o->f, "    <route src=\"%s\" dst=\"%s\"%s>", src, dst,
			sym ? "" : " symmetrical=\"NO\"");
	snprintf(copy, sizeof(copy), "%s", hops);
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *dir = strchr(t, ':');

		if (dir)
			*dir++ = '\0';
		fprintf(o->f, "<link_ctn id=\"%s\"%s%s%s/>", t, dir ? " direction=\"" : "",
			dir ? dir : "", dir ? "\"" : "");
	}
	fprintf(o->f, "</%s>\n", zsrc ? "zoneRoute" : "route");
}

/* ---- the machines ---- */

/* Ring successor and predecessor inside the machine: the whole platform,
 * or the device's system node when scaled out. */
static int nxt(const struct out *o, int i)
{
	int n = o->g->nodes ? DL_NODE_DEVICES : o->g->devices;

	return i - i % n + (i % n + 1) % n;
}

static int prv(const struct out *o, int i)
{
	int n = o->g->nodes ? DL_NODE_DEVICES : o->g->devices;

	return i - i % n + (i % n + n - 1) % n;
}

/* Ring hops are symmetrical routes except on 2 devices, where the hop
 * back is a route of its own over other links. */
static bool hop_sym(const struct out *o)
{
	return o->g->nodes || o->g->devices > 2;
}

/* A device; scaled out, dlasim.node names its system node. */
static void device(struct out *o, int i, const char *backing)
{
	char name[32], tdp[64], node[32];
	const char *k = NULL;

	snprintf(name, sizeof(name), "d%d", i);
	snprintf(tdp, sizeof(tdp), "%gW", o->g->device_tdp_w);
	snprintf(node, sizeof(node), "node%d", i / DL_NODE_DEVICES);
	if (o->g->nodes)
		k = "dlasim.node";
	if (backing)
		host(o, name, DEVICE_SPEED, "device", "dlasim.tdp", tdp, "dlasim.backing", backing,
		     k, node, NULL);
	else
		host(o, name, DEVICE_SPEED, "device", "dlasim.tdp", tdp, k, node, NULL);
}

/*
 * DC-DLA and HC-DLA: the CPU socket of device i.  A PCIe switch is no
 * host: no traffic starts or ends there, and it is its shared uplink
 * (links_dc_hc), while every host costs SimGrid a search of every zone
 * when the platform loads.
 */
static void socket_hosts(struct out *o, int i)
{
	char name[32];

	if (i % DEVICES_PER_SOCKET == 0) {
		snprintf(name, sizeof(name), "cpu%d", i / DEVICES_PER_SOCKET);
		host(o, name, HOST_SPEED, "cpu", "dlasim.tdp", SOCKET_TDP, NULL);
	}
}

static void hosts_dc_hc(struct out *o, int i)
{
	char backing[32];

	snprintf(backing, sizeof(backing), "cpu%d", i / DEVICES_PER_SOCKET);
	device(o, i, backing);
	socket_hosts(o, i);
}

/* The device's PCIe link: gen3 x16, or gen4 (both directions doubled). */
static double pcie_bw(const struct out *o)
{
	if (o->g->pcie_bw > 0)
		return o->g->pcie_bw;
	return o->g->topology == DL_TOPO_DC_GEN4 ? 2 * PCIE_GEN3_BW : PCIE_GEN3_BW;
}

/* A PCIe switch's uplink to its socket: of the same generation as the
 * device links unless given (a gen4 device behind a gen3 switch). */
static double pcie_uplink_bw(const struct out *o)
{
	return o->g->pcie_uplink_bw > 0 ? o->g->pcie_uplink_bw : pcie_bw(o);
}

static double socket_mem_bw(const struct out *o)
{
	if (o->g->cpu_mem_bw > 0)
		return o->g->cpu_mem_bw;
	/* HC-DLA: enough for the four devices' links (Section IV: 4 x 3 x B). */
	if (is_hc(o->g->topology))
		return DEVICES_PER_SOCKET * o->cpu_links * o->g->link_bw;
	return XEON_SOCKET_MEM_BW;
}

/*
 * HC-DLA's device side: L - L/2 links per device (3 for L = 6).
 *
 * `hc` (the reproduction point) counts them as the paper does (Section
 * V-A: half the links, 1.5 rings): one ring whose every hop carries
 * (L - L/2) / 2 x B per direction, 37.5 GB/s.  `hc-ring` wires them: a
 * ring takes two of a device's links (one to each neighbour), so they
 * form (L - L/2) / 2 whole rings (one); an odd link left on every device
 * pairs device 2k with 2k+1, doubling every other hop, and a ring runs at
 * its slowest hop, B.
 */
static int hc_ring_hop_lanes(const struct out *o, int i)
{
	int side = o->g->links - o->cpu_links;

	return side / 2 + (side % 2 && i % 2 == 0 && nxt(o, i) == i + 1);
}

static void hc_hop_link(struct out *o, const char *name, int i)
{
	char lat[64];
	int side = o->g->links - o->cpu_links;

	if (o->g->topology == DL_TOPO_HC_RING) {
		nvlink(o, name, hc_ring_hop_lanes(o, i));
		return;
	}
	lat_text(o->g->link_lat, lat, sizeof(lat));
	link(o, name, side * o->g->link_bw / 2, lat, true, "nvlink", side % 2 ? 0 : side / 2);
}

static void links_dc_hc(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "nv-d%d-d%d", i, nxt(o, i));
	if (o->g->devices > 1 && is_hc(o->g->topology))
		hc_hop_link(o, name, i);
	else if (o->g->devices > 1)
		nvlink(o, name, o->rings);
	if (i % DEVICES_PER_SOCKET == 0) {
		snprintf(name, sizeof(name), "dram-cpu%d", i / DEVICES_PER_SOCKET);
		link(o, name, socket_mem_bw(o), DRAM_LAT, false, "dram", 1);
	}
	if (is_hc(o->g->topology)) {
		snprintf(name, sizeof(name), "nv-d%d-cpu%d", i, i / DEVICES_PER_SOCKET);
		nvlink(o, name, o->cpu_links);
		return;
	}
	snprintf(name, sizeof(name), "pcie-d%d", i);
	link(o, name, pcie_bw(o), PCIE_LAT, true, "pcie", 1);
	if (i % DEVICES_PER_PCIE_SWITCH == 0) {
		snprintf(name, sizeof(name), "pcie-up%d", i / DEVICES_PER_PCIE_SWITCH);
		link(o, name, pcie_uplink_bw(o), PCIE_LAT, true, "pcie", 1);
	}
}

static void routes_dc_hc(struct out *o, int i)
{
	char src[32], dst[32], hops[256];
	int s = i / DEVICES_PER_SOCKET;

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "cpu%d", s);
	if (is_hc(o->g->topology))
		snprintf(hops, sizeof(hops), "nv-d%d-cpu%d:UP dram-cpu%d", i, s, s);
	else
		snprintf(hops, sizeof(hops), "pcie-d%d:UP pcie-up%d:UP dram-cpu%d", i,
			 i / DEVICES_PER_PCIE_SWITCH, s);
	route(o, src, dst, true, hops, NULL, NULL);
}

static void hop_dc_hc(struct out *o, int i, char *hops, size_t len)
{
	snprintf(hops, len, "nv-d%d-d%d:UP", i, nxt(o, i));
}

/*
 * MC-DLA ring (Figure 7(c)): memory-node mi sits between di and di+1 on
 * every ring.  Each half of mi is a host of its own (its DMA engine, memory
 * controller and DIMMs serve one device exclusively): mi.0 serves di,
 * mi.1 serves di+1.  A half lives in the zone of the device it serves.
 */
static void memory_half(struct out *o, int node, int half)
{
	const struct dimm_option *d = dimm_option(o->g->dimm_bytes);
	char name[32], cap[64], tdp[64], node_name[32];

	snprintf(name, sizeof(name), "m%d.%d", node, half);
	snprintf(node_name, sizeof(node_name), "m%d", node);
	snprintf(cap, sizeof(cap), "%.17gB", d->bytes * DIMMS_PER_MEMNODE / 2);
	snprintf(tdp, sizeof(tdp), "%gW", d->node_tdp_w / 2);
	host(o, name, HOST_SPEED, "memory", "dlasim.memory-node", node_name,
	     "dlasim.capacity", cap, "dlasim.tdp", tdp, NULL);
}

static void hosts_mc_ring(struct out *o, int i)
{
	char backing[64];

	snprintf(backing, sizeof(backing), "m%d.1 m%d.0", prv(o, i), i);
	device(o, i, backing);
	memory_half(o, i, 0);
	memory_half(o, prv(o, i), 1);
}

static void links_mc_ring(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "nv-d%d-m%d", i, i);
	nvlink(o, name, o->rings);
	snprintf(name, sizeof(name), "nv-m%d-d%d", prv(o, i), i);
	nvlink(o, name, o->rings);
	snprintf(name, sizeof(name), "dram-m%d.0", i);
	link(o, name, MEMNODE_DIMM_BW / 2, DRAM_LAT, false, "dram", 1);
	snprintf(name, sizeof(name), "dram-m%d.1", prv(o, i));
	link(o, name, MEMNODE_DIMM_BW / 2, DRAM_LAT, false, "dram", 1);
}

static void routes_mc_ring(struct out *o, int i)
{
	char src[32], dst[32], hops[256];

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "m%d.0", i);
	snprintf(hops, sizeof(hops), "nv-d%d-m%d:UP dram-m%d.0", i, i, i);
	route(o, src, dst, true, hops, NULL, NULL);
	snprintf(dst, sizeof(dst), "m%d.1", prv(o, i));
	snprintf(hops, sizeof(hops), "nv-m%d-d%d:DOWN dram-m%d.1", prv(o, i), i, prv(o, i));
	route(o, src, dst, true, hops, NULL, NULL);
}

static void hop_mc_ring(struct out *o, int i, char *hops, size_t len)
{
	snprintf(hops, len, "nv-d%d-m%d:UP nv-m%d-d%d:UP", i, i, i, nxt(o, i));
}

/*
 * MC-DLA(S) (Figure 7(b)): each device reaches its own memory-node mi over
 * two links; ring 0 joins the devices directly; ring 1 passes through mi on
 * every odd hop; ring 2 reuses the memory links, di -> mi -> mi+1 -> di+1.
 * Rings 1 and 2 need their own routes between the same devices, so their
 * members are port hosts of the devices (di.p1, di.p2).
 */
static void hosts_mc_star(struct out *o, int i)
{
	const struct dimm_option *d = dimm_option(o->g->dimm_bytes);
	char name[32], of[32], cap[64], tdp[64], backing[32];

	snprintf(backing, sizeof(backing), "m%d", i);
	device(o, i, backing);
	snprintf(of, sizeof(of), "d%d", i);
	for (int p = 1; p <= 2; p++) {
		snprintf(name, sizeof(name), "d%d.p%d", i, p);
		host(o, name, HOST_SPEED, "port", "dlasim.port-of", of, NULL);
	}
	snprintf(name, sizeof(name), "m%d", i);
	snprintf(cap, sizeof(cap), "%.17gB", d->bytes * DIMMS_PER_MEMNODE);
	snprintf(tdp, sizeof(tdp), "%gW", d->node_tdp_w);
	host(o, name, HOST_SPEED, "memory", "dlasim.memory-node", name, "dlasim.capacity", cap,
	     "dlasim.tdp", tdp, NULL);
}

static void links_mc_star(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "nv-d%d-d%d", i, nxt(o, i));
	nvlink(o, name, 1);
	snprintf(name, sizeof(name), "nv-d%d-m%d", i, i);
	nvlink(o, name, 2);
	snprintf(name, sizeof(name), "dram-m%d", i);
	link(o, name, MEMNODE_DIMM_BW, DRAM_LAT, false, "dram", 1);
	snprintf(name, sizeof(name), "nv-m%d-m%d", i, nxt(o, i));
	nvlink(o, name, 1);
	if (i % 2 == 0) {
		snprintf(name, sizeof(name), "nvb-d%d-d%d", i, nxt(o, i));
		nvlink(o, name, 1);
	} else {
		snprintf(name, sizeof(name), "nvb-d%d-m%d", i, i);
		nvlink(o, name, 1);
		snprintf(name, sizeof(name), "nvb-m%d-d%d", i, nxt(o, i));
		nvlink(o, name, 1);
	}
}

static void routes_mc_star(struct out *o, int i)
{
	char src[32], dst[32], hops[256];
	int n = nxt(o, i);

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "m%d", i);
	snprintf(hops, sizeof(hops), "nv-d%d-m%d:UP dram-m%d", i, i, i);
	route(o, src, dst, true, hops, NULL, NULL);
	/* ring 1 */
	snprintf(src, sizeof(src), "d%d.p1", i);
	snprintf(dst, sizeof(dst), "d%d.p1", n);
	if (i % 2 == 0)
		snprintf(hops, sizeof(hops), "nvb-d%d-d%d:UP", i, n);
	else
		snprintf(hops, sizeof(hops), "nvb-d%d-m%d:UP nvb-m%d-d%d:UP", i, i, i, n);
	route(o, src, dst, hop_sym(o), hops, NULL, NULL);
	/* ring 2 */
	snprintf(src, sizeof(src), "d%d.p2", i);
	snprintf(dst, sizeof(dst), "d%d.p2", n);
	snprintf(hops, sizeof(hops), "nv-d%d-m%d:UP nv-m%d-m%d:UP nv-d%d-m%d:DOWN", i, i, i, n, n, n);
	route(o, src, dst, hop_sym(o), hops, NULL, NULL);
}

static void hop_mc_star(struct out *o, int i, char *hops, size_t len)
{
	snprintf(hops, len, "nv-d%d-d%d:UP", i, nxt(o, i));
}

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

	device(o, i, NULL);
	if (i == 0 || (o->g->block && i % o->g->block == 0)) {
		snprintf(name, sizeof(name), "sw%d", leaf_of(o, i));
		host(o, name, HOST_SPEED, "switch", NULL);
	}
}

static void links_switch(struct out *o, int i)
{
	char name[64];

	snprintf(name, sizeof(name), "nv-d%d-sw%d", i, leaf_of(o, i));
	nvlink(o, name, o->g->links);
}

static void routes_switch(struct out *o, int i, int lo, int hi)
{
	char src[32], dst[32], hops[256];

	snprintf(src, sizeof(src), "d%d", i);
	snprintf(dst, sizeof(dst), "sw%d", leaf_of(o, i));
	snprintf(hops, sizeof(hops), "nv-d%d-sw%d:UP", i, leaf_of(o, i));
	route(o, src, dst, true, hops, NULL, NULL);
	for (int j = i + 1; j < hi; j++) {
		snprintf(dst, sizeof(dst), "d%d", j);
		snprintf(hops, sizeof(hops), "nv-d%d-sw%d:UP nv-d%d-sw%d:DOWN", i, leaf_of(o, i),
			 j, leaf_of(o, j));
		route(o, src, dst, true, hops, NULL, NULL);
	}
	(void)lo;
}

/* ---- assembling ---- */

struct machine {
	void (*hosts)(struct out *o, int i);
	void (*links)(struct out *o, int i);
	void (*routes)(struct out *o, int i);
	/* Links of the ring hop from device i to its successor. */
	void (*hop)(struct out *o, int i, char *hops, size_t len);
};

static const struct machine machines[DL_TOPOLOGIES] = {
	[DL_TOPO_DC] = { hosts_dc_hc, links_dc_hc, routes_dc_hc, hop_dc_hc },
	[DL_TOPO_DC_GEN4] = { hosts_dc_hc, links_dc_hc, routes_dc_hc, hop_dc_hc },
	[DL_TOPO_HC] = { hosts_dc_hc, links_dc_hc, routes_dc_hc, hop_dc_hc },
	[DL_TOPO_MC_STAR] = { hosts_mc_star, links_mc_star, routes_mc_star, hop_mc_star },
	[DL_TOPO_MC_RING] = { hosts_mc_ring, links_mc_ring, routes_mc_ring, hop_mc_ring },
	[DL_TOPO_SWITCH] = { hosts_switch, links_switch, NULL, NULL },
	[DL_TOPO_HC_RING] = { hosts_dc_hc, links_dc_hc, routes_dc_hc, hop_dc_hc },
};

/* The root zone's properties: the rings, and the power of what the
 * hosts do not stand for. */
static void ring_props(struct out *o)
{
	const char *suffix[3] = { "", ".p1", ".p2" };
	int n = o->g->devices;

	bool sockets = o->g->topology == DL_TOPO_DC || o->g->topology == DL_TOPO_DC_GEN4 ||
		       is_hc(o->g->topology);

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
	int j = nxt(o, i);

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
			route(o, src, dst, true, hops, zsrc, zdst);
		}
	}
}

static void links_of(struct out *o, int lo, int hi)
{
	for (int i = lo; i < hi; i++)
		machines[o->g->topology].links(o, i);
}

/* The routes of devices [lo, hi) to their own hosts and along the ring. */
static void block_routes(struct out *o, int lo, int hi)
{
	const struct machine *m = &machines[o->g->topology];
	char src[32], dst[32], hops[256];

	for (int i = lo; i < hi; i++) {
		if (o->g->topology == DL_TOPO_SWITCH) {
			routes_switch(o, i, lo, hi);
			continue;
		}
		m->routes(o, i);
		if (o->g->devices == 1 || !hop_inside(o, i, lo, hi))
			continue;
		snprintf(src, sizeof(src), "d%d", i);
		snprintf(dst, sizeof(dst), "d%d", nxt(o, i));
		m->hop(o, i, hops, sizeof(hops));
		route(o, src, dst, hop_sym(o), hops, NULL, NULL);
	}
}

/* The hosts and routes of devices [lo, hi), and their links unless the
 * links are declared elsewhere. */
static void block_body(struct out *o, int lo, int hi, bool with_links)
{
	for (int i = lo; i < hi; i++)
		machines[o->g->topology].hosts(o, i);
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
			nvlink(o, name, o->g->links * k);
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
			snprintf(dst, sizeof(dst), "d%d", nxt(o, i));
			snprintf(zsrc, sizeof(zsrc), "block%d", b);
			snprintf(zdst, sizeof(zdst), "block%d", (b + 1) % nb);
			machines[o->g->topology].hop(o, i, hops, sizeof(hops));
			route(o, src, dst, true, hops, zsrc, zdst);
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
	char b[64];

	bw_text(bw, b, sizeof(b));
	fprintf(o->f, "    <link id=\"%s\" bandwidth=\"%s\" latency=\"%s\" sharing_policy=\"FATPIPE\">\n"
		"      <prop id=\"dlasim.class\" value=\"nvlink\"/>\n    </link>\n", name, b, lat);
}

static void uplink_links(struct out *o)
{
	const struct dl_platgen *g = o->g;
	double leaf_up = DL_NODE_DEVICES * g->uplink_bw / g->oversubscription;
	int lanes = (int)fmax(1, round(g->uplink_bw / g->link_bw)), pod = g->radix;
	char name[64], lat[64];

	lat_text(g->link_lat, lat, sizeof(lat));
	for (int i = 0; i < g->devices; i++) {
		snprintf(name, sizeof(name), "up-d%d", i);
		link(o, name, g->uplink_bw, lat, true, "nvlink", lanes);
	}
	for (int a = 0; a < g->nodes; a++) {
		snprintf(name, sizeof(name), "up-sw%d", a);
		if (leaf_fatpipe(g))
			fatpipe(o, name, leaf_up, lat);
		else
			link(o, name, leaf_up, lat, true, "nvlink", 1);
	}
	for (int p = 0; p * pod < g->nodes; p++) {
		int members = g->nodes - p * pod < pod ? g->nodes - p * pod : pod;

		snprintf(name, sizeof(name), "up-spine%d", p);
		fatpipe(o, name, members * leaf_up, lat);
	}
}

static bool ring_neighbours(const struct out *o, int i, int j)
{
	return nxt(o, i) == j || nxt(o, j) == i;
}

static void system_node(struct out *o, int a)
{
	int lo = a * DL_NODE_DEVICES, hi = lo + DL_NODE_DEVICES;
	char sw[32], src[32], dst[32], hops[128];

	snprintf(sw, sizeof(sw), "sw%d", a);
	fprintf(o->f, "    <zone id=\"node%d\" routing=\"Full\">\n", a);
	for (int i = lo; i < hi; i++)
		machines[o->g->topology].hosts(o, i);
	host(o, sw, HOST_SPEED, "switch", NULL);
	block_routes(o, lo, hi);
	for (int i = lo; i < hi; i++) {
		snprintf(src, sizeof(src), "d%d", i);
		snprintf(hops, sizeof(hops), "up-d%d:UP", i);
		route(o, src, sw, true, hops, NULL, NULL);
		for (int j = i + 1; j < hi; j++) {
			if (ring_neighbours(o, i, j))
				continue;
			snprintf(dst, sizeof(dst), "d%d", j);
			snprintf(hops, sizeof(hops), "up-d%d:UP up-d%d:DOWN", i, j);
			route(o, src, dst, true, hops, NULL, NULL);
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
	host(o, dst, HOST_SPEED, "switch", NULL);
	fprintf(o->f, "    </zone>\n");
	for (int a = first; a < last; a++) {
		snprintf(src, sizeof(src), "sw%d", a);
		snprintf(zsrc, sizeof(zsrc), "node%d", a);
		snprintf(zdst, sizeof(zdst), "pod%d-spine", p);
		snprintf(hops, sizeof(hops), leaf_fatpipe(o->g) ? "up-sw%d" : "up-sw%d:UP", a);
		route(o, src, dst, true, hops, zsrc, zdst);
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
	bw_text(g->link_bw, bw, sizeof(bw));
	lat_text(g->link_lat, lat, sizeof(lat));
	fprintf(f, "<?xml version='1.0'?>\n"
		"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
		"<!-- generated by dlasim platform: topology %s, %d devices, %d links per"
		" device of %s and %s; conventions in docs/platforms.md -->\n"
		"<platform version=\"4.1\">\n",
		dl_topology_name(g->topology), g->devices, g->links, bw, lat);
	if (g->nodes)
		write_scale_out(&o);
	else if (g->block && g->devices > g->block && g->topology != DL_TOPO_MC_STAR)
		write_blocks(&o);
	else
		write_flat(&o);
	fprintf(f, "</platform>\n");
	return 0;
}
