/* SPDX-License-Identifier: MIT */
/*
 * The memory-device model against closed forms of DDR4 timing, against
 * DRAMsim3's results for the same traces and configuration (seed 003's
 * Table 5.3 device; the reference numbers and trace definitions are those
 * of study3.md section S3.7, from DRAMsim3 at commit 2981759), and the NVM
 * preset against its occupancy closed forms.  Also: the event-driven
 * model equals the same model visited at every cycle, and a channel
 * driven by its SimGrid actor gives exactly the statistics of the plain
 * replay.
 */
#include <math.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "machine/engine.h"
#include "memdev/actor.h"
#include "memdev/memdev.h"
#include "memdev/trace.h"
#include "check.h"

#define STOP 200000		/* cycles, as the reference runs */

enum pattern {
	HIT_1BANK, SEQ_1BANK, RR4_SAMEBG, RR16_CH0, RR64_ALL, RANDOM_CH0RK0, RR64_WRITE,
	BG_ALTERNATING, IDLE_HIT, IDLE_CONFLICT, IDLE_NEWBANK, MIXED,
	RANDOM_RW, RANDOM_RW_GAP3, RANDOM_R_GAP3, RANDOM_R_GAP5,
};

struct gen {
	const struct memdev *d;
	enum pattern p;
	long i, count;		/* count: 0 = endless */
	unsigned long long seed;
	int64_t at;		/* MIXED: arrival of the last request */
};

