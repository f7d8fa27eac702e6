/* SPDX-License-Identifier: MIT */
/*
 * Figure 10 of the memory-centric paper: an isolated remote write and read
 * of D bytes by device d1 of an 8-device MC-DLA ring (N = 6 links of
 * B = 25 GB/s, three to each neighbouring memory-node) takes
 *   LOCAL:    D / (N*B/2)       + route latency
 *   BW_AWARE: (D/2) / (N*B/2)   + route latency
 * A read also sends its 64-byte request first.  Each policy runs in its own
 * process (one SimGrid engine per process).
 */
#include <math.h>
#include <stdlib.h>

#include <simgrid/engine.h>

#include "machine/engine.h"
#include "results/jobs.h"
#include "backing/backing.h"
#include "backing/linkstats.h"
#include "backing/pages.h"
#include "check.h"

#define D 1e9
#define N_LINKS 6
#define B_LINK 25e9
#define LATENCY (1e-6 + 100e-9)	/* NVLink hop + memory channel */
#define REQUEST 64.0
#define PAGE 65536.0

struct times {
	double write_s, read_s;
};

struct scenario {
	struct bk_backing *backing;
	struct bk_pages *pages;
	struct times t;
};

static void device_actor(void *arg)
{
	struct scenario *s = arg;
	struct bk_alloc *a = bk_pages_alloc(s->pages, 1, D);
	double t0 = simgrid_get_clock();

	bk_backing_write(s->backing, a);
	s->t.write_s = simgrid_get_clock() - t0;
	t0 = simgrid_get_clock();
	bk_backing_read(s->backing, a);
	s->t.read_s = simgrid_get_clock() - t0;
	bk_pages_free(s->pages, a);
}

struct idle {
	struct scenario *s;
	int rank;
};

/* Every device says it is done, from its own host, so that the memory
 * controllers end. */
static void done_actor(void *arg)
{
	struct idle *i = arg;

	if (i->rank == 1)
		device_actor(i->s);
	bk_backing_done(i->s->backing, i->rank);
}

static int job(int index, FILE *out, void *arg)
{
	const char *plugin[] = { "page-local.so", "page-bw_aware.so" };
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	struct scenario s = { 0 };
	struct dl_platform *p;
	struct bk_links links;
	struct idle idle[8];
	char spec[512];

	(void)arg;
	snprintf(spec, sizeof(spec), "%s/plugins/%s", build, plugin[index]);
	if (dl_engine_start("platforms/mc-ring-8.xml", &p) ||
	    bk_links_init(&links, p) || bk_pages_open(&s.pages, p, spec, "--page-alloc", PAGE) ||
	    bk_backing_start(&s.backing, s.pages, &links))
		return 1;
	for (int r = 0; r < 8; r++) {
		idle[r] = (struct idle){ &s, r };
		dl_actor_start("device", p->hosts[p->devices[r]].sg, done_actor, &idle[r]);
	}
	if (dl_engine_run())
		return 1;
	fwrite(&s.t, sizeof(s.t), 1, out);
	return 0;
}

static void test_figure10(void)
{
	const struct dl_jobs jobs = { .what = "figure 10", .count = 2, .parallel = 2, .run = job,
				      .result_size = sizeof(struct times) };
	struct dl_job_result r[2];
	const struct times *local, *bw;
	double per_side = N_LINKS * B_LINK / 2;
	/* Page-aligned halves: the larger one has ceil(pages / 2) pages. */
	double pages = ceil(D / PAGE), half = ceil(pages / 2) * PAGE;

	CHECK(dl_jobs_run(&jobs, r) == 0);
	local = dl_job_data(&r[0]);
	bw = dl_job_data(&r[1]);
	if (!local || !bw) {
		CHECK(!"both scenarios report times");
		dl_jobs_free(r, 2);
		return;
	}
	CHECK_CLOSE(local->write_s, D / per_side + LATENCY, 1e-9);
	CHECK_CLOSE(bw->write_s, half / per_side + LATENCY, 1e-9);
	CHECK_CLOSE(local->read_s, D / per_side + 2 * LATENCY + REQUEST / per_side, 1e-9);
	CHECK_CLOSE(bw->read_s, half / per_side + 2 * LATENCY + REQUEST / per_side, 1e-9);
	/* BW_AWARE halves the latency (Figure 10). */
	CHECK_CLOSE(local->write_s / bw->write_s, 2.0, 1e-3);
	dl_jobs_free(r, 2);
}

int main(void)
{
	RUN(test_figure10);
	CHECK_EXIT();
}
