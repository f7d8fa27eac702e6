/* SPDX-License-Identifier: MIT */
/*
 * TM-Training's Algorithms 1 and 3 and Algorithm 2's access counts,
 * against values worked out by hand from the listings (docs/tier.md).
 */
#include "check.h"
#include "tmgraph/npu.h"
#include "tier/split.h"


#define GB 1e9

/* Compute-bound: the interval (10 ms) exceeds D / (BW1 + BW2) = 0.823 ms,
 * so tier 2 takes what it delivers in 10 ms: 150 MB of 1 GB. */
static void alg1_compute_bound(void)
{
	CHECK_CLOSE(split_approx(0.010, 1 * GB, 1200 * GB, 15 * GB), 0.85, 1e-12);
}

/* Memory-bound: 0.5 ms < 0.823 ms; both tiers finish together. */
static void alg1_memory_bound(void)
{
	CHECK_CLOSE(split_approx(0.0005, 1 * GB, 1200 * GB, 15 * GB), 1200.0 / 1215.0, 1e-12);
}

/* A long interval: tier 2 alone is fast enough, r' = 0 (not negative). */
static void alg1_all_in_tier2(void)
{
	CHECK(split_approx(1.0, 1 * GB, 1200 * GB, 15 * GB) == 0);
}

static struct split_use use(double e2, double system_w)
{
	/* D = 1 GB, tier 2 delivers half of it in the interval (r_b = 0.5). */
	return (struct split_use){
		.bytes = 1 * GB, .fetches = 1, .tc_s = 0.5 * GB / (15 * GB), .tr_s = 0.05,
		.bw1_Bps = 1200 * GB, .bw2_Bps = 15 * GB,
		.e1_j_per_byte = HBM_J_PER_BYTE, .e2_j_per_byte = e2,
		.static1_w = 21.9, .tier1_share = 0.125, .static2_w = 0.05,
		.system_static_w = system_w, .base_j = 1,
	};
}

/* Table 2 energies: a flash read (600 pJ/B) costs more than the two HBM
 * accesses it replaces (63.5 pJ/B), so the loop stops at once. */
static void alg3_table2_stops(void)
{
	struct split_use u = use(FLASH_J_PER_BYTE, 3);

	CHECK_CLOSE(split_adjust(&u, 436.0 / 512, 512), 436.0 / 512, 1e-12);
	CHECK_CLOSE(split_adjust_exact(&u, 0.5), 0.5, 1e-12);
}

/* A tier 2 cheaper than two HBM accesses (10 pJ/B): each step of 0.1 down
 * from 0.8 saves 0.1 x 1 GB x (63.5 - 10) pJ = 5.35 mJ; below 0.5 each step
 * also adds 6.67 ms of stall, 66.7 mJ at 10 W: the loop stops at 0.5. */
static void alg3_descends_to_stall(void)
{
	struct split_use u = use(10e-12, 10);

	CHECK_CLOSE(split_adjust(&u, 0.8, 10), 0.5, 1e-9);
	CHECK_CLOSE(split_adjust_exact(&u, 0.8), 0.5, 1e-9);
}

/* At 10 mW a step below 0.5 would cost 0.067 mJ of stall, less than it
 * saves; the performance requirement (no step that delays the use) still
 * stops the descent at 0.5. */
static void alg3_stops_at_stall(void)
{
	struct split_use u = use(10e-12, 0.01);

	CHECK_CLOSE(split_adjust(&u, 0.8, 10), 0.5, 1e-9);
	CHECK_CLOSE(split_adjust_exact(&u, 0.8), 0.5, 1e-9);
}

/* Table 2 energies, data read in n passes: a byte moved from tier 1 to
 * tier 2 saves 2 n x 31.76 pJ (line 7, E_off,d = D n e_HBM) and costs one
 * flash read, 600 pJ: n = 9 saves 571.7 pJ, no gain; n = 10 saves
 * 635.2 pJ, so r goes down to the bend (0.5) or, above it, to r_min. */