static unsigned long long xorshift(unsigned long long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Everything at once: reads and writes (30 %) of 1 to 4 blocks, few rows
 * (hits, conflicts and precharge decisions), in stretches of 400
 * requests: all at one cycle on 4 banks (full command and transaction
 * queues, requests waiting for room), spread over every bank (gaps of
 * 0 to 40 cycles, x y 40 for x, y uniform on [0, 1): 12 % of them 0, mean
 * 10), and the same after an idle stretch (refreshes while idle).
 */
static int mixed_next(struct gen *g, struct memdev_req *r, int64_t *cycle)
{
	struct memdev_addr a = { 0 };
	unsigned long long u = xorshift(&g->seed);
	long stretch = (g->i - 1) / 400 % 3;

	a.ch = u % 2;
	a.rk = (u >> 1) % 2;
	a.bg = (u >> 2) % 4;
	a.ba = (u >> 4) % 4;
	a.row = (u >> 6) % 3;
	r->blocks = 1 + (u >> 8) % 4;
	a.col = (u >> 10) % (128 - r->blocks + 1);
	r->write = (u >> 20) % 10 < 3;
	if (stretch == 0) {
		a.ch = a.rk = a.bg = 0;		/* 4 banks */
	} else {
		if (stretch == 2 && (g->i - 1) % 400 == 0)
			g->at += 20000;
		g->at += (u >> 32) % 1000 * ((u >> 42) % 1000) * 40 / 1000000;
	}
	*cycle = g->at;
	r->addr = memdev_encode(g->d, &a);
	return 1;
}

/*
 * Request i of the random traces: channel, rank, bank group, bank, row and
 * column from six xorshift draws in that order, then a seventh: a write if
 * it is 0, 1 or 2 mod 10 (RANDOM_RW*; RANDOM_R*: reads only); at cycle 0
 * or every 3 or 5 cycles.  DRAMsim3 ran the same requests, written in its
 * trace format (docs/validation/memdev.md).
 */
static int random_next(struct gen *g, long i, struct memdev_req *r, int64_t *cycle)
{
	struct memdev_addr a = { 0 };
	bool w;

	a.ch = xorshift(&g->seed) % 2;
	a.rk = xorshift(&g->seed) % 2;
	a.bg = xorshift(&g->seed) % 4;
	a.ba = xorshift(&g->seed) % 4;
	a.row = xorshift(&g->seed) % 32768;
	a.col = xorshift(&g->seed) % 128;
	w = xorshift(&g->seed) % 10 < 3;
	r->write = w && (g->p == RANDOM_RW || g->p == RANDOM_RW_GAP3);
	*cycle = g->p == RANDOM_RW ? 0 : g->p == RANDOM_R_GAP5 ? 5 * i : 3 * i;
	r->addr = memdev_encode(g->d, &a);
	r->blocks = 1;
	return 1;
}

/* The traces of study3.md S3.7 (i = request index), all at cycle 0, and
 * idle streams of one read every 500 cycles. */
static int gen_next(void *arg, struct memdev_req *r, int64_t *cycle)
{
	struct gen *g = arg;
	long i = g->i++;
	struct memdev_addr a = { 0 };
	int b;

	if (g->count && i >= g->count)
		return 0;
	if (g->p == MIXED)
		return mixed_next(g, r, cycle);
	*cycle = 0;
	switch (g->p) {
	case HIT_1BANK:
		a.col = i % 128;
		break;
	case SEQ_1BANK:
		a.col = i % 128;
		a.row = i / 128;
		break;
	case RR4_SAMEBG:
		a.ba = i % 4;
		a.col = (i / 4) % 128;
		a.row = i / 512;
		break;
	case RR16_CH0:
		b = i % 16;
		a.bg = b % 4;
		a.ba = b / 4;
		a.col = (i / 16) % 128;
		a.row = i / 2048;
		break;
	case RR64_ALL:
	case RR64_WRITE:
		a.ch = i % 2;
		a.rk = (i / 2) % 2;
		b = (i / 4) % 16;
		a.bg = b % 4;
		a.ba = b / 4;
		a.col = (i / 64) % 128;
		a.row = i / 8192;
		break;
	case RANDOM_CH0RK0:
		a.bg = xorshift(&g->seed) % 4;
		a.ba = xorshift(&g->seed) % 4;
		a.row = xorshift(&g->seed) % 32768;
		a.col = xorshift(&g->seed) % 128;
		break;
	case BG_ALTERNATING:
		a.bg = i % 4;
		a.col = (i / 4) % 128;
		a.row = i / 512;
		break;
	case IDLE_HIT:
		a.col = i % 128;
		*cycle = 500 * i;
		break;
	case IDLE_CONFLICT:
		a.row = i % 2;
		*cycle = 500 * i;
		break;
	case MIXED:
		break;
	case RANDOM_RW:		/* uniform over the device, 30 % writes */
	case RANDOM_RW_GAP3:
	case RANDOM_R_GAP3:
	case RANDOM_R_GAP5:
		return random_next(g, i, r, cycle);
	case IDLE_NEWBANK:	/* every read opens a bank never used before */
		a.ch = 0;
		a.rk = i % 2;
		a.bg = (i / 2) % 4;
		a.ba = (i / 8) % 4;
		a.row = i / 32;
		*cycle = 500 * i;
		break;
	}
	r->addr = memdev_encode(g->d, &a);
	r->blocks = 1;
	r->write = g->p == RR64_WRITE;
	return 1;
}

static struct memdev_stats run(struct memdev_config *c, enum pattern p, long count, int64_t stop)
{
	struct memdev *d = memdev_open(c);
	struct gen g = { .d = d, .p = p, .count = count, .seed = 88172645463325252ULL };
	struct memdev_stats s;
	int64_t end;

	CHECK(memdev_replay(d, gen_next, &g, stop, &end) == 0);
	memdev_stats_cycles(d, end, &s);
	memdev_close(d);
	return s;
}

static struct memdev_config table_5_3(void)
{
	struct memdev_config c;

	CHECK(memdev_preset("ddr4-2400-x8-2ch2rk", &c) == 0);
	return c;
}

static double per_kcycle(const struct memdev_stats *s, double n)
{
	return n / (s->elapsed_s / s->cycle_s / 1000);
}

/* Closed forms (study3.md S3.7, WI-1), within 1%. */
static void closed_forms(void)
{
	struct memdev_config c = table_5_3();
	struct memdev_stats s;
	/* Refresh takes tRFC of every tREFI of a rank. */
	double avail = 1 - 312.0 / 9360.0;

	s = run(&c, HIT_1BANK, 0, STOP);
	CHECK_CLOSE(per_kcycle(&s, s.requests), 1000.0 / 6 * avail, 0.01);	/* 1 / tCCD_L */
	s = run(&c, BG_ALTERNATING, 0, STOP);
	CHECK_CLOSE(per_kcycle(&s, s.requests), 1000.0 / 4 * avail, 0.01);	/* 1 / (BL/2) */
	/* Random rows of one rank: four activations per tFAW (without
	 * refresh, which the closed form leaves out). */
	c.refresh = MEMDEV_REF_NONE;
	s = run(&c, RANDOM_CH0RK0, 0, STOP);
	CHECK_CLOSE(per_kcycle(&s, s.acts), 4000.0 / 26, 0.01);
	/* Idle reads: CL + BL/2, tRCD + CL + BL/2, tRP + tRCD + CL + BL/2,
	 * plus the model's one cycle between arrival and issue. */
	s = run(&c, IDLE_NEWBANK, 32, 0);	/* 32 banks, each opened once */
	CHECK_CLOSE(s.latency_mean_s / s.cycle_s, 17 + 17 + 4 + 1, 1e-9);
	/* The first read of the other streams opens the bank. */
	s = run(&c, IDLE_HIT, 400, 0);
	CHECK_CLOSE(s.latency_mean_s / s.cycle_s, ((17 + 17 + 4 + 1) + 399.0 * (17 + 4 + 1)) / 400, 1e-9);
	s = run(&c, IDLE_CONFLICT, 400, 0);
	CHECK_CLOSE(s.latency_mean_s / s.cycle_s,
		    ((17 + 17 + 4 + 1) + 399.0 * (17 + 17 + 17 + 4 + 1)) / 400, 1e-9);
}

/* DRAMsim3 on the same device and traces (study3.md S3.7): bandwidth
 * within 5%, row-hit rate within 3 points, idle latencies within 4 cycles. */
static void dramsim3_table(void)
{
	static const struct {
		enum pattern p;
		double gbps, hit_pct;
	} ref[] = {
		{ HIT_1BANK, 1.541, 99.9 }, { SEQ_1BANK, 1.470, 99.2 },
		{ RR4_SAMEBG, 1.541, 99.0 }, { RR16_CH0, 2.307, 98.5 },
		{ RANDOM_CH0RK0, 1.415, 0.0 }, { RR64_ALL, 4.732, 97.9 },
		{ RR64_WRITE, 4.792, 97.7 },
	};
	struct memdev_config c = table_5_3();
	struct memdev_stats s;

	for (size_t k = 0; k < sizeof(ref) / sizeof(ref[0]); k++) {
		s = run(&c, ref[k].p, 0, STOP);
		CHECK_CLOSE(s.bw_total_Bps / 1e9, ref[k].gbps, 0.05);
		CHECK(fabs(100 * s.row_hit_rate - ref[k].hit_pct) <= 3);
	}
	s = run(&c, IDLE_HIT, 400, 0);
	CHECK(fabs(s.latency_mean_s / s.cycle_s - 28.7) <= 4);
	s = run(&c, IDLE_CONFLICT, 400, 0);
	CHECK(fabs(s.latency_mean_s / s.cycle_s - 60.8) <= 4);
}

/*
 * DRAMsim3 (commit 2981759, the device of dramsim3_table) on random traces
 * over the whole device, counted as commands, which both count alike (a
 * "done" write is not: DRAMsim3's is accepted, ours written): read and
 * write bursts and activations in 200,000 cycles within 2 %, the mean
 * latency of an unsaturated mix within 3 % and that of unsaturated read
 * streams within 2 cycles.  Turnarounds and rank switches set the rates,
 * the write drain the writes' latency (docs/validation/memdev.md).
 */
static void dramsim3_random(void)
{
	struct memdev_config c = table_5_3();
	struct memdev_stats s;

	s = run(&c, RANDOM_RW, 0, STOP);
	CHECK_CLOSE(s.reads, 56688, 0.02);
	CHECK_CLOSE(s.writes, 24555, 0.02);
	CHECK_CLOSE(s.acts, 81938, 0.02);
	s = run(&c, RANDOM_RW_GAP3, 60000, STOP);
	CHECK(s.requests == 60000);
	CHECK_CLOSE(s.acts, 60196, 0.02);
	/* Reads and writes to the end of their burst: when the write buffer
	 * drains decides the writes' share. */
	CHECK_CLOSE(s.latency_mean_s / s.cycle_s, 247.84, 0.03);
	s = run(&c, RANDOM_R_GAP3, 60000, STOP);
	CHECK(fabs(s.latency_mean_s / s.cycle_s - 93.10) <= 2);
	s = run(&c, RANDOM_R_GAP5, 30000, STOP);
	CHECK(fabs(s.latency_mean_s / s.cycle_s - 73.58) <= 2);
}

/* Jumping from event to event must give what visiting every cycle gives. */
static void events_equal_cycles(void)
{
	static const enum pattern ps[] = { RR4_SAMEBG, RR64_ALL, RANDOM_CH0RK0, RR64_WRITE, IDLE_CONFLICT };

	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		struct memdev_config c = table_5_3();
		struct memdev_stats a, b;

		a = run(&c, ps[k], 20000, 0);
		c.step_every_cycle = 1;
		b = run(&c, ps[k], 20000, 0);
		CHECK(a.requests == b.requests && a.acts == b.acts && a.row_hits == b.row_hits);
		CHECK(a.elapsed_s == b.elapsed_s && a.latency_mean_s == b.latency_mean_s);
		CHECK(a.busy_s == b.busy_s && a.bank_busy_s == b.bank_busy_s);
	}
}

