/* SPDX-License-Identifier: MIT */
/* What one tier-placement run reports; its services add to it as they go. */
#ifndef DL_TIER_RESULT_H
#define DL_TIER_RESULT_H

#include <dlasim/tier.h>

struct tier_result {
	char workload[64];
	char policy[64];
	enum dlasim_tier_arrangement arrangement;
	double tier1_ratio, batch_scale, tier2_bw_scale;
	double address_space_bytes, tier1_capacity_bytes, tier2_capacity_bytes;
	double params;			/* simulated, from the dimensions */
	double samples;			/* sequences per chip per iteration */
	double peak_bytes;		/* most data live at once */
	double data_bytes;		/* data created or used (Table 3) */
	double traffic_bytes;		/* off-chip bytes an HBM-only chip moves */
	double network_bytes;		/* bytes of the collectives */
	int recomputed_layers;		/* layers recomputed from a checkpoint */
	int weights_sharded;		/* 1: weights sharded at rest (FSDP) */
	double iteration_time_s, compute_s, stall_s;
	double stall_share;		/* stall_s / iteration_time_s */
	double migration_bytes, promoted_bytes, demoted_bytes;
	double tier1_read_bytes, tier2_read_bytes;
	double tier1_write_bytes, tier2_write_bytes;
	double energy_j, energy_migration_j, energy_prefetch_j, energy_static_j;
	double energy_sram_j, energy_mac_j;
	double energy_idle_j;		/* the chip's idle power over the run */
	double energy_iommu_j;		/* page walks, remaps, IOMMU leakage */
	double iommu_walks;		/* pages translated (one walk each) */
	double memory_cost_ratio;	/* price of the tiers / HBM-only's */
	double throughput_samples_per_s;
	double throughput_per_watt;	/* samples/s per W = samples per J */
	int ops, tensors;
	/* The powers the static and idle energies were taken at, and the HBM
	 * static power of tier 1 read per GiB (Table 2's 684 mW for 1 GiB
	 * instead of the 32 GiB device), for study tm's sensitivities. */
	double tier1_static_w, tier1_static_per_gib_w, idle_power_w;
	/* The floor every placement of this iteration on these tiers is
	 * above (docs/tier.md, "The floor"). */
	double floor_time_s, floor_flash_read_bytes, floor_flash_write_bytes;
	double floor_energy_j, floor_throughput_per_watt;
};

#endif
