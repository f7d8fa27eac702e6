/* SPDX-License-Identifier: MIT */
/* The platform reader's view of test/data files: roles, ranks, rings. */
#include "check.h"

#include "machine/platform.h"

static void ranks_and_rings(void)
{
	static const char *const names[] = { "d0", "d1", "d2", "d3" };
	struct dl_platform *p;

	if (dl_platform_read(&p, "test/data/ring4-both-ways.xml")) {
		CHECK(!"read failed");
		return;
	}
	CHECK(p->ndevices == 4);
	CHECK(p->nrings == 2);
	for (int r = 0; r < 4; r++)
		CHECK_STR(p->hosts[p->devices[r]].name, names[r]);
	/* ring 1 is d0 d3 d2 d1 */
	CHECK(dl_ring_next(p, 0, 0) == 1 && dl_ring_prev(p, 0, 0) == 3);
	CHECK(dl_ring_next(p, 1, 0) == 3 && dl_ring_next(p, 1, 3) == 2);
	CHECK(dl_ring_prev(p, 1, 0) == 1);
	CHECK(p->rings[1].pos_of_rank[2] == 2 && p->rings[1].pos_of_rank[1] == 3);
	CHECK(p->nlinks == 4 && p->links[0].sharing == DL_SPLITDUPLEX);
	CHECK(p->links[0].bandwidth == 25e9 && p->links[0].latency == 1e-6);
	dl_platform_free(p);
}

static void ports_and_classes(void)
{
	struct dl_platform *p;
	int d2;

	if (dl_platform_read(&p, "platforms/mc-star-8.xml")) {
		CHECK(!"read failed");
		return;
	}
	CHECK(p->ndevices == 8 && p->nrings == 3);
	d2 = p->devices[2];
	/* ring 1 members are ports, bound to their devices */
	CHECK(p->hosts[dl_ring_member(p, 1, 2)].role == DL_ROLE_PORT);
	CHECK(p->hosts[dl_ring_member(p, 1, 2)].device == d2);
	CHECK(dl_ring_member(p, 0, 2) == d2);
	CHECK_STR(dl_host_prop(&p->hosts[d2], "dlasim.backing"), "m2");
	for (int i = 0; i < p->nlinks; i++) {
		if (strcmp(p->links[i].name, "nv-d0-m0") == 0)
			CHECK(p->links[i].cls == DL_LINK_NVLINK && p->links[i].lanes == 2);
		if (strcmp(p->links[i].name, "dram-m0") == 0)
			CHECK(p->links[i].cls == DL_LINK_DRAM && p->links[i].sharing == DL_SHARED);
	}
	dl_platform_free(p);
}

int main(void)
{
	RUN(ranks_and_rings);
	RUN(ports_and_classes);
	CHECK_EXIT();
}