/*
 * The values the DDR4 model keeps between steps (first hits, earliest
 * command times, the next request to move, the next event) against the
 * same run with all of them found again at every cycle
 * (step_every_cycle = 2), under every page policy, scheduler and refresh
 * policy and with and without a write buffer.
 */
static void kept_values_exact(void)
{
	static const enum memdev_page_policy pages[] = { MEMDEV_OPEN_PAGE, MEMDEV_CLOSE_PAGE };
	static const enum memdev_sched scheds[] = { MEMDEV_FRFCFS, MEMDEV_FCFS };
	static const enum memdev_refresh refs[] = { MEMDEV_REF_STAGGERED, MEMDEV_REF_SIMULTANEOUS,
						    MEMDEV_REF_NONE };

	for (int pg = 0; pg < 2; pg++)
		for (int sc = 0; sc < 2; sc++)
			for (int rf = 0; rf < 3; rf++)
				for (int wb = 0; wb <= 8; wb += 8) {
					struct memdev_config c = table_5_3();
					struct memdev_stats a, b;

					c.page_policy = pages[pg];
					c.sched = scheds[sc];
					c.refresh = refs[rf];
					c.write_buf_size = wb;
					a = run(&c, MIXED, 3000, 0);
					c.step_every_cycle = 2;
					b = run(&c, MIXED, 3000, 0);
					CHECK(a.requests == 3000 && a.requests == b.requests);
					CHECK(a.acts == b.acts && a.pres == b.pres && a.refs == b.refs);
					CHECK(a.row_hits == b.row_hits && a.writes == b.writes);
					CHECK(a.elapsed_s == b.elapsed_s && a.latency_mean_s == b.latency_mean_s);
					CHECK(a.latency_max_s == b.latency_max_s);
					CHECK(a.busy_s == b.busy_s && a.bank_busy_s == b.bank_busy_s);
				}
}

