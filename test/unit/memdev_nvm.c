/* SPDX-License-Identifier: MIT */
/*
 * The NVM preset of the memory-device service against closed forms
 * (study3 WI-1): a one-bank write stream completes one write per 300 ns,
 * eight banks in turn eight per 300 ns, an idle read takes 48 ns; page
 * interleaving keeps 64 consecutive lines (4 KB) in one bank, line
 * interleaving moves to the next bank every line.
 */
#include <math.h>

#include "check.h"
#include "memdev/memdev.h"

#define N 1000

static struct memdev_req req[8 * N];
static int ndone;
static double last_done;

static void done(void *arg, struct memdev_req *r)
{
	ndone++;
	last_done = r->done_s;
}

/* Advance the device event by event until it is idle. */
static void run(struct memdev *d)
{
	double t;

	while (!isinf(t = memdev_next_event(d, 0)))
		memdev_advance(d, 0, t, done, NULL);
}

/* The preset with `queue` waiting requests at most (0: no bound, so that
 * the closed forms below can hand a whole stream over at once). */
static struct memdev *nvm_queue(enum memdev_interleave il, int queue)
{
	struct memdev_config cfg;

	if (memdev_preset("nvm", &cfg))
		return NULL;
	cfg.interleave = il;
	cfg.trans_queue_size = queue;
	ndone = 0;
	last_done = 0;
	return memdev_open(&cfg);
}

static struct memdev *nvm(enum memdev_interleave il)
{
	return nvm_queue(il, 0);
}

static void one_bank_write_stream(void)
{
	struct memdev *d = nvm(MEMDEV_PAGE);

	CHECK(d && memdev_banks(d) == 8);
	for (int i = 0; i < N; i++) {
		req[i] = (struct memdev_req){ .addr = 64L * (i % 64), .write = true };
		memdev_enqueue(d, &req[i], 0);
	}
	CHECK(memdev_bank_pending(d, 0) == N);
	run(d);
	CHECK(ndone == N);
	CHECK_CLOSE(N / last_done, 1 / 300e-9, 0.01);
	CHECK(memdev_bank_pending(d, 0) == 0);
	memdev_close(d);
}

static void eight_banks_round_robin(void)
{
	struct memdev *d = nvm(MEMDEV_PAGE);
	struct memdev_stats st;

	for (int i = 0; i < 8 * N; i++) {
		req[i] = (struct memdev_req){ .addr = 4096L * i, .write = true };
		memdev_enqueue(d, &req[i], 0);
	}
	run(d);
	CHECK(ndone == 8 * N);
	CHECK_CLOSE(8 * N / last_done, 8 / 300e-9, 0.02);
	memdev_stats(d, last_done, &st);
	CHECK(st.writes == 8 * N && st.reads == 0);
	CHECK_CLOSE(st.busy_s, last_done, 1e-9);
	CHECK_CLOSE(st.bank_busy_s, 8 * last_done, 1e-9);
	memdev_close(d);
}

static void idle_read(void)
{
	struct memdev *d = nvm(MEMDEV_PAGE);

	req[0] = (struct memdev_req){ .addr = 12345 * 64L, .write = false };
	memdev_enqueue(d, &req[0], 1e-6);
	run(d);
	CHECK(ndone == 1);
	CHECK_CLOSE(req[0].done_s - req[0].arrive_s, 48e-9, 1e-9);
	memdev_close(d);
}

static void interleaving(void)
{
	struct memdev *page = nvm(MEMDEV_PAGE), *line = nvm(MEMDEV_LINE);
	long base = 7 * 4096;

	for (int i = 0; i < 64; i++) {
		CHECK(memdev_bank_of(page, base + 64L * i) == 7);
		CHECK(memdev_bank_of(line, base + 64L * i) == i % 8);
	}
	CHECK(memdev_bank_of(page, base + 4096) == 0);
	memdev_close(page);
	memdev_close(line);
}

/* A bank serves its queue in arrival order; the device completes in time
 * order across banks. */
static void order_of_completion(void)
{
	struct memdev *d = nvm(MEMDEV_PAGE);

	req[0] = (struct memdev_req){ .addr = 0, .write = true };	/* bank 0: 0-300 ns */
	req[1] = (struct memdev_req){ .addr = 64, .write = false };	/* bank 0: 300-348 ns */
	req[2] = (struct memdev_req){ .addr = 4096, .write = false };	/* bank 1: 0-48 ns */
	for (int i = 0; i < 3; i++)
		memdev_enqueue(d, &req[i], 0);
	run(d);
	CHECK_CLOSE(req[2].done_s, 48e-9, 1e-9);
	CHECK_CLOSE(req[0].done_s, 300e-9, 1e-9);
	CHECK_CLOSE(req[1].done_s, 348e-9, 1e-9);
	memdev_close(d);
}

/* The preset's channel holds 32 waiting requests, reads and writes
 * together; one entering service frees a place. */
static void queue_bound(void)
{
	struct memdev *d = nvm_queue(MEMDEV_PAGE, 32);
	int taken = 0;

	for (int i = 0; i < 40; i++) {
		req[i] = (struct memdev_req){ .addr = 64L * i, .write = i % 2 };
		taken += memdev_enqueue(d, &req[i], 0) == 0;
	}
	CHECK(taken == 32);
	CHECK(!memdev_can_accept(d, &req[32]));
	memdev_advance(d, 0, 0.5e-9, done, NULL);	/* cycle 0: the first in service */
	CHECK(memdev_can_accept(d, &req[32]));
	CHECK(memdev_enqueue(d, &req[32], 1e-9) == 0);
	CHECK(memdev_enqueue(d, &req[33], 1e-9) != 0);
	run(d);
	CHECK(ndone == 33);
	memdev_close(d);
}

/*
 * Times far from zero: a request handed over at about 65 s (6.5e10 cycles
 * of 1 ns) and 10^6 s is served in its 300 ns, each of its events reached
 * in one advance to the time memdev_next_event() gives.  A time converted
 * to cycles once lost a cycle to the double's rounding there, and the
 * event came back forever at the same time.
 */
static void far_times(void)
{
	const double at[] = { 65.000000196, 1e6 + 0.25e-9 };

	for (int k = 0; k < 2; k++) {
		struct memdev *d = nvm(MEMDEV_PAGE);
		int steps = 0;
		double t;

		req[0] = (struct memdev_req){ .addr = 0, .write = true };
		CHECK(memdev_enqueue(d, &req[0], at[k]) == 0);
		while (!isinf(t = memdev_next_event(d, 0)) && steps++ < 10)
			memdev_advance(d, 0, t, done, NULL);
		CHECK(steps == 2);	/* into service, then done */
		CHECK(ndone == 1);
		CHECK_CLOSE(req[0].done_s - req[0].arrive_s, 300e-9, 1e-3);
		memdev_close(d);
	}
}

int main(void)
{
	RUN(one_bank_write_stream);
	RUN(eight_banks_round_robin);
	RUN(idle_read);
	RUN(interleaving);
	RUN(order_of_completion);
	RUN(queue_bound);
	RUN(far_times);
	CHECK_EXIT();
}
