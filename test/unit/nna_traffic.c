/* SPDX-License-Identifier: MIT */
/*
 * DRAM traffic of small synthetic layers under the ws and arai dataflow
 * plugins against the closed forms of docs/nna.md ("Traffic"), counted by
 * hand from the loop orders:
 *   weights  K R S C (x bands), the same under both orders;
 *   IFMAP    with one channel group (C <= T): H W C, read once;
 *            with F > 1 groups: DWS  Kb R S H W C  (each group re-read for
 *            every filter pixel of every filter block), ARAI  Kb H W C;
 *   OFMAP    written once, after the fused pool;
 *   skip     a residual operand read once.
 * Kb = ceil(K / U) filter blocks, 1-byte elements, a 32 x 32 array.
 */
#include <stdlib.h>
#include <unistd.h>

#include "plugin/plugin.h"
#include "nna/schedule.h"
#include "nna/traffic.h"
#include "check.h"

static const struct nna_array array32 = { 32, 2 << 20, 1, 8, 1024 };

struct case_run {
	struct nna_net net;
	struct nna_tiles x;
	struct nna_schedule s;
	struct nna_traffic *per_layer, sum;
	bool ok;
};

static struct dl_plugin *open_df(const char *name)
{
	struct dl_plugin *p = NULL;

	dl_host_api.dataflow = &nna_dataflow_services;
	dl_plugin_open(&p, DLASIM_KIND_DATAFLOW, name, "--dataflow", nna_dataflow_ops_check);
	return p;
}

/* Build and count workload `path` under dataflow `df`. */
static void run_file(struct case_run *r, const char *path, const char *df,
		     const struct nna_array *a)
{
	struct dl_plugin *p = open_df(df);

	memset(r, 0, sizeof(*r));
	if (!p || nna_net_read(&r->net, path) || nna_tiles_build(&r->x, &r->net, a) ||
	    nna_schedule_build(&r->s, &r->x, p))
		goto out;
	r->per_layer = calloc((size_t)r->net.nlayers, sizeof(*r->per_layer));
	if (!r->per_layer)
		goto out;
	nna_traffic_count(&r->x, &r->s, r->per_layer, &r->sum);
	r->ok = true;
out:
	dl_plugin_close(p);
}

/* The same with the workload given as text. */
static void run_case(struct case_run *r, const char *text, const char *df,
		     const struct nna_array *a)
{
	char path[] = "/tmp/dlasim-nna.XXXXXX";
	int fd = mkstemp(path);

	memset(r, 0, sizeof(*r));
	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) == (ssize_t)strlen(text))
		run_file(r, path, df, a);
	close(fd);
	unlink(path);
}

static void free_case(struct case_run *r)
{
	free(r->per_layer);
	nna_schedule_free(&r->s);
	if (r->x.t)
		nna_tiles_free(&r->x);
	nna_net_free(&r->net);
}

static void check_traffic(const char *text, const char *df, const struct nna_array *a,
			  double weights, double ifmap, double skip, double writes)
{
	struct case_run r;

	run_case(&r, text, df, a);
	CHECK(r.ok);
	if (r.ok) {
		CHECK_CLOSE(r.sum.weight_bytes, weights, 0);
		CHECK_CLOSE(r.sum.ifmap_bytes, ifmap, 0);
		CHECK_CLOSE(r.sum.skip_bytes, skip, 0);
		CHECK_CLOSE(r.sum.write_bytes, writes, 0);
		/* Every piece here is a multiple of 8 bytes: blocks = bytes / 8. */
		CHECK_CLOSE(r.sum.read_blocks, (weights + ifmap + skip) / 8, 0);
		CHECK_CLOSE(r.sum.write_blocks, writes / 8, 0);
	}
	free_case(&r);
}

/* A wide layer: C = 64 > T = 32, F = 2, Kb = 2. */
static void test_wide_conv(void)
{
	const char *w = "input x channels=64 height=8 width=8\nconv c out=64 kernel=3 pad=1\n";
	double hwc = 8 * 8 * 64, weights = 64 * 9 * 64, out = 8 * 8 * 64;

	check_traffic(w, "ws", &array32, weights, 2 * 9 * hwc, 0, out);
	check_traffic(w, "arai", &array32, weights, 2 * hwc, 0, out);
}

/* A narrow layer (C <= T): its one IFMAP tile stays on chip; a stride of
 * 2 and a fused 2x2 pool shrink what is written. */
static void test_narrow_conv_pool(void)
{
	const char *w = "input x channels=16 height=8 width=8\n"
			"conv c out=64 kernel=3 pad=1 stride=2\nrelu r\npool p kernel=2\n";
	double hwc = 8 * 8 * 16, weights = 64 * 9 * 16, out = 2 * 2 * 64;

	check_traffic(w, "ws", &array32, weights, hwc, 0, out);
	check_traffic(w, "arai", &array32, weights, hwc, 0, out);
}