/* ---- NVM ---- */

struct nvm_gen {
	const struct memdev *d;
	long i, count;
	int banks;		/* writes spread over this many pages */
};

static int nvm_next(void *arg, struct memdev_req *r, int64_t *cycle)
{
	struct nvm_gen *g = arg;
	long i = g->i++;

	if (i >= g->count)
		return 0;
	/* Under page interleaving page k is in bank k mod 8. */
	r->addr = (uint64_t)(i % g->banks) * 4096 + (uint64_t)(i / g->banks % 64) * 64;
	r->blocks = 1;
	r->write = true;
	*cycle = 0;
	return 1;
}

/* Seed 003, Table 4.1: 300 ns writes occupy their bank. */
static void nvm_preset(void)
{
	struct memdev_config c;
	struct memdev_stats s;
	struct memdev *d;
	struct nvm_gen g;
	int64_t end;

	CHECK(memdev_preset("nvm", &c) == 0);
	for (int banks = 1; banks <= 8; banks *= 8) {
		d = memdev_open(&c);
		g = (struct nvm_gen){ d, 0, 8000, banks };
		CHECK(memdev_replay(d, nvm_next, &g, 0, &end) == 0);
		memdev_stats_cycles(d, end, &s);
		CHECK(s.requests == 8000);
		CHECK_CLOSE(s.requests / s.elapsed_s, banks / 300e-9, banks == 1 ? 0.01 : 0.02);
		CHECK_CLOSE(s.blp, banks, 0.02);
		memdev_close(d);
	}
	/* A sequential stream stays in one bank for a page (64 lines) under
	 * page interleaving, and moves on every line under line interleaving. */
	d = memdev_open(&c);
	for (int i = 0; i < 200; i++)
		CHECK(memdev_bank_of(d, (uint64_t)i * 64) == (i / 64) % 8);
	memdev_close(d);
	c.interleave = MEMDEV_LINE;
	d = memdev_open(&c);
	for (int i = 0; i < 200; i++)
		CHECK(memdev_bank_of(d, (uint64_t)i * 64) == i % 8);
	memdev_close(d);
}

