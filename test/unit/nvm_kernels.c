/* SPDX-License-Identifier: MIT */
/*
 * The benchmark kernels and their recorder: a transaction's trace by hand,
 * every kernel's structure whole after 2000 transactions (kernel_trace
 * checks it), and the write sets against Figure 3.1's bounds.
 */
#include "check.h"
#include "nvmbench/kernels.h"
#include "nvm/report.h"

/* Reads at first touch, a write after the last store, gaps of 3
 * instructions per 8 B access, 100 per transaction (docs/nvm.md). */
static void recorder_trace_by_hand(void)
{
	struct kheap h;
	struct ktrace t;
	struct krec r;
	long *p, line0;

	CHECK(kheap_init(&h, 4096, 1L << 30, 12345) == 0);
	p = kheap_array(&h, 256);
	line0 = kheap_addr(&h, p);
	/* Lines of a page stay together; the page is somewhere in the region. */
	CHECK(line0 % 4096 == 0 && line0 >= 1L << 30 && line0 < 2L << 30);
	CHECK(kheap_addr(&h, p + 8) == line0 + 64);
	krec_init(&r, &h, &t);
	krec_begin(&r);
	krec_read(&r, p + 8, 8);	/* line 1, access 1 */
	krec_write(&r, p, 8);		/* line 0, access 2 */
	krec_write(&r, p, 16);		/* line 0, accesses 3-4 */
	krec_read(&r, p + 1, 8);	/* line 0 again, access 5 */
	CHECK(krec_end(&r) == 0);
	CHECK(t.ntx == 1 && t.nops == 3);
	if (t.nops == 3) {
		CHECK(!t.op[0].write && t.op[0].addr == line0 + 64);
		CHECK(t.op[0].insns == 100 + 1 * 3);
		CHECK(!t.op[1].write && t.op[1].addr == line0 && t.op[1].insns == 1 * 3);
		CHECK(t.op[2].write && t.op[2].addr == line0 && t.op[2].insns == 2 * 3);
		CHECK(t.tail[0] == 1 * 3);
	}
	CHECK(ktrace_writes(&t, 0) == 1);
	/* The allocator writes the object's header in the transaction. */
	krec_begin(&r);
	CHECK(kheap_alloc(&h, 40) != NULL);
	CHECK(krec_end(&r) == 0);
	CHECK(t.ntx == 2 && ktrace_writes(&t, 1) == 1);
	krec_free(&r);
	ktrace_free(&t);
	kheap_free(&h);
}

/* The traces a process holds are bounded: a transaction that would pass
 * the bound is refused (and says so), and freeing a trace gives its
 * operations back. */
static void traces_are_bounded(void)
{
	long before = ktrace_set_limit(5);
	struct kheap h;
	struct ktrace t, u;
	struct krec r;
	long *p;

	CHECK(kheap_init(&h, 4096, 1L << 30, 1) == 0);
	p = kheap_array(&h, 256);
	krec_init(&r, &h, &t);
	for (int i = 0; i < 2; i++) {	/* a read and a write each: 4 ops */
		krec_begin(&r);
		krec_write(&r, p + 8 * i, 8);
		CHECK(krec_end(&r) == 0 && !r.over);
	}
	krec_begin(&r);
	krec_write(&r, p + 16, 8);	/* 6 > 5 */
	CHECK(krec_end(&r) == -1 && r.over);
	CHECK(t.ntx == 2 && t.nops == 4);
	krec_free(&r);
	ktrace_free(&t);
	krec_init(&r, &h, &u);	/* the 4 are given back */
	krec_begin(&r);
	krec_write(&r, p + 16, 8);
	CHECK(krec_end(&r) == 0 && u.nops == 2);
	krec_free(&r);
	ktrace_free(&u);
	kheap_free(&h);
	ktrace_set_limit(before);
}

static struct nvm_wset wset[16];

/* Every kernel runs 2000 transactions and keeps its structure whole. */
static void kernels_run_and_stay_whole(void)
{
	for (int i = 0; i < nvm_nkernels; i++) {
		CHECK(nvm_write_sets(nvm_kernels[i], 2000, 1, &wset[i]) == 0);
		CHECK(wset[i].tx == 2000 && wset[i].mean_lines >= 1);
	}
}

static double above_32(const char *name)
{
	for (int i = 0; i < nvm_nkernels; i++)
		if (strcmp(nvm_kernels[i]->name, name) == 0)
			return 1 - wset[i].share_below_32;
	return -1;
}

/* Figure 3.1 and section 3.2.1: most transactions of every benchmark
 * write fewer than 64 lines (>= 90 %), those of RB Tree and TATP fewer
 * than 32 (>= 95 %); Array Random has the most above 32 ("Mix1 and Mix3
 * have more log-transactions", 3.6.4). */
static void write_sets_meet_figure_3_1(void)
{
	for (int i = 0; i < nvm_nkernels; i++) {
		const char *n = nvm_kernels[i]->name;

		if (wset[i].share_below_64 < 0.90) {
			printf("    %s: %.1f %% below 64 lines\n", n, 100 * wset[i].share_below_64);
			CHECK(0);
		}
		if ((!strcmp(n, "rbtree") || !strcmp(n, "tatp")) && wset[i].share_below_32 < 0.95) {
			printf("    %s: %.1f %% below 32 lines\n", n, 100 * wset[i].share_below_32);
			CHECK(0);
		}
		if (strcmp(n, "array"))
			CHECK(above_32("array") > above_32(n));
	}
}

int main(void)
{
	RUN(recorder_trace_by_hand);
	RUN(traces_are_bounded);
	RUN(kernels_run_and_stay_whole);
	RUN(write_sets_meet_figure_3_1);
	CHECK_EXIT();
}
