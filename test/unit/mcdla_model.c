/* SPDX-License-Identifier: MIT */
/*
 * Workload shapes and the device roofline against independent figures:
 * parameter counts published for the architectures (torchvision's VGG-19
 * and ResNet-34, Caffe's two-tower AlexNet), MAC counts by hand from the
 * papers' layer tables, and the GEMM traffic closed form of docs/model.md.
 */
#include <math.h>

#include "mcdla/device.h"
#include "mcdla/plan.h"
#include "workload/workload.h"
#include "check.h"

static struct mc_workload *load(const char *name)
{
	char path[256];
	struct mc_workload *w = NULL;

	snprintf(path, sizeof(path), "workloads/%s.dnn", name);
	mc_workload_read(&w, path);
	return w;
}

static const struct mc_layer *layer(const struct mc_workload *w, const char *name)
{
	for (int i = 0; i < w->nlayers; i++)
		if (strcmp(w->layer[i].name, name) == 0)
			return &w->layer[i];
	return NULL;
}

static void test_parameter_counts(void)
{
	struct mc_workload *w;

	/* torchvision vgg19: 143,667,240 parameters. */
	CHECK((w = load("vgg-e")) != NULL);
	if (w)
		CHECK(mc_workload_weights(w) == 143667240.0);
	mc_workload_free(w);
	/* Caffe bvlc_alexnet (groups of 2): 60,965,224 parameters. */
	CHECK((w = load("alexnet")) != NULL);
	if (w)
		CHECK(mc_workload_weights(w) == 60965224.0);
	mc_workload_free(w);
	/* torchvision resnet34: 21,797,672 parameters (BN included, conv
	 * layers without bias there, with bias here: + one per channel of
	 * the 36 conv layers). */
	CHECK((w = load("resnet-34")) != NULL);
	if (w) {
		double conv_bias = 64 + 6 * 64 + 8 * 128 + 12 * 256 + 6 * 512 + 128 + 256 + 512;

		CHECK(mc_workload_weights(w) == 21797672.0 + conv_bias);
	}
	mc_workload_free(w);
}

static void test_shapes_and_macs(void)
{
	struct mc_workload *w = load("alexnet");
	const struct mc_layer *l;

	CHECK(w != NULL);
	if (!w)
		return;
	/* conv1: 96 maps of 55x55, 3x11x11 window each. */
	l = layer(w, "conv1");
	CHECK(l && l->h == 55 && l->w == 55 && l->c == 96);
	CHECK(l && l->macs == 96.0 * 55 * 55 * 3 * 11 * 11);
	/* pool5 leaves 256x6x6 = 9216 inputs to fc6. */
	l = layer(w, "fc6");
	CHECK(l && l->macs == 9216.0 * 4096);
	mc_workload_free(w);
	w = load("rnn-lstm-2");
	CHECK(w != NULL);
	if (!w)
		return;
	l = layer(w, "lstm1");
	/* 4 gates x 4096 over [x (4096), h (4096)] per step, 25 steps. */
	CHECK(l && l->macs == 4.0 * 4096 * 8192 && l->steps == 25);
	mc_workload_free(w);
	/* GoogLeNet: 57 conv + 1 fc = the paper's 58 layers. */
	w = load("googlenet");
	CHECK(w != NULL);
	if (w) {
		int heavy = 0;

		for (int i = 0; i < w->nlayers; i++)
			heavy += mc_layer_heavy(&w->layer[i]);
		CHECK(heavy == 58);
		l = layer(w, "i5b_out");
		CHECK(l && l->c == 1024 && l->h == 7);
	}
	mc_workload_free(w);
}

static void test_peak(void)
{
	struct mc_device d;

	mc_device_defaults(&d);
	CHECK_CLOSE(mc_device_peak(&d), 1024.0 * 125 * 1e9, 1e-12);
}

/*
 * TPUv2-like (docs/devices.md): a Cloud TPU v2 board's 180 TFLOPS at the
 * paper's accounting, 1024 PEs of 180 MACs at 1 GHz, 1.44x Table II (the
 * paper calls it a faster device-node, Section V-B).
 */
