/* SPDX-License-Identifier: MIT */
/*
 * ARAI (Alleviate Repeated Access to IFMAP, dissertation Section 5.3):
 * weight stationary with the channel-group loop moved outside the filter
 * pixel loops, [k, f, r, s, t, h, w].  The IFMAP tile of channel group f
 * is read once and used by all R x S weight tiles of the group before the
 * next group is read.  Nothing changes where R = S = 1 (pointwise, fully
 * connected) or where a filter reads one channel (depthwise).
 */
#include <dlasim/dataflow.h>

static int order(void *state, const struct dlasim_df_layer *layer,
		 const struct dlasim_df_array *array, const struct dlasim_df_tiles *tiles,
		 enum dlasim_df_loop perm[DLASIM_LOOPS])
{
	perm[0] = DLASIM_LOOP_K;
	perm[1] = DLASIM_LOOP_Y;
	perm[2] = DLASIM_LOOP_F;
	perm[3] = DLASIM_LOOP_R;
	perm[4] = DLASIM_LOOP_S;
	return DLASIM_OK;
}

static const struct dlasim_dataflow_ops ops = {
	.size = sizeof(ops),
	.order = order,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_DATAFLOW,
	.ops_version = DLASIM_DATAFLOW_OPS_VERSION,
	.name = "arai",
	.description = "weight stationary, loops k, f, r, s: an IFMAP tile read once per filter block (ARAI)",
	.ops = &ops,
};
