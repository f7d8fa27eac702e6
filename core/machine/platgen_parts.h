/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the platform generator share: the machines' constants,
 * the XML writer (platgen_out.c) and one file per machine family
 * (platgen_dc_hc.c, platgen_mc_ring.c, platgen_mc_star.c,
 * platgen_switch.c), put together by platgen.c.  A new family is a new
 * file defining its struct machine and one line in platgen.c's table.
 * Not for use outside core/machine: platgen.h is the interface.
 */
#ifndef DL_PLATGEN_PARTS_H
#define DL_PLATGEN_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct dl_platgen;

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
/* Rail-optimized scale-out: a leaf switch of 64 ports (NVIDIA Quantum-2
 * QM9700: 64 NDR ports), half down to the rail's NICs, half up. */
#define RAIL_LEAF_RADIX 64

/* Table IV: DDR4 DIMM options of a memory-node, ten DIMMs each. */
struct dimm_option {
	double bytes;
	double node_tdp_w;
};

struct out {
	FILE *f;
	const struct dl_platgen *g;
	int rings;		/* device rings declared */
	int cpu_links;		/* hc: links per device to its socket */
};

/* A machine family: its hosts, links and routes for device i. */
struct machine {
	void (*hosts)(struct out *o, int i);
	void (*links)(struct out *o, int i);
	void (*routes)(struct out *o, int i);
	/* Links of the ring hop from device i to its successor. */
	void (*hop)(struct out *o, int i, char *hops, size_t len);
};

extern const struct machine pg_dc_hc, pg_mc_ring, pg_mc_star, pg_switch;
/* The fabrics of today (platgen_rail.c writes them): hosts(), links()
 * and routes() give device i's host side, its backing store and the
 * routes to it inside its NVLink domain. */
extern const struct machine pg_nvswitch, pg_nvl72, pg_gh200, pg_cxl, pg_mc_nvswitch;

/* NVLink domains of the fabrics of today. */
int pg_dom_devices(const struct dl_platgen *g);
int pg_dom_of(const struct dl_platgen *g, int i);
int pg_dom_local(const struct dl_platgen *g, int i);
int pg_doms(const struct dl_platgen *g);
/* Number of device i's k-th share of `per` devices of its domain, the
 * count of such shares numbered across domains (sockets, Grace CPUs, ...). */
int pg_dom_share(const struct dl_platgen *g, int i, int per);
/* Devices of device i's domain: the last domain may be short. */
int pg_dom_size(const struct dl_platgen *g, int i);
/* Route from device i to backing store STORE s through its own link into
 * the fabric and the store's (FABRIC-dI:UP FABRIC-STOREs:DOWN), then the
 * store's memory (dram-STOREs): a memory-node or expander on a switch. */
void pg_route_store(struct out *o, int i, const char *fabric, const char *store, int s);
/* The fabric of today whose family is m (platgen_rail.c). */
void pg_write_rail(struct out *o, const struct machine *m);

/* HC-DLA, in the paper's accounting (hc) or as one ring (hc-ring). */
bool pg_is_hc(const struct dl_platgen *g);
const struct dimm_option *pg_dimm_option(double bytes);
void pg_bw_text(double bps, char *buf, size_t len);
void pg_lat_text(double s, char *buf, size_t len);
void pg_host(struct out *o, const char *name, const char *speed, const char *role, ...);
void pg_link(struct out *o, const char *name, double bw, const char *lat,
		 bool splitduplex, const char *cls, int lanes);
void pg_nvlink(struct out *o, const char *name, int lanes);
void pg_fatpipe(struct out *o, const char *name, double bw, const char *lat, const char *cls);
void pg_route(struct out *o, const char *src, const char *dst, bool sym, const char *hops,
		  const char *zsrc, const char *zdst);
int pg_nxt(const struct out *o, int i);
int pg_prv(const struct out *o, int i);
bool pg_hop_sym(const struct out *o);
void pg_device(struct out *o, int i, const char *backing);
void pg_socket_hosts(struct out *o, int i);
void pg_memory_half(struct out *o, int node, int half);
void pg_routes_switch(struct out *o, int i, int lo, int hi);

#endif