static void test_tpuv2(void)
{
	struct mc_device d, t2;
	double m = 4096, n = 4096, k = 4096;

	mc_device_defaults(&t2);
	CHECK(mc_device_named(&d, "platforms/devices/tpuv2.xml", DL_FP32) == 0);
	CHECK_CLOSE(mc_device_peak(&d), 1024.0 * 180 * 1e9, 1e-12);
	CHECK_CLOSE(mc_device_peak(&d) / mc_device_peak(&t2), 180.0 / 125, 1e-12);
	/* A large GEMM is compute-bound on it: within 2% of peak. */
	CHECK_CLOSE(mc_gemm_time(&d, m, n, k), m * n * k / mc_device_peak(&d) + 100e-9, 0.02);
	CHECK(mc_gemm_time(&d, m, n, k) < mc_gemm_time(&t2, m, n, k));
	CHECK(mc_device_named(&d, "platforms/devices/tpu3.xml", DL_FP32) != 0);
	/* Table II computes no bf16. */
	CHECK(mc_device_named(&d, "platforms/devices/table2.xml", DL_BF16) != 0);
}

static void test_gemm_closed_form(void)
{
	struct mc_device d;
	double k = 1000, m = 3072, n = 2592, lat = 100e-9;

	mc_device_defaults(&d);
	/*
	 * Large GEMM, compute-bound.  A 32 x 32 grid of PEs with 96 x 81
	 * output tiles (4*96*81 + 8*(96+81) = 32520 <= 32768 bytes of SRAM)
	 * covers 3072 x 2592 in one block: ceil(7776 / 125) = 63 cycles per
	 * k step, so the best mapping takes at most 63 k cycles; no mapping
	 * beats M N K / (1024 x 125) = 62.2 k cycles.
	 */
	CHECK(mc_gemm_time(&d, m, n, k) <= 63 * k / 1e9 + lat + 1e-15);
	CHECK(mc_gemm_time(&d, m, n, k) >= m * n * k / (1024 * 125 * 1e9) + lat);
	/* ... and its HBM traffic is below what 900 GB/s moves meanwhile. */
	CHECK(mc_gemm_bytes(&d, m, n, k) / 900e9 <= 63 * k / 1e9);
	/*
	 * GEMV shape, memory-bound: the weights are read at least once, and
	 * once is achievable (every PE owns 4 of the 4096 outputs and reads
	 * the shared input vector once).
	 */
	CHECK(mc_gemm_time(&d, 1, 4096, 4096) >= 4.0 * 4096 * 4096 / 900e9 + lat);
	CHECK_CLOSE(mc_gemm_time(&d, 1, 4096, 4096),
		    4.0 * (4096.0 * 4096 + 4096 + 4096) / 900e9 + lat, 1e-9);
}

/* Source pixels under consecutive destination pixels, by hand. */
static void test_window_pixels(void)
{
	/* 3x3 stride 1 over a padded 224x224 map (VGG's convolutions). */
	struct mc_window w = { 224, 224, 224, 224, 3, 1, 9 };
	/* AlexNet's conv1: 11x11 stride 4 from 227x227 to 55x55. */
	struct mc_window a = { 55, 55, 227, 227, 11, 4, 121 };

	CHECK(mc_window_pixels(&w, 1) == 9);
	CHECK(mc_window_pixels(&w, 10) == 3 * 12);		/* a row segment */
	CHECK(mc_window_pixels(&w, 448) == 4 * 224);		/* two rows: 4 input rows */
	CHECK(mc_window_pixels(&w, 3 * 224 * 224) == 3 * 224 * 224);	/* whole samples */
	CHECK(mc_window_pixels(&a, 2) == 11 * 15);
	CHECK(mc_window_pixels(&a, 55) == 11 * 227);		/* (55-1)*4+11 = 227 */
}

/* The pass time of layer `name` of `net` for `batch` samples. */
static struct mc_layer_time layer_time(const char *net, const char *name, double batch,
				       double *macs)
{
	struct mc_workload *w = load(net);
	struct mc_layer_time t = { 0 };
	struct mc_device d;
	const struct mc_layer *l;

	mc_device_defaults(&d);
	if (w && (l = layer(w, name))) {
		mc_layer_times(&d, w, l, batch, 1, &t);
		*macs = batch * l->macs;
	}
	mc_workload_free(w);
	return t;
}

/*
 * Convolutions read their input maps, not im2col copies (docs/model.md,
 * "Sliding windows").  A 3x3 convolution of 256 to 256 channels does
 * 256 x 2304 MACs per output pixel against 4 x 512 bytes of input and
 * output: 288 MAC/B, above the device's 128 TMAC/s / 900 GB/s = 142, so
 * it is compute-bound; with 64 channels in and out it is 72 MAC/B and
 * bound by reading its input and writing its output once.
 */
