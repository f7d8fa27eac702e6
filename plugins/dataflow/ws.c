/* SPDX-License-Identifier: MIT */
/*
 * DWS: weight stationary (the dissertation's baseline dataflow, Figure
 * 5.1 LoopNest (b)).  The loop nest [k, r, s, f, t, h, w]: for each block
 * of filters, each filter pixel, each channel group, the PE rows work in
 * parallel on the group's channels while the map streams through.  The
 * band loop y, when a map does not fit the scratchpad, goes right inside
 * k, so that one band's partial sums are open at a time.
 *
 * In a wide layer (more channels than PE rows) the channel group changes
 * at every step, so each group's IFMAP tile is released and read again
 * for every filter pixel: the repeated access ARAI removes (arai.c).
 */
#include <dlasim/dataflow.h>

static int order(void *state, const struct dlasim_df_layer *layer,
		 const struct dlasim_df_array *array, const struct dlasim_df_tiles *tiles,
		 enum dlasim_df_loop perm[DLASIM_LOOPS])
{
	perm[0] = DLASIM_LOOP_K;
	perm[1] = DLASIM_LOOP_Y;
	perm[2] = DLASIM_LOOP_R;
	perm[3] = DLASIM_LOOP_S;
	perm[4] = DLASIM_LOOP_F;
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
	.name = "ws",
	.description = "weight stationary, loops k, r, s, f (DWS, the baseline)",
	.ops = &ops,
};
