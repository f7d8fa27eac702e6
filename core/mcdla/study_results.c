/* SPDX-License-Identifier: MIT */
/*
 * The design points of study mcdla and the queries on the results of
 * their runs: speedups over the DC-DLA of the same machine, harmonic
 * means, performance per watt.
 */
#include <math.h>

#include "study.h"

/* cDMA's mean reduction of PCIe traffic on CNNs (Section V-B, [56]). */
#define CDMA_RATIO 2.6
/* TPUv2-like: 4 inter-chip links of 496 Gbit/s (Jouppi et al., CACM 2020,
 * Table 3); the device-node is a board of four 280 W chips
 * (platforms/devices/tpuv2.xml, docs/devices.md). */
#define TPUV2_LINKS 4
#define TPUV2_LINK_BW 62e9
#define TPUV2_TDP_W (4 * 280)
/* DGX-2: 16 devices on the device-side interconnect. */
#define DGX2_DEVICES 16

const struct mc_design mc_designs[MC_DESIGNS] = {
	[MC_DC] = { "DC-DLA", DL_TOPO_DC, "local", .figure13 = true, .base = MC_DC },
	[MC_HC] = { "HC-DLA", DL_TOPO_HC, "local", .figure13 = true, .base = MC_DC },
	[MC_STAR] = { "MC-DLA(S)", DL_TOPO_MC_STAR, "local", .figure13 = true, .base = MC_DC },
	[MC_LOCAL] = { "MC-DLA(L)", DL_TOPO_MC_RING, "local", .figure13 = true, .base = MC_DC },
	[MC_BW] = { "MC-DLA(B)", DL_TOPO_MC_RING, "bw_aware", .figure13 = true, .base = MC_DC },
	[MC_ORACLE] = { "DC-DLA(O)", DL_TOPO_DC, "local", .oracle = true, .figure13 = true,
			.base = MC_DC },
	[MC_DC_GEN4] = { "DC-DLA/gen4", DL_TOPO_DC_GEN4, "local", .base = MC_DC },
	[MC_DC_GEN4_LINK] = { "DC-DLA/gen4-link", DL_TOPO_DC_GEN4, "local", .base = MC_DC,
			      .uplink_bw = 16e9 },
	[MC_HC_POWER9] = { "HC-DLA/power9", DL_TOPO_HC, "local", .base = MC_DC,
			   .socket = "power9" },
	[MC_DC_CDMA] = { "DC-DLA/cdma", DL_TOPO_DC, "local", .base = MC_DC,
			 .compression = CDMA_RATIO, .cnn_only = true },
	[MC_DC_TPUV2] = { "DC-DLA/tpuv2", DL_TOPO_DC, "local", .base = MC_DC_TPUV2,
			  .links = TPUV2_LINKS, .link_bw = TPUV2_LINK_BW,
			  .device_tdp_w = TPUV2_TDP_W, .device = "tpuv2" },
	[MC_BW_TPUV2] = { "MC-DLA(B)/tpuv2", DL_TOPO_MC_RING, "bw_aware", .base = MC_DC_TPUV2,
			  .links = TPUV2_LINKS, .link_bw = TPUV2_LINK_BW,
			  .device_tdp_w = TPUV2_TDP_W, .device = "tpuv2" },
	[MC_DC_DGX2] = { "DC-DLA/dgx2", DL_TOPO_DC, "local", .base = MC_DC_DGX2,
			 .devices = DGX2_DEVICES },
	[MC_BW_DGX2] = { "MC-DLA(B)/dgx2", DL_TOPO_MC_RING, "bw_aware", .base = MC_DC_DGX2,
			 .devices = DGX2_DEVICES },
	/* HC-DLA's three device links wired as one ring (docs/platforms.md). */
	[MC_HC_RING] = { "HC-DLA/ring", DL_TOPO_HC_RING, "local", .base = MC_DC },
};

const char *const mc_benches[MC_NBENCH] = {
	"alexnet", "googlenet", "vgg-e", "resnet-34",
	"rnn-gemv", "rnn-lstm-1", "rnn-lstm-2", "rnn-gru",
};

bool mc_bench_is_cnn(int bench)
{
	return bench < 4;
}

const char *mc_mode_name(int mode)
{
	return mode == MC_DATA_PARALLEL ? "data" : "model";
}

bool mc_study_planned(const struct study *st, int b, int d)
{
	return st->in_set[d] &&
	       (!st->batch_sweep || b == st->fig_batch || d == MC_DC || d == MC_BW);
}

int mc_study_slot(const struct study *st, int m, int b, int d, int w)
{
	return ((m * st->nbatches + b) * MC_DESIGNS + d) * MC_NBENCH + w;
}

int mc_study_breakdown_designs(const struct study *st, int d[3])
{
	static const int want[] = { MC_DC, MC_HC, MC_BW };
	int n = 0;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (st->in_set[want[i]])
			d[n++] = want[i];
	return n;
}

const struct mc_train_result *mc_study_result(const struct study *st, int m, int b, int d,
					      int w)
{
	int r = st->index[mc_study_slot(st, m, b, d, w)];

	return r < 0 ? NULL : &st->res[r];
}

static double iteration(const struct study *st, int m, int b, int d, int w)
{
	const struct mc_train_result *r = mc_study_result(st, m, b, d, w);

	return r ? r->iteration_s : NAN;
}

double mc_study_speedup(const struct study *st, int m, int b, int d, int w)
{
	return iteration(st, m, b, mc_designs[d].base, w) / iteration(st, m, b, d, w);
}

double mc_study_ratio(const struct study *st, int m, int b, int slow, int fast)
{
	double s = 0;
	int n = 0;

	for (int w = 0; w < MC_NBENCH; w++) {
		if (!mc_study_result(st, m, b, slow, w) || !mc_study_result(st, m, b, fast, w))
			continue;
		s += iteration(st, m, b, fast, w) / iteration(st, m, b, slow, w);
		n++;
	}
	return n ? n / s : NAN;
}

double mc_study_perf_per_watt(const struct study *st, int m, int b, int d, int w)
{
	const struct mc_train_result *r = mc_study_result(st, m, b, d, w);
	const struct mc_train_result *base = mc_study_result(st, m, b, mc_designs[d].base, w);

	if (!r || !base)
		return NAN;
	return mc_study_speedup(st, m, b, d, w) * base->system_power_w / r->system_power_w;
}

const char *mc_study_coll(const struct study *st)
{
	if (st->coll)
		return st->coll;
	for (int i = 0; i < st->nruns; i++)
		if (st->res[i].coll[0])
			return st->res[i].coll;
	return "n/a";
}
