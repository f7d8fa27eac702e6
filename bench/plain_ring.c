/* SPDX-License-Identifier: MIT */
/*
 * The reference for bench/coll_scale.sh: the step-by-step ring all-reduce
 * written directly on SimGrid's C API, without dlasim (no platform checks,
 * no plugins).  One actor per (device, ring); the platform's rings are the
 * device order d0..dN-1 given on the command line.
 *   plain_ring PLATFORM DEVICES RINGS BYTES
 * prints the simulated time of the all-reduce.
 */
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>

static int n, rings;
static double chunk, finish;

static void rank_ring(int argc, char **argv)
{
	int rank = atoi(argv[1]), ring = atoi(argv[2]);
	char name[64];
	sg_mailbox_t in, out;

	snprintf(name, sizeof(name), "r%d.%d", rank, ring);
	in = sg_mailbox_by_name(name);
	snprintf(name, sizeof(name), "r%d.%d", (rank + 1) % n, ring);
	out = sg_mailbox_by_name(name);
	for (int step = 0; step < 2 * (n - 1); step++) {
		sg_comm_t c[2];
		void *data;

		c[0] = sg_mailbox_put_async(out, &finish, (long)(chunk + 0.5));
		c[1] = sg_mailbox_get_async(in, &data);
		sg_comm_wait_all(c, 2);
	}
	if (simgrid_get_clock() > finish)
		finish = simgrid_get_clock();
}

int main(int argc, char **argv)
{
	const char *cfg[] = { "plain_ring", "--log=root.thresh:error", "--log=xbt_cfg.thresh:error",
			      "--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
			      "--cfg=network/TCP-gamma:0", "--cfg=contexts/stack-size:256" };
	int sg_argc = sizeof(cfg) / sizeof(cfg[0]);

	if (argc != 5) {
		fprintf(stderr, "usage: plain_ring PLATFORM DEVICES RINGS BYTES\n");
		return 2;
	}
	n = atoi(argv[2]);
	rings = atoi(argv[3]);
	chunk = atof(argv[4]) / rings / n;
	simgrid_init(&sg_argc, (char **)cfg);
	simgrid_load_platform(argv[1]);
	for (int i = 0; i < n; i++) {
		for (int r = 0; r < rings; r++) {
			char host[32], rank[16], ring[16];
			const char *av[] = { "rank", rank, ring };

			snprintf(host, sizeof(host), "d%d", i);
			snprintf(rank, sizeof(rank), "%d", i);
			snprintf(ring, sizeof(ring), "%d", r);
			sg_actor_create_("rank", sg_host_by_name(host), rank_ring, 3, av);
		}
	}
	simgrid_run();
	printf("%.9g\n", finish);
	return 0;
}
