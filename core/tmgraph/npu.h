/* SPDX-License-Identifier: MIT */
/*
 * The NPU chip of TM-Training's Table 1 (a TPUv4-like chip): 2 cores of 4
 * weight-stationary 128x128 MXUs, 16 MiB VMEM per core, 128 MiB shared
 * CMEM, 1050 MHz, bf16.  Its energy constants and the per-operand access
 * counts of Algorithm 2.  Formulas and sources: docs/tier.md.
 */
#ifndef DL_TIER_NPU_H
#define DL_TIER_NPU_H

#include <stdbool.h>

#define NPU_CORES		2
#define NPU_MXUS_PER_CORE	4
#define NPU_MXU_DIM		128
#define NPU_CLOCK_HZ		1.05e9
#define NPU_ELEM_BYTES		2.0	/* bf16 */
#define NPU_VMEM_BYTES		(16.0 * 1048576)	/* per core */
#define NPU_CMEM_BYTES		(128.0 * 1048576)	/* shared */
/* Algorithm 2's SRAMSize: what one core can hold (its VMEM, half the CMEM). */
#define NPU_SRAM_PER_CORE	(NPU_VMEM_BYTES + NPU_CMEM_BYTES / NPU_CORES)

#define GIB			1073741824.0
/* Per-chip address space of the paper's baseline (32 GB HBM). */
#define NPU_ADDRESS_SPACE	(32.0 * GIB)

/* Energy (docs/tier.md says where each number comes from). */
#define HBM_J_PER_BYTE		(3.97e-12 * 8)	/* Table 2 */
#define FLASH_J_PER_BYTE	(75e-12 * 8)	/* Table 2 */
#define SRAM_J_PER_BYTE		(HBM_J_PER_BYTE / 20)	/* TPUv4i: 20x < DRAM */
#define MAC_J			(0.21e-12 + 0.38e-12)	/* bf16 mul + fp32 add, 7 nm */

/* MXU cycles of `count` independent GEMMs (m x k) . (k x n), weight
 * stationary, spread over the chip's 8 MXUs (SCALE-Sim's closed form). */
double npu_gemm_cycles(double m, double k, double n, double count);

/* Algorithm 2, OFFCHIPACCESSPERDATA: how many times an operand of
 * `bytes` (per GEMM instance) is fetched from off-chip when the stationary
 * operand has `ncols` columns. */
double npu_offchip_fetches(bool stationary, double bytes, double ncols);

/* Algorithm 2 for the tier-2 share of an operand fetched `fetches` times:
 * split along the sequence, the share is a block of rows of its own,
 * fetched once if a core's SRAM holds it (`bytes` per GEMM instance). */
double npu_share_fetches(double bytes, double fetches);

/* Algorithm 2, ONCHIPACCESSPERDATA: CMEM and VMEM accesses per byte. */
void npu_onchip_accesses(bool stationary, double bytes, double ncols,
			 double *cmem, double *vmem);

#endif
