/* SPDX-License-Identifier: MIT */
/*
 * The DDR4 model of the memory-device service (platforms/dram/
 * ddr4-2400-x8-2ch2rk.conf) against closed forms and against DRAMsim3
 * (commit 2981759) on the same configuration, study3.md S3.7:
 *  - closed forms: a single-bank hit stream runs at 1/tCCD_L x (1 -
 *    tRFC/tREFI) = 161.1 requests per 1000 cycles; bank groups in turn at
 *    1/(BL/2) x (1 - tRFC/tREFI) = 241.7 per channel; random rows of one
 *    rank are bound by tFAW, 4 ACTs per 26 cycles (153.8 per 1000); idle
 *    reads take CL + BL/2 = 21 cycles on a hit, tRCD + CL + BL/2 = 38 on a
 *    closed bank, tRP + tRCD + CL + BL/2 = 55 on a conflict (this model has
 *    no controller pipeline delay; DRAMsim3's adds about 7 cycles);
 *  - DRAMsim3's table: requests served in 200,000 cycles with every
 *    request queued from cycle 0 (the queues limit the issue), bandwidth
 *    within 5 %, row hits within 3 points.
 */
#include <math.h>
#include <stdlib.h>

#include "memdev/memdev.h"
#include "check.h"

#define CYCLES 200000
#define CONF "platforms/dram/ddr4-2400-x8-2ch2rk.conf"

struct trace {
	struct memdev *d;
	double tck;
	long next;		/* requests issued */
	long served;
	long (*addr)(struct trace *t, long i);
	bool write;
	unsigned long rng;
	struct memdev_req pool[4096];
	int free[4096], nfree;
};

static void done(void *arg, struct memdev_req *r)
{
	struct trace *t = arg;

	if (r->done_s <= CYCLES * t->tck * (1 + 1e-12))
		t->served++;
	t->free[t->nfree++] = (int)(r - t->pool);
}

/* Keep the queues full until `end` seconds; events in time order. */
static void replay(struct trace *t, double end)
{
	double now = 0;

	for (;;) {
		double next = INFINITY;

		for (;;) {
			long a = t->addr(t, t->next);
			struct memdev_req *r;

			if (!t->nfree || !memdev_will_accept(t->d, a, 1))
				break;
			r = &t->pool[t->free[--t->nfree]];
			*r = (struct memdev_req){ .addr = a, .write = t->write, .blocks = 1 };
			memdev_enqueue(t->d, r, now);
			t->next++;
		}
		for (int c = 0; c < 2; c++)
			next = fmin(next, memdev_next_event(t->d, c));
		if (next > end)
			return;
		now = next;
		for (int c = 0; c < 2; c++)
			memdev_advance(t->d, c, now, done, t);
	}
}

static struct memdev *open_ddr(void)
{
	struct memdev_config cfg;

	if (memdev_config_read(CONF, &cfg))
		return NULL;
	return memdev_open(&cfg);
}

static long A(struct trace *t, int ch, int rk, int bank, int row, int col)
{
	return memdev_ddr_address(t->d, ch, rk, bank, row, col);
}

/* Bank b of a rank as study3.md numbers them: bg = b mod 4, ba = b / 4,
 * which is also memdev's bank number. */
static long hit_1bank(struct trace *t, long i)
{
	return A(t, 0, 0, 0, 0, (int)(i % 128));
}

static long seq_1bank(struct trace *t, long i)
{
	return A(t, 0, 0, 0, (int)(i / 128 % 32768), (int)(i % 128));
}

static long rr4_samebg(struct trace *t, long i)
{
	return A(t, 0, 0, (int)(i % 4) * 4, (int)(i / 4 / 128 % 32768), (int)(i / 4 % 128));
}

static long rr16_ch0(struct trace *t, long i)
{
	return A(t, 0, 0, (int)(i % 16), (int)(i / 16 / 128 % 32768), (int)(i / 16 % 128));
}

static long rr64_all(struct trace *t, long i)
{
	long j = i / 4;

	return A(t, (int)(i % 2), (int)(i / 2 % 2), (int)(j % 16), (int)(j / 16 / 128 % 32768),
		 (int)(j / 16 % 128));
}

static long random_ch0rk0(struct trace *t, long i)
{
	t->rng = t->rng * 6364136223846793005UL + 1442695040888963407UL;
	return A(t, 0, 0, (int)(t->rng >> 33) % 16, (int)((t->rng >> 20) % 32768),
		 (int)((t->rng >> 8) % 128));
}

static void run_trace(long (*addr)(struct trace *, long), bool write, struct memdev_stats *st,
		      double *per_kcycle)
{
	static struct trace t;
	struct memdev *d = open_ddr();

	memset(&t, 0, sizeof(t));
	CHECK(d != NULL);
	if (!d)
		return;
	t.d = d;
	t.tck = memdev_config(d)->ddr.tCK_s;
	t.addr = addr;
	t.write = write;
	t.rng = 12345;
	for (int i = 0; i < 4096; i++)
		t.free[t.nfree++] = i;
	replay(&t, CYCLES * t.tck);
	memdev_stats(d, CYCLES * t.tck, st);
	*per_kcycle = t.served * 1000.0 / CYCLES;
	memdev_close(d);
}

/* DRAMsim3's requests per 1000 cycles and row-hit percentage (S3.7). */
static void check_golden(const char *name, long (*addr)(struct trace *, long), bool write,
			 double req_per_kcycle, double hit_percent)
{
	struct memdev_stats st;
	double rate = 0, hits;

	run_trace(addr, write, &st, &rate);
	hits = 100.0 * st.row_hits / (double)(st.row_hits + st.row_misses);
	printf("    %-14s %6.1f req/kcycle (DRAMsim3 %6.1f)  row hits %5.1f %% (%5.1f)\n", name,
	       rate, req_per_kcycle, hits, hit_percent);
	CHECK_CLOSE(rate, req_per_kcycle, 0.05);
	CHECK(fabs(hits - hit_percent) <= 3);
}