/* Pointwise (R = S = 1) and depthwise: ARAI changes nothing. */
static void test_pointwise_depthwise(void)
{
	const char *pw = "input x channels=128 height=4 width=4\nconv c out=64 kernel=1\n";
	const char *dw = "input x channels=64 height=8 width=8\nconv c out=64 kernel=3 pad=1 groups=64\n";

	/* Pointwise: F = 4 groups, each read once per filter block. */
	check_traffic(pw, "ws", &array32, 128 * 64, 2 * 4 * 4 * 128, 0, 4 * 4 * 64);
	check_traffic(pw, "arai", &array32, 128 * 64, 2 * 4 * 4 * 128, 0, 4 * 4 * 64);
	/* Depthwise: filter block k reads channel group k only, once. */
	check_traffic(dw, "ws", &array32, 9 * 64, 8 * 8 * 64, 0, 8 * 8 * 64);
	check_traffic(dw, "arai", &array32, 9 * 64, 8 * 8 * 64, 0, 8 * 8 * 64);
}

/* Fully connected: C = 256 features in F = 8 groups, Kb = 2. */
static void test_fc(void)
{
	const char *w = "input x channels=16 height=4 width=4\nfc f out=64\n";

	check_traffic(w, "ws", &array32, 256 * 64, 2 * 256, 0, 64);
	check_traffic(w, "arai", &array32, 256 * 64, 2 * 256, 0, 64);
}

/* A residual block: the add is fused into the second conv, which reads
 * the block's input once more. */
static void test_residual(void)
{
	const char *w = "input x channels=32 height=8 width=8\n"
			"conv a out=32 kernel=3 pad=1\nrelu ra\n"
			"conv b out=32 kernel=3 pad=1\nadd s from=b,x\nrelu rs\n";
	double map = 8 * 8 * 32, weights = 2 * 32 * 9 * 32;

	check_traffic(w, "ws", &array32, weights, 2 * map, map, 2 * map);
}

/*
 * Bands: 16x16x64 -> 32, 3x3 pad 1 in a 40000-byte scratchpad.  A band of
 * all 16 rows needs 2 x 8192 (IFMAP) + 2 x 1024 (weights) + 8192 (out) +
 * 32768 (32-bit partial sums) = 59392 bytes; one of 8 rows needs 2 x 5120
 * (10 input rows) + 2048 + 4096 + 16384 = 32768: two bands, reading input
 * rows [0, 9) and [7, 16), 9 rows of 16 x 64 bytes each; weights are read
 * once per band.
 */
static void test_bands(void)
{
	const char *w = "input x channels=64 height=16 width=16\nconv c out=32 kernel=3 pad=1\n";
	struct nna_array a = array32;
	double rows = 9 + 9, weights = 2 * 32 * 9 * 64;
	struct case_run r;

	a.spm_bytes = 40000;
	run_case(&r, w, "ws", &a);
	CHECK(r.ok && r.x.t[0].n[DLASIM_LOOP_Y] == 2 && r.x.t[0].band_rows == 8);
	free_case(&r);
	check_traffic(w, "ws", &a, weights, 9 * rows * 16 * 64, 0, 16 * 16 * 32);
	check_traffic(w, "arai", &a, weights, rows * 16 * 64, 0, 16 * 16 * 32);
}

/*
 * Figure 5.11's hard check on the seven networks of Table 5.4: ARAI cuts
 * the DRAM read traffic of every network but MobileNet, whose layers are
 * pointwise, depthwise or narrow (Section 5.5.2: "ARAI has no impact on
 * MobileNet"); weights and writes are the same under both orders.
 */
static void test_seven_networks(void)
{
	static const char *const nets[] = { "alexnet", "darknet19", "facerec", "resnet18",
					    "vgg16", "zfnet", "mobilenet_v1" };

	for (size_t i = 0; i < sizeof(nets) / sizeof(nets[0]); i++) {
		struct case_run ws, arai;
		char path[256];

		snprintf(path, sizeof(path), "workloads/nna/%s.dnn", nets[i]);
		run_file(&ws, path, "ws", &array32);
		run_file(&arai, path, "arai", &array32);
		CHECK(ws.ok && arai.ok);
		if (ws.ok && arai.ok) {
			double cut = 1 - arai.sum.read_blocks / ws.sum.read_blocks;

			if (strcmp(nets[i], "mobilenet_v1") == 0)
				CHECK(fabs(cut) <= 0.005);
			else
				CHECK(cut > 0);
			CHECK(arai.sum.weight_bytes == ws.sum.weight_bytes);
			CHECK(arai.sum.write_bytes == ws.sum.write_bytes);
		}
		free_case(&ws);
		free_case(&arai);
	}
}

int main(void)
{
	static char path[512];
	const char *build = getenv("BUILD");

	snprintf(path, sizeof(path), "%s/plugins", build ? build : "build");
	setenv("DLASIM_PLUGIN_PATH", path, 1);
	RUN(test_wide_conv);
	RUN(test_narrow_conv_pool);
	RUN(test_pointwise_depthwise);
	RUN(test_fc);
	RUN(test_residual);
	RUN(test_bands);
	RUN(test_seven_networks);
	CHECK_EXIT();
}
