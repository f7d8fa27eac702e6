/* SPDX-License-Identifier: MIT */
/* A dataflow plugin whose order names the K loop twice: the host must stop. */
#include <dlasim/dataflow.h>

static int order(void *state, const struct dlasim_df_layer *layer,
		 const struct dlasim_df_array *array, const struct dlasim_df_tiles *tiles,
		 enum dlasim_df_loop perm[DLASIM_LOOPS])
{
	perm[0] = DLASIM_LOOP_K;
	perm[1] = DLASIM_LOOP_K;
	perm[2] = DLASIM_LOOP_R;
	perm[3] = DLASIM_LOOP_S;
	perm[4] = DLASIM_LOOP_Y;
	return DLASIM_OK;
}

static const struct dlasim_dataflow_ops ops = { .size = sizeof(ops), .order = order };

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_DATAFLOW,
	.ops_version = DLASIM_DATAFLOW_OPS_VERSION,
	.name = "not_perm",
	.description = "an order that is not a permutation",
	.ops = &ops,
};
