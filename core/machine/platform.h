/* SPDX-License-Identifier: MIT */
/*
 * A platform: the SimGrid XML file, checked before SimGrid sees it (SimGrid
 * aborts on errors), and the roles dlasim reads from its properties.
 * Conventions are documented in docs/platforms.md:
 *   host  dlasim.role       device | memory | cpu | pcie-switch | switch | port
 *         dlasim.port-of    (ports) the device the port belongs to
 *         dlasim.backing    (devices) hosts backing the device's memory
 *         dlasim.node       (devices) the system node it belongs to (scale-out)
 *   link  dlasim.class      nvlink | pcie | dram (anything else: other)
 *         dlasim.lanes      physical links aggregated into this one (1)
 *   zone  dlasim.ring.K     ring K: member hosts in ring order
 * Devices are ranked in document order.
 */
#ifndef DL_PLATFORM_H
#define DL_PLATFORM_H

#include <stdbool.h>

#include <simgrid/forward.h>

#include "lib/pairmap.h"
#include "lib/strmap.h"

#include "props.h"

enum dl_role {
	DL_ROLE_NONE = 0,
	DL_ROLE_DEVICE,
	DL_ROLE_MEMORY,
	DL_ROLE_CPU,
	DL_ROLE_PCIE_SWITCH,
	DL_ROLE_SWITCH,
	DL_ROLE_PORT,
	DL_ROLES
};

enum dl_link_class {
	DL_LINK_OTHER = 0,
	DL_LINK_NVLINK,
	DL_LINK_PCIE,
	DL_LINK_DRAM,
	DL_LINK_CLASSES
};

enum dl_sharing { DL_SHARED, DL_SPLITDUPLEX, DL_FATPIPE };


struct dl_host {
	char *name;
	int line;
	int zone;		/* index of the enclosing zone */
	enum dl_role role;
	int rank;		/* devices: rank; others: -1 */
	int device;		/* ports: host index of their device; else -1 */
	int node;		/* devices: system node (dlasim.node), else -1 */
	double speed;		/* flop/s */
	struct dl_props props;
	int np;			/* its netpoint */
	sg_host_t sg;		/* after dl_platform_bind() */
};

struct dl_link {
	char *name;
	int line;
	enum dl_link_class cls;
	int lanes;
	double bandwidth;	/* B/s, per direction for SPLITDUPLEX */
	double latency;		/* s */
	enum dl_sharing sharing;
	struct dl_props props;
	sg_link_t sg[2];	/* [0] UP (or the link), [1] DOWN; after bind */
};

struct dl_zone {
	char *name;
	int line;
	int parent;		/* -1 for the root */
	int depth;		/* 0 for the root */
	int np;			/* its netpoint */
	bool full;		/* routing="Full": routes are looked up, not searched */
	bool cluster;		/* a <cluster>: SimGrid joins every pair of its hosts */
	struct dl_props props;
};

/* Hosts, routers and zones share one namespace: SimGrid's netpoints. */
enum dl_np_kind { DL_NP_HOST = 1, DL_NP_ROUTER, DL_NP_ZONE };

struct dl_netpoint {
	char *name;
	enum dl_np_kind kind;
	int zone;		/* the zone it is declared in (-1: the root zone) */
	int self;		/* zones: index in zones[]; hosts: in hosts[]; else -1 */
	int first_route;	/* first declared route leaving it, or -1 */
};

/* One direction of a declared <route> or <zoneRoute>, inside one zone. */
struct dl_route {
	int src, dst;		/* netpoints (zones for a zoneRoute) */
	int gw_src, gw_dst;	/* gateway netpoints (src and dst for a <route>) */
	int next;		/* next route leaving src, or -1 */
};

struct dl_ring {
	int *member;		/* host index of each position, ring order */
	int *rank_at;		/* device rank at each position */
	int *pos_of_rank;	/* position of each rank */
	int n;
};