static void test_closed_forms(void)
{
	struct memdev_stats st;
	double rate, refresh = 1 - 312.0 / 9360;

	run_trace(hit_1bank, false, &st, &rate);
	CHECK_CLOSE(rate, 1000.0 / 6 * refresh, 0.01);
	run_trace(rr16_ch0, false, &st, &rate);
	CHECK_CLOSE(rate, 1000.0 / 4 * refresh, 0.01);
	/* Random rows: every access a conflict, at most 4 ACTs per tFAW. */
	run_trace(random_ch0rk0, false, &st, &rate);
	CHECK(st.activates * 1000.0 / CYCLES <= 1000.0 * 4 / 26 * 1.001);
	CHECK_CLOSE(st.activates * 1000.0 / CYCLES, 1000.0 * 4 / 26 * refresh, 0.05);
}

static void test_dramsim3_table(void)
{
	check_golden("hit_1bank", hit_1bank, false, 160.5, 99.9);
	check_golden("seq_1bank", seq_1bank, false, 153.1, 99.2);
	check_golden("rr4_samebg", rr4_samebg, false, 160.5, 99.0);
	check_golden("rr16_ch0", rr16_ch0, false, 240.3, 98.5);
	check_golden("random_ch0rk0", random_ch0rk0, false, 147.4, 0.0);
	check_golden("rr64_all", rr64_all, false, 492.9, 97.9);
	check_golden("rr64_write", rr64_all, true, 499.2, 97.7);
}

static void served_at(void *arg, struct memdev_req *r)
{
	*(double *)arg = r->done_s;
}

/* One read, alone, after `setup` reads to other rows. */
static double idle_latency(int setup_row)
{
	struct memdev *d = open_ddr();
	struct memdev_req r = { 0 }, s = { 0 };
	double tck, at = 0, t0;

	if (!d)
		return -1;
	tck = memdev_config(d)->ddr.tCK_s;
	t0 = 1200 * tck;	/* on a clock edge, long after the setup read */
	if (setup_row >= 0) {
		s = (struct memdev_req){ .addr = memdev_ddr_address(d, 0, 0, 0, setup_row, 0) };
		memdev_enqueue(d, &s, 0);
		while (!isinf(memdev_next_event(d, 0)))
			memdev_advance(d, 0, memdev_next_event(d, 0), served_at, &at);
	}
	r = (struct memdev_req){ .addr = memdev_ddr_address(d, 0, 0, 0, 5, 3) };
	memdev_enqueue(d, &r, t0);
	while (!isinf(memdev_next_event(d, 0)))
		memdev_advance(d, 0, memdev_next_event(d, 0), served_at, &at);
	memdev_close(d);
	return (at - t0) / tck;
}

static void test_idle_latency(void)
{
	CHECK_CLOSE(idle_latency(5), 21, 1e-6);		/* the row is open */
	CHECK_CLOSE(idle_latency(-1), 38, 1e-6);	/* the bank is closed */
	CHECK_CLOSE(idle_latency(9), 55, 1e-6);		/* another row is open */
}

/* A burst of n blocks of one row is one request: n column accesses, one
 * completion, the statistics per block. */
static void test_burst(void)
{
	struct memdev *d = open_ddr();
	struct memdev_req r;
	struct memdev_stats st;
	double at = 0, tck;

	CHECK(d != NULL);
	if (!d)
		return;
	tck = memdev_config(d)->ddr.tCK_s;
	r = (struct memdev_req){ .addr = memdev_ddr_address(d, 0, 0, 0, 2, 0), .blocks = 100 };
	memdev_enqueue(d, &r, 0);
	while (!isinf(memdev_next_event(d, 0)))
		memdev_advance(d, 0, memdev_next_event(d, 0), served_at, &at);
	memdev_stats(d, at, &st);
	/* ACT, then a read every tCCD_L from tRCD: the last data end at
	 * tRCD + 99 tCCD_L + CL + BL/2. */
	CHECK_CLOSE(at / tck, 17 + 99 * 6 + 17 + 4, 1e-6);
	CHECK(st.reads == 1 && st.read_bytes == 800 && st.row_misses == 1 && st.row_hits == 99);
	memdev_close(d);
}

/* Far from time 0 a cycle count turned into seconds and back must still
 * name the same cycle: every event handed out is processed when the device
 * is advanced to it (a lost digit once left the next event unprocessed
 * forever). */
static void test_far_clock(void)
{
	struct memdev *d = open_ddr();
	struct memdev_req r[64];
	double at = 0, tck;
	int stuck = 0;

	CHECK(d != NULL);
	if (!d)
		return;
	tck = memdev_config(d)->ddr.tCK_s;
	for (int k = 0; k < 64; k++) {
		double t0 = (18750000.0 + 7919.0 * k) * tck, t;

		r[k] = (struct memdev_req){ .addr = memdev_ddr_address(d, 0, 0, k % 16, k, 0) };
		memdev_enqueue(d, &r[k], t0);
		while (!isinf(t = memdev_next_event(d, 0))) {
			memdev_advance(d, 0, t, served_at, &at);
			if (memdev_next_event(d, 0) == t && ++stuck > 1000)
				break;
		}
	}
	CHECK(stuck == 0);
	memdev_close(d);
}

int main(void)
{
	RUN(test_closed_forms);
	RUN(test_dramsim3_table);
	RUN(test_idle_latency);
	RUN(test_burst);
	RUN(test_far_clock);
	CHECK_EXIT();
}
