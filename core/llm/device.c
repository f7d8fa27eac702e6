/* SPDX-License-Identifier: MIT */
/* Device descriptions of the transformer study (docs/llm.md, "Devices"). */
#include "device.h"

#include <string.h>

/*
 * NVIDIA A100 Tensor Core GPU datasheet (2021): dense FP32 19.5, TF32 156
 * (not used), BF16/FP16 312 TFLOP/s; 40 GB HBM2 at 1,555 GB/s, 80 GB
 * HBM2e at 2,039 GB/s (SXM).  Efficiency: the model FLOPs utilization
 * Korthikanti et al. measured for a 530B GPT on 2,240 A100s with
 * sequence parallelism and selective recomputation ("Reducing Activation
 * Recomputation in Large Transformer Models", MLSys 2023, abstract:
 * 54.2 %), the best published fraction of peak a Megatron transformer
 * layer sustains on this part; it is a different paper and machine than
 * the scaling table dlasim is validated against.
 */
#define A100_EFF 0.542
#define A100_SRC "Korthikanti et al., MLSys 2023: 54.2 % MFU on A100"

static const struct llm_device devices[] = {
	{ "a100-40gb", { [LLM_FP32] = 19.5e12, [LLM_BF16] = 312e12, [LLM_FP16] = 312e12 },
	  1555e9, 40e9, A100_EFF, A100_SRC },
	{ "a100-80gb", { [LLM_FP32] = 19.5e12, [LLM_BF16] = 312e12, [LLM_FP16] = 312e12 },
	  2039e9, 80e9, A100_EFF, A100_SRC },
};

const struct llm_device *llm_device_find(const char *name)
{
	for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++)
		if (strcmp(devices[i].name, name) == 0)
			return &devices[i];
	return NULL;
}

const char *llm_device_names(void)
{
	return "a100-40gb, a100-80gb";
}

double llm_device_peak(const struct llm_device *d, enum llm_dtype t)
{
	return d->peak[t];
}

double llm_device_time(const struct llm_device *d, enum llm_dtype t, double flops)
{
	return flops / (d->peak[t] * d->efficiency);
}