/* ---- the SimGrid channel actors ---- */

struct client {
	struct memdev *d;
	struct memdev_actor *ch[2];
	struct gen g;
	struct memdev_req *reqs;
	long done;
};

/*
 * Statistics asked at a time before the device's last service (a client
 * that advanced it further, then stopped its clock earlier): the union of
 * busy time holds all of it.  One channel busy: its busy time is the
 * union's, so the channel-level parallelism is exactly 1.
 */
static void stats_before_last_service(void)
{
	struct memdev_config c = table_5_3();
	struct memdev *d = memdev_open(&c);
	struct memdev_req r[2] = { { .blocks = 1 }, { .blocks = 1 } };
	struct memdev_addr a = { 0 };
	struct memdev_stats s;

	r[0].addr = memdev_encode(d, &a);
	a.row = 1;		/* a row miss on the same bank of channel 0 */
	r[1].addr = memdev_encode(d, &a);
	CHECK(memdev_enqueue(d, &r[0], 0) == 0);
	memdev_advance_all(d, 1e-6, NULL, NULL);
	CHECK(isfinite(r[0].done_s));
	CHECK(memdev_enqueue(d, &r[1], 2e-6) == 0);
	memdev_advance_all(d, 1e-5, NULL, NULL);
	CHECK(isfinite(r[1].done_s));
	memdev_stats(d, 1.5e-6, &s);
	CHECK(s.clp == 1);
	CHECK_CLOSE(s.busy_s, s.channel_busy_s, 1e-12);
	CHECK(s.elapsed_s >= r[1].done_s - 1e-12);
	memdev_close(d);
}

/* A client in seconds that enqueues each request of pattern p at its cycle
 * or as soon as its channel has room, in one call (placed: false) or in
 * memdev_place / memdev_room / memdev_enqueue_placed steps, placing each
 * request once however often it asks for room; *asked: room verdicts. */
static struct memdev_stats drive(struct memdev_config *c, enum pattern p, long n, bool placed,
				 long *asked)
{
	struct memdev *d = memdev_open(c);
	struct gen g = { .d = d, .p = p, .count = n, .seed = 88172645463325252ULL };
	struct memdev_req *r = calloc(n, sizeof(*r));
	struct memdev_stats s;
	double now = 0, tck = c->tCK_ns * 1e-9;
	int64_t cyc;

	*asked = 0;
	for (long i = 0; i < n && gen_next(&g, &r[i], &cyc) > 0; i++) {
		struct memdev_addr a;
		bool room;

		if (cyc * tck > now)
			now = cyc * tck;
		memdev_advance_all(d, now, NULL, NULL);
		CHECK(!placed || !memdev_place(d, &r[i], &a));
		for (;;) {
			room = placed ? memdev_room(d, &a, r[i].write) : memdev_can_accept(d, &r[i]);
			++*asked;
			if (room)
				break;
			now = memdev_next_event_all(d);
			memdev_advance_all(d, now, NULL, NULL);
		}
		if (placed)
			memdev_enqueue_placed(d, &r[i], &a, now);
		else
			CHECK(memdev_enqueue(d, &r[i], now) == 0);
	}
	while (isfinite(now = memdev_next_event_all(d)))
		memdev_advance_all(d, now, NULL, NULL);
	memdev_stats(d, now, &s);
	memdev_close(d);
	free(r);
	return s;
}

/* memdev_enqueue() in steps: where a request goes, what is refused, and
 * the same run as in one call. */
