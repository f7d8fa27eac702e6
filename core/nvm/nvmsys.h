/* SPDX-License-Identifier: MIT */
/*
 * The simulated system of the dissertation's Tables 3.2 and 4.1
 * (docs/nvm.md gives every value's source and what is assumed).
 */
#ifndef DL_NVM_NVMSYS_H
#define DL_NVM_NVMSYS_H

#define NVM_CLOCK_HZ 2e9		/* cores at 2 GHz */
#define NVM_CORES 4
#define NVM_LINE 64
#define NVM_BYTES (8L << 30)		/* 8 GB of NVM (T4.1) */
#define NVM_CORE_REGION (1L << 30)	/* core c's data from c GiB on */
/* The log area, the top of the NVM: what LALEA's FIFOs address, 8 banks
 * x (1024 entries + 256 two-block headers) x 64 B (4.3), for every
 * allocator alike. */
#define NVM_LOG_AREA (8L * (1024 + 2 * 256) * 64)

/*
 * The NVM of a run on `cores` cores: 8 GB (T4.1), or as many GiB as there
 * are cores when their data regions need more (a kernel's heap, 96 MB at
 * most, stays below its region's end, and the log area, the top 768 KB,
 * above the last core's heap).  Up to 8 cores this is the table's 8 GB.
 */
static inline long nvm_bytes(int cores)
{
	long need = (long)cores * NVM_CORE_REGION;

	return need > NVM_BYTES ? need : NVM_BYTES;
}

#define NVM_LLC_BYTES (8 << 20)		/* shared LLC: 2 MB per core x 4 (T3.2), 8 MB (T4.1) */
#define NVM_LLC_WAYS 16
#define NVM_DRAM_CACHE_BYTES (32 << 20)	/* DRAM cache of the redo designs (T3.2) */
#define NVM_DRAM_CACHE_WAYS 16
#define NVM_DRAM_CACHE_CYCLES 100	/* per lookup (T3.2) */

#define NVM_ADR 32			/* ADR entries (T3.2); 16 in Chapter 4 (T4.1) */
#define NVM_STAGING 64			/* TSTE's staging buffer (3.3) */
#define NVM_LOGQ 32			/* log queue entries (T4.1) */

#endif