static void test_conv_reuse(void)
{
	double peak = 1024.0 * 125 * 1e9, lat = 100e-9, macs = 0, maps;
	struct mc_layer_time t;

	t = layer_time("vgg-e", "conv3_2", 64, &macs);
	CHECK_CLOSE(t.fwd_s, macs / peak + lat, 0.02);
	CHECK_CLOSE(t.bwd_data_s, macs / peak + lat, 0.02);
	CHECK_CLOSE(t.bwd_weight_s, macs / peak + lat, 0.02);
	/* conv1_2: 64 x 224 x 224 maps in and out, 64 samples, and 36864
	 * weights: the roofline's memory side. */
	t = layer_time("vgg-e", "conv1_2", 64, &macs);
	maps = 4.0 * 64 * 64 * 224 * 224;
	CHECK_CLOSE(t.fwd_s, (2 * maps + 4.0 * 36864) / 900e9 + lat, 0.01);
	/* Its weight gradient reduces over 3.2 M pixels into 64 x 576
	 * outputs: split over the array's groups, it too reads X and dY
	 * once (an unsplit output-stationary array would take 3.2 ms). */
	CHECK_CLOSE(t.bwd_weight_s, (2 * maps + 4.0 * 36864) / 900e9 + lat, 0.01);
	/* Full im2col would read 9 x the input: 8.2 ms. */
	CHECK(t.fwd_s < 2.5e-3);
}

static void test_plan(void)
{
	struct mc_workload *w = load("vgg-e");
	struct mc_device d;
	struct mc_plan plan;
	double budget, fmaps = 0;

	mc_device_defaults(&d);
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK(mc_plan_build(&plan, w, &d, 512, 8, MC_DATA_PARALLEL) == 0);
	CHECK(plan.batch == 64 && plan.split == 1);
	/* Kept for backward: the input and the 19 heavy layers' outputs. */
	CHECK(plan.nstash == 20);
	for (int e = 0; e < plan.nstash; e++)
		fmaps += plan.stash[e].bytes;
	/* By hand: input 3x224x224 + conv maps (64x224^2 x2, 128x112^2 x2,
	 * 256x56^2 x4, 512x28^2 x4, 512x14^2 x4) + fc 4096+4096+1000, x64 x4 B. */
	CHECK_CLOSE(fmaps, 4.0 * 64 * (3 * 224 * 224 + 2 * 64 * 224 * 224 + 2 * 128 * 112 * 112 +
				       4 * 256 * 56 * 56 + 4 * 512 * 28 * 28 + 4 * 512 * 14 * 14 +
				       4096 + 4096 + 1000), 1e-12);
	CHECK(mc_plan_fit(&plan, w, &d, 16e9, "--device-memory", &budget) == 0);
	/* 1 GB cannot hold 1.15 GB of weights and gradients. */
	CHECK(mc_plan_fit(&plan, w, &d, 1e9, "--device-memory", &budget) != 0);
	mc_plan_free(&plan);
	/* 500 samples do not divide across 8 devices. */
	CHECK(mc_plan_build(&plan, w, &d, 500, 8, MC_DATA_PARALLEL) != 0);
	mc_workload_free(w);
}

/*
 * What a device keeps for backward (docs/model.md, "Memory overlaying"):
 * a sequence's input one entry per timestep; in model-parallel the whole
 * network input (every device is given the whole batch) and the device's
 * split of every other output, X gathered before forward and again for
 * the weight gradient.
 */
static void test_plan_sequences(void)
{
	struct mc_workload *w = load("rnn-lstm-1");
	struct mc_device d;
	struct mc_plan plan;

	mc_device_defaults(&d);
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK(mc_plan_build(&plan, w, &d, 512, 8, MC_DATA_PARALLEL) == 0);
	/* 25 input steps and 25 LSTM steps, each its own entry: x(t) of
	 * 64 samples x 1024 features, gates and h(t) 5 x 1024. */
	CHECK(plan.nops == 50 && plan.nstash == 50);
	CHECK(plan.stash[0].bytes == 4.0 * 64 * 1024);
	CHECK(plan.stash[25].bytes == 4.0 * 64 * 5 * 1024);
	/* The backward of LSTM step 7 reads x(7), its own entry and h(6)'s. */
	CHECK(plan.op[25 + 7].nneed == 3 && plan.op[25 + 7].need[0] == 7);
	mc_plan_free(&plan);
	CHECK(mc_plan_build(&plan, w, &d, 512, 8, MC_MODEL_PARALLEL) == 0);
	CHECK(plan.stash[0].bytes == 4.0 * 512 * 1024);
	CHECK(plan.stash[25].bytes == 4.0 * 512 * 5 * 1024 / 8);
	/* x(t) is at hand; h(t-1) is gathered before forward, reduced after
	 * backward and gathered again for dW; step 0 has no h(-1). */
	CHECK(plan.op[25].gather_bytes == 0 && plan.op[25].bwd_gather_bytes == 0);
	CHECK(plan.op[26].gather_bytes == 4.0 * 512 * 1024);
	CHECK(plan.op[26].bwd_gather_bytes == 4.0 * 512 * 1024);
	CHECK(plan.op[26].dx_reduce_bytes == 4.0 * 512 * 1024);
	mc_plan_free(&plan);
	mc_workload_free(w);
}

