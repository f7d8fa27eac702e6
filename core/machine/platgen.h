/* SPDX-License-Identifier: MIT */
/*
 * Platform generator: SimGrid 4.1 XML for the design points of the
 * memory-centric paper at any number of devices.  The machines, their
 * parameters and the zone layout are documented in docs/platforms.md.
 */
#ifndef DL_PLATGEN_H
#define DL_PLATGEN_H

#include <stdio.h>

#include "props.h"

enum dl_topology {
	DL_TOPO_DC,		/* DC-DLA: device rings, host memory over PCIe gen3 */
	DL_TOPO_DC_GEN4,	/* DC-DLA with PCIe gen4 */
	DL_TOPO_HC,		/* HC-DLA: half the links to the CPU sockets, the
				 * paper's 1.5 rings on the other half */
	DL_TOPO_MC_STAR,	/* MC-DLA(S), Figure 7(b) */
	DL_TOPO_MC_RING,	/* MC-DLA ring, Figure 7(c) */
	DL_TOPO_SWITCH,		/* device-side switches, Figure 15 */
	DL_TOPO_HC_RING,	/* HC-DLA as one ring of its three device links */
	DL_TOPOLOGIES
};

/* The most devices a generated platform has. */
#define DL_PLATGEN_MAX_DEVICES (1 << 20)

struct dl_platgen {
	enum dl_topology topology;
	int devices;			/* N >= 2 */
	int links;			/* high-bandwidth links per device (even) */
	double link_bw;			/* B, one direction, B/s */
	double link_lat;		/* s */
	double pcie_bw;			/* per direction, B/s (0: topology default) */
	double cpu_mem_bw;		/* per socket, B/s (0: topology default) */
	double dimm_bytes;		/* memory-node DIMM size (Table IV) */
	int block;			/* devices per zone, 0 = one flat zone */
	double pcie_uplink_bw;		/* PCIe switch to socket, per direction
					 * (0: as the device's PCIe link) */
	double device_tdp_w;		/* written as the devices' dlasim.tdp */
	/* Scale-out (Figure 15): `nodes` system nodes of DL_NODE_DEVICES
	 * devices, each the machine of `topology` inside, joined by
	 * device-side switches; 0 = one machine of `devices` devices. */
	int nodes;
	int radix;			/* ports per device-side switch */
	double uplink_bw;		/* per device into the switches, one direction, B/s */
	double oversubscription;	/* leaf down : up bandwidth (>= 1) */
	/* --device: the description every device carries (docs/devices.md;
	 * NULL: none, Table II at 256 Tflop/s), and its default type's peak,
	 * written as the devices' speed. */
	const struct dl_props *device_props;
	double device_speed;
};

#define DL_NODE_DEVICES 8		/* devices per system node (Figure 15) */

/* A CPU socket's memory bandwidth by name: "xeon", "power9" (Section
 * II-C); 0 when the name is unknown. */
double dl_socket_memory_bw(const char *name);

/* Defaults of Table II and Section IV for `topology`. */
void dl_platgen_defaults(struct dl_platgen *g, enum dl_topology topology, int devices);
/* Check the combination; reports what is wrong. */
int dl_platgen_check(const struct dl_platgen *g);
/* Write the platform. */
int dl_platgen_write(const struct dl_platgen *g, FILE *f);

int dl_topology_parse(const char *s, enum dl_topology *t);
const char *dl_topology_name(enum dl_topology t);

#endif