static void placed_steps_equal_enqueue(void)
{
	struct memdev_config c = table_5_3();
	struct memdev *d = memdev_open(&c);
	const struct memdev_addr a = { .ch = 1, .rk = 1, .bg = 2, .ba = 3, .row = 77, .col = 120 };
	struct memdev_addr b;
	uint64_t at = memdev_encode(d, &a), cap = (uint64_t)c.capacity_bytes;
	struct {
		uint64_t addr;
		unsigned blocks;
		bool ok;
	} cases[] = {
		{ at, 8, true },		/* blocks 120 to 127: the row's last */
		{ at + 8, 8, false },		/* 121 to 128: past the row */
		{ at + 1, 1, false },		/* not on a block */
		{ cap - 8, 1, true },		/* the device's last block */
		{ cap - 8, 2, false },		/* and one past it */
		{ cap, 1, false },
	};
	struct memdev_stats x, y;
	long nx, ny;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct memdev_req r = { .addr = cases[i].addr, .blocks = cases[i].blocks };

		CHECK((memdev_place(d, &r, &b) == NULL) == cases[i].ok);
	}
	CHECK(!memdev_place(d, &(struct memdev_req){ .addr = at, .blocks = 1 }, &b));
	CHECK(b.ch == a.ch && b.rk == a.rk && b.bg == a.bg && b.ba == a.ba && b.row == a.row &&
	      b.col == a.col);
	memdev_close(d);

	x = drive(&c, MIXED, 4000, false, &nx);
	y = drive(&c, MIXED, 4000, true, &ny);
	CHECK(nx > 4000);	/* some requests waited for room */
	CHECK(nx == ny && x.requests == 4000 && y.requests == 4000);
	CHECK(x.acts == y.acts && x.row_hits == y.row_hits && x.reads == y.reads);
	CHECK(x.elapsed_s == y.elapsed_s && x.latency_mean_s == y.latency_mean_s);
	CHECK(x.busy_s == y.busy_s && x.bank_busy_s == y.bank_busy_s);
}

/* memdev_locate() is memdev_place() the other way: on the Table 5.3 device
 * and the NVM preset, every place a request can go gives an address that
 * places it there (on DDR4, the one it came from), and a place the device
 * lacks is refused. */
static bool locate_round_trip(const struct memdev *d, uint64_t addr, unsigned blocks, bool same)
{
	struct memdev_addr a, b;
	uint64_t back;

	if (memdev_place(d, &(struct memdev_req){ .addr = addr, .blocks = blocks }, &a))
		return false;
	if (memdev_locate(d, &a, blocks, &back) || (same && back != addr))
		return false;
	memdev_decode(d, back, &b);
	return b.ch == a.ch && b.rk == a.rk && b.bg == a.bg && b.ba == a.ba && b.row == a.row &&
	       b.col == a.col;
}

static void locate_inverts_place(void)
{
	struct memdev_config c = table_5_3(), n;
	struct memdev *d = memdev_open(&c);
	const struct memdev_addr ok = { .ch = 1, .rk = 1, .bg = 3, .ba = 3, .row = 32767, .col = 127 };
	struct memdev_addr bad[] = { ok, ok, ok, ok, ok, ok, ok, ok };
	unsigned long long seed = 7;
	uint64_t addr;

	for (int i = 0; i < 10000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		CHECK(locate_round_trip(d, (seed >> 11) % (uint64_t)c.capacity_bytes & ~7ULL, 1, true));
	}
	CHECK(!memdev_locate(d, &ok, 1, &addr) && addr == (uint64_t)c.capacity_bytes - 8);
	CHECK(memdev_locate(d, &ok, 2, &addr));	/* past the row's end */
	bad[0].ch = 2;
	bad[1].rk = -1;
	bad[2].bg = 4;
	bad[3].ba = 4;
	bad[4].row = 32768;
	bad[5].col = -1;
	bad[6].col = 128;
	bad[7].ba = -1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(memdev_locate(d, &bad[i], 1, &addr) != NULL);
	memdev_close(d);

	CHECK(memdev_preset("nvm", &n) == 0);
	d = memdev_open(&n);
	/* Page interleaving, a bank a page; an NVM place is a bank, whose
	 * address is its first page. */
	for (uint64_t page = 0; page < 4096; page++)
		CHECK(locate_round_trip(d, page * 4096, 1, page < 8));
	CHECK(memdev_locate(d, &(struct memdev_addr){ .ba = 7 }, 1, &addr) == NULL);
	CHECK(memdev_locate(d, &(struct memdev_addr){ .ba = 8 }, 1, &addr) != NULL);
	CHECK(memdev_locate(d, &(struct memdev_addr){ .ba = 1, .row = 1 }, 1, &addr) != NULL);
	CHECK(memdev_locate(d, &(struct memdev_addr){ .ba = 1 }, 2, &addr) != NULL);
	memdev_close(d);
}

static void client_done(void *arg, struct memdev_req *r)
{
	((struct client *)arg)->done++;
}

/* The replay's rules as an actor: requests in order, each at its cycle or
 * as soon as its channel has room, at most one a cycle. */