/*
 * A step whose working buffers do not fit runs in batch tiles.  VGG-E
 * model-parallel at batch 1024: conv1_2 gathers conv1_1's 64 x 224 x 224
 * maps of all 1024 samples (13.2 GB) before forward and again for dW.
 */
static void test_plan_tiles(void)
{
	struct mc_workload *w = load("vgg-e");
	struct mc_device d;
	struct mc_plan plan;
	double budget, maps = 4.0 * 1024 * 64 * 224 * 224;
	const struct mc_op *op;

	mc_device_defaults(&d);
	CHECK(w != NULL);
	if (!w)
		return;
	CHECK(mc_plan_build(&plan, w, &d, 1024, 8, MC_MODEL_PARALLEL) == 0);
	op = &plan.op[3];	/* input, conv1_1, relu1_1, conv1_2 */
	CHECK(strcmp(w->layer[op->layer].name, "conv1_2") == 0);
	CHECK(op->gather_bytes == maps && op->bwd_gather_bytes == maps);
	CHECK(mc_plan_fit(&plan, w, &d, 16e9, "--device-memory", &budget) == 0);
	/*
	 * Its buffers: its output split (maps / 8), the gathered X, X again
	 * for dW, relu1_1's output split (not kept): 2.25 maps = 29.7 GB.
	 * Beside them: 2 x 4 x 143,667,240 / 8 bytes of weights and
	 * gradients, and the largest set of live feature maps, the splits of
	 * conv1_1 and conv1_2 (maps / 4) at this step.  What is left holds
	 * 433 samples' buffers: 3 tiles, and the stash keeps its room.
	 */
	CHECK_CLOSE(op->work_bytes, 2.25 * maps, 1e-12);
	CHECK(op->tiles == 3);
	CHECK(budget >= maps / 4);
	mc_plan_free(&plan);
	mc_workload_free(w);
}

/*
 * --overlay spill (mc_plan_keep): a chain of 4 steps, entries e0, e1, e2
 * of 4, 3 and 2 bytes, each produced by step i, read by step i+1 in
 * forward and by steps i+1 and i in backward.  On the timeline (forward
 * step i at i, backward step i at 7 - i) the entries that leave need
 * 4 7 5 2 2 5 7 4 bytes.  Keeping an entry fills its gap: e2 has none
 * (its forward and backward uses touch), e1 adds 3 at positions 3-4
 * (peak 2 + 3 = 5), e0 4 at 2-5 (then peak 5 + 4 = 9).
 */
static void test_plan_keep(void)
{
	struct mc_stash st[3] = {
		{ .bytes = 4, .producer = 0, .last_fwd_use = 1, .first_bwd_use = 1, .last_bwd_use = 0 },
		{ .bytes = 3, .producer = 1, .last_fwd_use = 2, .first_bwd_use = 2, .last_bwd_use = 1 },
		{ .bytes = 2, .producer = 2, .last_fwd_use = 3, .first_bwd_use = 3, .last_bwd_use = 2 },
	};
	int order[3] = { 2, 1, 0 };
	struct mc_plan plan = { .nops = 4, .stash = st, .nstash = 3, .prefetch_order = order,
				.nprefetch = 3 };
	const struct { double budget, kept; bool e0, e1, e2; } want[] = {
		{ 8, 5, false, true, true }, { 9, 9, true, true, true },
		{ 4.9, 2, false, false, true },
	};

	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		for (int e = 0; e < 3; e++)
			st[e].kept = false;
		CHECK(mc_plan_keep(&plan, want[k].budget) == want[k].kept);
		CHECK(st[0].kept == want[k].e0 && st[1].kept == want[k].e1 && st[2].kept == want[k].e2);
	}
}

int main(void)
{
	RUN(test_parameter_counts);
	RUN(test_shapes_and_macs);
	RUN(test_peak);
	RUN(test_gemm_closed_form);
	RUN(test_tpuv2);
	RUN(test_window_pixels);
	RUN(test_conv_reuse);
	RUN(test_plan);
	RUN(test_plan_sequences);
	RUN(test_plan_tiles);
	RUN(test_plan_keep);
	CHECK_EXIT();
}
