/* SPDX-License-Identifier: MIT */
/*
 * The fabrics of today at 8, 72, 1024 and 8192 devices: every route a
 * collective or training asks for exists, resolved on the parsed tables
 * the way SimGrid composes it (machine/routes.c) -- every ring hop, every
 * device to each host of its backing store, every halving-doubling
 * partner (inside a domain, same rail across domains, other rails), the
 * next domain and the domain a scalable unit away.  Checked without
 * SimGrid, so that 8192 devices cost a second.
 */
#include "check.h"

#include <stdlib.h>
#include <unistd.h>

#include "machine/platform.h"
#include "machine/platgen.h"

static const enum dl_topology fabrics[] = {
	DL_TOPO_NVSWITCH, DL_TOPO_NVL72, DL_TOPO_GH200, DL_TOPO_CXL, DL_TOPO_MC_NVSWITCH,
};
static const int sizes[] = { 8, 72, 1024, 8192 };

static struct dl_platform *generate(enum dl_topology t, int n)
{
	struct dl_platgen g;
	struct dl_platform *p = NULL;
	char path[] = "/tmp/dlasim-platgen-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	dl_platgen_defaults(&g, t, n);
	if (!f || dl_platgen_write(&g, f) || fclose(f) || dl_platform_read(&p, path))
		p = NULL;
	unlink(path);
	return p;
}

/* Routes both ways between devices of ranks a and b (if b exists). */
static int missing_pair(const struct dl_platform *p, int a, int b)
{
	if (b < 0 || b >= p->ndevices || a == b)
		return 0;
	return !dl_route_exists(p, p->devices[a], p->devices[b]) +
	       !dl_route_exists(p, p->devices[b], p->devices[a]);
}

static int missing_backing(const struct dl_platform *p, int r)
{
	int hosts[64], n = dl_backing_hosts(p, p->devices[r], hosts, 64), miss = n < 1;

	for (int k = 0; k < n; k++)
		miss += !dl_route_exists(p, p->devices[r], hosts[k]);
	return miss;
}

static void fabric(enum dl_topology t, int n)
{
	struct dl_platgen g;
	struct dl_platform *p = generate(t, n);
	int miss = 0, G;

	dl_platgen_defaults(&g, t, n);
	G = g.node_devices < n ? g.node_devices : n;
	if (!p) {
		printf("    %s, %d devices: not generated or not read\n", dl_topology_name(t), n);
		CHECK(!"generated and read");
		return;
	}
	CHECK(p->ndevices == n);
	CHECK(p->nrings == g.links / 2);
	/* System nodes: the domains, when there are several. */
	CHECK(p->nnodes == (n > G ? (n + G - 1) / G : 0));
	for (int r = 0; r < n; r++) {
		miss += !dl_route_exists(p, dl_ring_member(p, 0, r),
					 dl_ring_member(p, 0, dl_ring_next(p, 0, r)));
		miss += missing_backing(p, r);
		for (int bit = 1; bit < n; bit <<= 1)
			miss += missing_pair(p, r, r ^ bit);
		miss += missing_pair(p, r, r + G);
		miss += missing_pair(p, r, r + G * g.radix / 2);
		miss += missing_pair(p, r, n - 1 - r);
	}
	if (miss)
		printf("    %s, %d devices: %d routes missing\n", dl_topology_name(t), n, miss);
	CHECK(miss == 0);
	dl_platform_free(p);
}

static void every_fabric_and_size(void)
{
	for (size_t f = 0; f < sizeof(fabrics) / sizeof(fabrics[0]); f++)
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			fabric(fabrics[f], sizes[s]);
}

int main(void)
{
	RUN(every_fabric_and_size);
	CHECK_EXIT();
}