static void client_main(void *arg)
{
	struct client *cl = arg;
	double cyc = memdev_config(cl->d)->tCK_ns * 1e-9;
	int64_t at;

	for (long i = 0; i < cl->g.count; i++) {
		struct memdev_req *r = &cl->reqs[i];
		struct memdev_addr a;

		gen_next(&cl->g, r, &at);
		if (at * cyc > simgrid_get_clock())
			sg_actor_sleep_until(at * cyc);
		memdev_decode(cl->d, r->addr, &a);
		memdev_actor_wait_room(cl->ch[a.ch], r);
		CHECK(memdev_actor_submit(cl->ch[a.ch], r) == 0);
		sg_actor_sleep_until((ceil(simgrid_get_clock() / cyc - 1e-6) + 1) * cyc);
	}
	while (cl->done < cl->g.count)
		sg_actor_sleep_for(1e-6);
}

static void actor_equals_replay(void)
{
	static const enum pattern ps[] = { RR64_ALL, RANDOM_CH0RK0, IDLE_CONFLICT };
	struct memdev_config c = table_5_3();
	struct client cl = { 0 };
	struct dl_platform *p;
	struct memdev_stats want[3], got;
	long n = 3000;
	pid_t pid;

	for (int k = 0; k < 3; k++)
		want[k] = run(&c, ps[k], n, 0);
	/* One simulation per process. */
	for (int k = 0; k < 3; k++) {
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			int bad = 0;

			if (dl_engine_start("platforms/dc-8.xml", &p)) {
				fflush(stdout);
				_exit(2);
			}
			cl.d = memdev_open(&c);
			cl.g = (struct gen){ .d = cl.d, .p = ps[k], .count = n, .seed = 88172645463325252ULL };
			cl.reqs = calloc(n, sizeof(*cl.reqs));
			for (int ch = 0; ch < 2; ch++)
				cl.ch[ch] = memdev_actor_start(cl.d, ch, p->hosts[p->devices[0]].sg,
							       client_done, &cl);
			dl_actor_start("client", p->hosts[p->devices[1]].sg, client_main, &cl);
			dl_engine_run();
			/* The client left once the last request completed. */
			memdev_stats(cl.d, simgrid_get_clock(), &got);
			bad |= got.requests != want[k].requests || got.acts != want[k].acts;
			bad |= got.row_hits != want[k].row_hits;
			bad |= fabs(got.latency_mean_s - want[k].latency_mean_s) > 1e-15;
			bad |= fabs(got.bank_busy_s - want[k].bank_busy_s) > 1e-12;
			if (bad)
				printf("    pattern %d: actor %ld req %ld acts %.6g cyc; replay %ld req %ld acts %.6g cyc\n",
				       ps[k], got.requests, got.acts, got.latency_mean_s / got.cycle_s,
				       want[k].requests, want[k].acts, want[k].latency_mean_s / want[k].cycle_s);
			fflush(stdout);
			_exit(bad);
		}
		int status;

		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

/* A source that does not check its requests: the second lies past the
 * device's capacity. */
static int unchecked_next(void *arg, struct memdev_req *r, int64_t *cycle)
{
	int *i = arg;

	if (*i == 3)
		return 0;
	r->addr = *i == 1 ? (uint64_t)1 << 40 : 64 * (uint64_t)*i;
	r->blocks = 1;
	*cycle = *i;
	++*i;
	return 1;
}

/* The replay stops with a message on a request the device cannot place,
 * rather than wait for room that can never come and end as if the stream
 * were done. */
static void replay_refuses_unplaceable(void)
{
	struct memdev_config c = table_5_3();
	struct memdev *d = memdev_open(&c);
	struct memdev_stats s;
	int64_t end;
	int i = 0;

	CHECK(memdev_replay(d, unchecked_next, &i, 0, &end) == -1);
	CHECK(i == 2);		/* nothing asked for after the bad one */
	memdev_stats_cycles(d, end, &s);
	CHECK(s.requests + memdev_outstanding(d) == 1);	/* the first one only */
	memdev_close(d);
}

int main(void)
{
	RUN(closed_forms);
	RUN(dramsim3_table);
	RUN(dramsim3_random);
	RUN(events_equal_cycles);
	RUN(kept_values_exact);
	RUN(nvm_preset);
	RUN(stats_before_last_service);
	RUN(placed_steps_equal_enqueue);
	RUN(locate_inverts_place);
	RUN(actor_equals_replay);
	RUN(replay_refuses_unplaceable);
	CHECK_EXIT();
}
