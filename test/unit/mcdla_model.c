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
#include "kernel/workload.h"
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
	CHECK(mc_plan_check_capacity(&plan, w, 16e9, "--device-memory", &budget) == 0);
	/* 1 GB cannot hold 574 MB of weights and gradients plus the working
	 * buffers of conv1_2. */
	CHECK(mc_plan_check_capacity(&plan, w, 1e9, "--device-memory", &budget) != 0);
	mc_plan_free(&plan);
	/* 500 samples do not divide across 8 devices. */
	CHECK(mc_plan_build(&plan, w, &d, 500, 8, MC_DATA_PARALLEL) != 0);
	mc_workload_free(w);
}

int main(void)
{
	RUN(test_parameter_counts);
	RUN(test_shapes_and_macs);
	RUN(test_peak);
	RUN(test_gemm_closed_form);
	RUN(test_plan);
	CHECK_EXIT();
}