static void alg3_passes(void)
{
	struct split_use u = use(FLASH_J_PER_BYTE, 3);

	u.fetches = 9;
	CHECK_CLOSE(split_adjust(&u, 0.8, 10), 0.8, 1e-9);
	CHECK_CLOSE(split_adjust_exact(&u, 0.8), 0.8, 1e-9);
	u.fetches = 10;
	CHECK_CLOSE(split_adjust(&u, 0.8, 10), 0.5, 1e-9);
	CHECK_CLOSE(split_adjust_exact(&u, 0.8), 0.5, 1e-9);
	u.r_min = 0.7;
	CHECK_CLOSE(split_adjust(&u, 0.8, 10), 0.7, 1e-9);
	CHECK_CLOSE(split_adjust_exact(&u, 0.8), 0.7, 1e-9);
}

static void alg3_overheads(void)
{
	struct split_use u = use(FLASH_J_PER_BYTE, 3);

	/* r = 0.2: tier 2 needs 0.8 GB / 15 GB/s = 53.3 ms, 20 ms more than T_c. */
	CHECK_CLOSE(split_runtime_overhead(&u, 0.2), 0.8 / 15 - 0.5 / 15, 1e-9);
	CHECK(split_runtime_overhead(&u, 0.9) == 0);
	/* Line 7 at r = 1: one more HBM access than the baseline, HBM static
	 * shrunk to the tier-1 share, flash static added. */
	CHECK_CLOSE(split_energy_overhead(&u, 1),
		    1 * GB * HBM_J_PER_BYTE - 0.875 * 21.9 * 0.05 + 0.05 * 0.05, 1e-9);
}

static void round_up(void)
{
	CHECK_CLOSE(split_round_up(0.85, 512), 436.0 / 512, 1e-12);
	CHECK_CLOSE(split_round_up(0.5, 10), 0.5, 1e-12);
	CHECK(split_round_up(1e-12, 4) == 0);
	CHECK(split_round_up(1.2, 4) == 1);
}

/* SCALE-Sim weight stationary: 2 x 8 folds of 128 x 128 over 8 MXUs, each
 * 2 x 128 + 128 + 1000 - 2 cycles. */
static void gemm_cycles(void)
{
	CHECK_CLOSE(npu_gemm_cycles(1000, 256, 1024, 1), 2.0 * 1382, 1e-12);
	CHECK_CLOSE(npu_gemm_cycles(1000, 256, 1024, 2), 4.0 * 1382, 1e-12);
	CHECK(npu_gemm_cycles(0, 256, 1024, 1) == 0);
}

/* Algorithm 2: weights once; inputs once if they fit a core's SRAM (80
 * MiB), else once per 512 weight columns. */
static void alg2_access_counts(void)
{
	double c, v;

	CHECK(npu_offchip_fetches(true, 1e12, 4096) == 1);
	CHECK(npu_offchip_fetches(false, 10 * 1048576.0, 4096) == 1);
	CHECK(npu_offchip_fetches(false, 100 * 1048576.0, 1536) == 3);
	/* A tier-2 share a core's SRAM (80 MiB) holds is fetched once. */
	CHECK(npu_share_fetches(80 * 1048576.0, 36) == 1);
	CHECK(npu_share_fetches(81 * 1048576.0, 36) == 36);
	npu_onchip_accesses(true, 1e9, 4096, &c, &v);
	CHECK(c == 2 && v == 2);
	npu_onchip_accesses(false, 1 * 1048576.0, 1024, &c, &v);
	CHECK(c == 2 && v == 3);
	npu_onchip_accesses(false, 50 * 1048576.0, 1024, &c, &v);
	CHECK(c == 3 && v == 4);
	npu_onchip_accesses(false, 500 * 1048576.0, 1024, &c, &v);
	CHECK(c == 4 && v == 4);
}

int main(void)
{
	RUN(alg1_compute_bound);
	RUN(alg1_memory_bound);
	RUN(alg1_all_in_tier2);
	RUN(alg3_table2_stops);
	RUN(alg3_descends_to_stall);
	RUN(alg3_stops_at_stall);
	RUN(alg3_passes);
	RUN(alg3_overheads);
	RUN(round_up);
	RUN(gemm_cycles);
	RUN(alg2_access_counts);
	CHECK_EXIT();
}
