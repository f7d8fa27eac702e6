/* SPDX-License-Identifier: MIT */
/* study llm's machines, models and layouts, and the rows' names. */
#include <stdio.h>
#include <string.h>

#include "study_llm.h"

const struct sl_machine_def sl_machines[SL_MACHINES] = {
	[SL_DC] = { "DC", DL_TOPO_NVSWITCH, "local", false },
	[SL_HC] = { "HC", DL_TOPO_GH200, "local", false },
	[SL_MC_LOCAL] = { "MC_LOCAL", DL_TOPO_MC_NVSWITCH, "local", false },
	[SL_MC_BW_AWARE] = { "MC_BW_AWARE", DL_TOPO_MC_NVSWITCH, "bw_aware", false },
	[SL_CXL] = { "CXL", DL_TOPO_CXL, "local", false },
	[SL_ORACLE] = { "oracle", DL_TOPO_NVSWITCH, NULL, true },
};

const char *const sl_model_names[SL_MODELS] = { "gpt3-175b", "llama3-70b", "mixtral-8x7b",
						 "megatron-310.1b" };
const int sl_sizes[SL_SIZES] = { 64, 256, 1024, 4096, 16384 };

/*
 * Tensor parallelism inside the 8-device node, pipeline stages as the
 * model's size needs them, data parallelism for the rest (experts over 8
 * data-parallel replicas for the MoE).  At 64 devices each model runs the
 * layout a user would pick if memory allowed (few stages, ZeRO 0) and
 * does not fit in 80 GB: the question is what offload costs.  From 256
 * devices up the distributed optimizer (ZeRO 1) and more stages fit.
 */
static const struct sl_layout layouts[SL_MODELS][SL_SIZES] = {
	{ { 0, 64, 8, 4, 2, 1, 0 }, { 0, 256, 8, 8, 4, 1, 1 }, { 0, 1024, 8, 8, 16, 1, 1 },
	  { 0, 4096, 8, 16, 32, 1, 1 }, { 0, 16384, 8, 16, 128, 1, 1 } },
	{ { 1, 64, 8, 1, 8, 1, 0 }, { 1, 256, 8, 2, 16, 1, 1 }, { 1, 1024, 8, 4, 32, 1, 1 },
	  { 1, 4096, 8, 4, 128, 1, 1 }, { 1, 16384, 8, 8, 256, 1, 1 } },
	{ { 2, 64, 1, 1, 64, 8, 0 }, { 2, 256, 2, 1, 128, 8, 1 }, { 2, 1024, 4, 1, 256, 8, 1 },
	  { 2, 4096, 4, 2, 512, 8, 1 }, { 2, 16384, 8, 2, 1024, 8, 1 } },
	{ { 3, 64, 8, 8, 1, 1, 0 }, { 3, 256, 8, 8, 4, 1, 1 }, { 3, 1024, 8, 16, 8, 1, 1 },
	  { 3, 4096, 8, 16, 32, 1, 1 }, { 3, 16384, 8, 16, 128, 1, 1 } },
};

const struct sl_layout *sl_layout_of(int m, int z)
{
	return &layouts[m][z];
}

long sl_microbatches(const struct sl_layout *l)
{
	return l->pp * 2 > 8 ? l->pp * 2 : 8;
}

void sl_label(const struct sl_layout *l, char *buf, unsigned long len)
{
	snprintf(buf, len, "%s/%d", sl_model_names[l->model], l->devices);
}

const struct sl_layout *sl_parse_label(const char *label)
{
	char want[48];

	for (int m = 0; label && m < SL_MODELS; m++)
		for (int z = 0; z < SL_SIZES; z++) {
			sl_label(&layouts[m][z], want, sizeof(want));
			if (strcmp(want, label) == 0)
				return &layouts[m][z];
		}
	return NULL;
}

