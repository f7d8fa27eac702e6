/* SPDX-License-Identifier: MIT */
#include "npu.h"

#include <math.h>

#define NPU_MXUS		(NPU_CORES * NPU_MXUS_PER_CORE)
/* Columns one core's MXUs hold at once (ColMXUs of Algorithm 2). */
#define NPU_CORE_COLS		(NPU_MXUS_PER_CORE * NPU_MXU_DIM)

/*
 * SCALE-Sim (Samajdar et al., ISPASS 2020), weight stationary on an
 * R x C array: each fold maps a k-slice of R rows and an n-slice of C
 * columns and streams the m input rows through in 2R + C + m - 2 cycles.
 * Folds are spread evenly over the MXUs.
 */
double npu_gemm_cycles(double m, double k, double n, double count)
{
	double folds, per_fold;

	if (m <= 0 || k <= 0 || n <= 0 || count <= 0)
		return 0;
	folds = ceil(k / NPU_MXU_DIM) * ceil(n / NPU_MXU_DIM) * count;
	per_fold = 2.0 * NPU_MXU_DIM + NPU_MXU_DIM + m - 2;
	return ceil(folds / NPU_MXUS) * per_fold;
}

static double mxu_passes(double ncols)
{
	return fmax(1, ceil(ncols / NPU_CORE_COLS));
}

double npu_offchip_fetches(bool stationary, double bytes, double ncols)
{
	if (stationary || bytes < NPU_SRAM_PER_CORE)
		return 1;
	return mxu_passes(ncols);
}

double npu_share_fetches(double bytes, double fetches)
{
	return bytes <= NPU_SRAM_PER_CORE * (1 + 1e-9) ? 1 : fetches;
}

void npu_onchip_accesses(bool stationary, double bytes, double ncols,
			 double *cmem, double *vmem)
{
	double n = mxu_passes(ncols);

	if (stationary) {
		*cmem = 2;
		*vmem = 2;
	} else if (bytes < NPU_VMEM_BYTES) {
		*cmem = 2;
		*vmem = 1 + n;
	} else if (bytes < NPU_SRAM_PER_CORE) {
		*cmem = 1 + n;
		*vmem = 2 * n;
	} else {
		*cmem = 2 * n;
		*vmem = 2 * n;
	}
}