struct dl_platform {
	char *file;
	struct dl_host *hosts;
	int nhosts;
	struct dl_link *links;
	int nlinks;
	struct dl_zone *zones;
	int nzones;
	int *devices;		/* host index of each rank */
	int ndevices;
	struct dl_ring *rings;
	int nrings;
	int nnodes;		/* system nodes named by dlasim.node (0: none) */
	struct dl_strmap host_ids;	/* name -> host index */
	struct dl_strmap link_ids;	/* name -> link index */
	struct dl_netpoint *nps;
	int nnps;
	struct dl_strmap np_ids;	/* name -> netpoint */
	struct dl_route *routes;
	int nroutes;
	struct dl_pairmap route_ids;	/* (src, dst) netpoints -> route */
	bool bound;
	int nclusters;		/* a <cluster> (the whole platform): its links
				 * are SimGrid's, taken at dl_platform_bind() */
};

/*
 * What a platform may hold, far outside any machine and inside what keeps
 * every simulated time finite (a transfer is at most 2^63 bytes): each
 * returns NULL or why not.  docs/platforms.md, "Units".  A latency of one
 * second is a million NVLink hops; much longer ones, summed over a run's
 * sequential transfers, drive SimGrid's clock past 10^7 s, where its
 * fixed absolute precision fails and it aborts.
 */
#define DL_MAX_LATENCY_S 1.0
#define DL_MIN_BANDWIDTH_BPS 1e-3
#define DL_MIN_SPEED_FLOPS 1.0
const char *dl_platform_latency_range(double seconds);
const char *dl_platform_bandwidth_range(double bytes_per_s);
const char *dl_platform_speed_range(double flops);

/* Read and check `file`; reports the first problem as file:line. */
int dl_platform_read(struct dl_platform **out, const char *file);
/* The same, and the file's bytes as read and checked, NUL-terminated, in
 * *bytes (*len of them; the caller frees them). */
int dl_platform_read_bytes(struct dl_platform **out, const char *file, char **bytes, size_t *len);
void dl_platform_free(struct dl_platform *p);

/* After simgrid_load_platform(): attach SimGrid handles, check that
 * consecutive ring members have a route. */
int dl_platform_bind(struct dl_platform *p);

/*
 * Is there a route from host `src` to host `dst` (indices in hosts[])?
 * Answered from the parsed tables the way SimGrid composes a route (zone
 * routes and their gateways, every leg inside every zone), never by asking
 * SimGrid, which aborts, crashes or drops the legs it cannot find.  Ask
 * before any transfer or route query between two hosts.
 */
bool dl_route_exists(const struct dl_platform *p, int src, int dst);

/* What a command needs from the platform; reports what is missing. */
int dl_platform_require_devices(const struct dl_platform *p);
int dl_platform_require_rings(const struct dl_platform *p);

const char *dl_host_prop(const struct dl_host *h, const char *key);
const char *dl_link_prop(const struct dl_link *l, const char *key);
const char *dl_zone_prop(const struct dl_zone *z, const char *key);
int dl_host_index(const struct dl_platform *p, const char *name);
/* The hosts named by device host `device`'s dlasim.backing (indices, left
 * first), at most `max`; names that are not hosts are skipped.  Returns
 * how many. */
int dl_backing_hosts(const struct dl_platform *p, int device, int *hosts, int max);

/*
 * Device descriptions (devdesc.h, docs/devices.md).  The one device host
 * `host` (index in hosts[]) carries; the one all devices share (an error
 * naming the first device whose description differs from rank 0's).
 * The platform reader has checked every device's description.
 */
struct dl_devdesc;
int dl_devdesc_of_host(const struct dl_platform *p, int host, struct dl_devdesc *d);
int dl_devdesc_of_platform(const struct dl_platform *p, struct dl_devdesc *d);

const char *dl_role_name(enum dl_role role);
const char *dl_link_class_name(enum dl_link_class cls);

/* Host index of ring member of `rank` on `ring` (device or port). */
static inline int dl_ring_member(const struct dl_platform *p, int ring, int rank)
{
	const struct dl_ring *r = &p->rings[ring];

	return r->member[r->pos_of_rank[rank]];
}

static inline int dl_ring_next(const struct dl_platform *p, int ring, int rank)
{
	const struct dl_ring *r = &p->rings[ring];

	return r->rank_at[(r->pos_of_rank[rank] + 1) % r->n];
}

static inline int dl_ring_prev(const struct dl_platform *p, int ring, int rank)
{
	const struct dl_ring *r = &p->rings[ring];

	return r->rank_at[(r->pos_of_rank[rank] + r->n - 1) % r->n];
}

#endif
