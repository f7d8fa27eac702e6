/* SPDX-License-Identifier: MIT */
/*
 * The NNA study's workloads (workloads/nna/) against their papers: map
 * sizes printed in the papers' figures and tables, and published
 * multiply-accumulate counts.  Also the .dnn reader's independent chains:
 * a later `input` line starts a new chain.
 */
#include <stdlib.h>
#include <unistd.h>

#include "workload/workload.h"
#include "check.h"

static struct mc_workload *load(const char *name)
{
	char path[256];
	struct mc_workload *w = NULL;

	snprintf(path, sizeof(path), "workloads/nna/%s.dnn", name);
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

static bool shape(const struct mc_workload *w, const char *name, long c, long h, long wd)
{
	const struct mc_layer *l = layer(w, name);

	return l && l->c == c && l->h == h && l->w == wd;
}

static int count(const struct mc_workload *w, enum mc_layer_kind k, bool depthwise)
{
	int n = 0;

	for (int i = 0; i < w->nlayers; i++) {
		const struct mc_layer *l = &w->layer[i];

		if (l->kind == k && (k != MC_CONV || (l->groups > 1) == depthwise))
			n++;
	}
	return n;
}

/* Table 5.4's composition and the papers' map sizes. */
static void test_shapes(void)
{
	struct mc_workload *w;

	if ((w = load("alexnet"))) {
		/* Figure 2 of Krizhevsky et al.: 55, 27, 13, 13, 13, then 6x6x256. */
		CHECK(shape(w, "conv1", 96, 55, 55) && shape(w, "conv2", 256, 27, 27));
		CHECK(shape(w, "conv5", 256, 13, 13) && shape(w, "pool5", 256, 6, 6));
		CHECK(count(w, MC_CONV, false) == 5 && count(w, MC_FC, false) == 3);
		CHECK(layer(w, "conv2")->groups == 1);
	}
	CHECK(w != NULL);
	mc_workload_free(w);
	if ((w = load("zfnet"))) {
		/* Figure 3 of Zeiler and Fergus: 110, 55, 26, 13, 13, 13, 6. */
		CHECK(shape(w, "conv1", 96, 110, 110) && shape(w, "pool1", 96, 55, 55));
		CHECK(shape(w, "conv2", 256, 26, 26) && shape(w, "pool2", 256, 13, 13));
		CHECK(shape(w, "pool5", 256, 6, 6));
		CHECK(count(w, MC_CONV, false) == 5 && count(w, MC_FC, false) == 3);
	}
	CHECK(w != NULL);
	mc_workload_free(w);
	if ((w = load("vgg16"))) {
		CHECK(shape(w, "pool5", 512, 7, 7));
		CHECK(count(w, MC_CONV, false) == 13 && count(w, MC_FC, false) == 3);
	}
	CHECK(w != NULL);
	mc_workload_free(w);
	if ((w = load("resnet18"))) {
		/* Table 1 of He et al.: conv2_x 56, conv3_x 28, conv4_x 14, conv5_x 7. */
		CHECK(shape(w, "pool1", 64, 56, 56) && shape(w, "res3a_relu", 128, 28, 28));
		CHECK(shape(w, "res4b_relu", 256, 14, 14) && shape(w, "res5b_relu", 512, 7, 7));
		CHECK(shape(w, "avgpool", 512, 1, 1));
		/* 1 + 8 x 2 convolutions and 3 projections, 8 adds, 1 fc. */
		CHECK(count(w, MC_CONV, false) == 20 && count(w, MC_ADD, false) == 8);
		CHECK(count(w, MC_FC, false) == 1);
	}
	CHECK(w != NULL);
	mc_workload_free(w);
	if ((w = load("darknet19"))) {
		/* Table 6 of YOLO9000: 19 convolutions, 7x7x1000 before the pool. */
		CHECK(shape(w, "conv19", 1000, 7, 7) && shape(w, "avgpool", 1000, 1, 1));
		CHECK(count(w, MC_CONV, false) == 19 && count(w, MC_FC, false) == 0);
	}
	CHECK(w != NULL);
	mc_workload_free(w);
	if ((w = load("mobilenet_v1"))) {
		/* Table 1 of Howard et al.: 14 standard (3x3 and 1x1) and 13
		 * depthwise convolutions, 7x7x1024 before the pool. */
		CHECK(count(w, MC_CONV, false) == 14 && count(w, MC_CONV, true) == 13);
		CHECK(shape(w, "pw14", 1024, 7, 7) && shape(w, "dw14", 1024, 7, 7));
		CHECK(layer(w, "dw14")->groups == 1024);
	}
	CHECK(w != NULL);
	mc_workload_free(w);
}

/*
 * Multiply-accumulates of the conv and fc layers against the figures
 * published for the networks: VGG16 15.5 G (Sze et al., "Efficient
 * Processing of Deep Neural Networks", Proc. IEEE 2017, Table IV);
 * Darknet-19 5.58 G operations = 2.79 G MACs (YOLO9000 Section 3, two
 * operations per MAC); ResNet-18 1.8 G (He et al. Table 1); MobileNet-v1
 * 569 M (Howard et al. Table 8); AlexNet without groups 1.135 G (by hand:
 * 105.4 + 447.9 + 149.5 + 224.3 + 149.5 M in the convs, 58.6 M in the fcs).
 */
static void test_macs(void)
{
	static const struct {
		const char *name;
		double macs, tol;
	} ref[] = {
		{ "vgg16", 15.5e9, 0.01 },
		{ "darknet19", 2.79e9, 0.02 },
		{ "resnet18", 1.8e9, 0.03 },
		{ "mobilenet_v1", 569e6, 0.01 },
		{ "alexnet", 1.1352e9, 0.005 },
	};

	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		struct mc_workload *w = load(ref[i].name);

		CHECK(w != NULL);
		if (w)
			CHECK_CLOSE(mc_workload_macs(w), ref[i].macs, ref[i].tol);
		mc_workload_free(w);
	}
}

/* A later input starts a chain: its layers read it, not the previous
 * chain's last layer (DeepBench's independent face-recognition layers). */
static void test_chains(void)
{
	char path[] = "/tmp/dlasim-chains.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct mc_workload *w = NULL;

	CHECK(f != NULL);
	if (!f)
		return;
	fputs("input a channels=3 height=8 width=8\nconv c1 out=4 kernel=3\n"
	      "input b channels=5 height=6 width=6\nconv c2 out=7 kernel=1\n", f);
	fclose(f);
	CHECK(mc_workload_read(&w, path) == 0);
	if (w) {
		const struct mc_layer *c2 = layer(w, "c2");

		CHECK(w->nlayers == 4 && c2 && c2->nin == 1 && c2->in[0] == 2);
		CHECK(c2 && c2->macs == 7.0 * 6 * 6 * 5);
	}
	mc_workload_free(w);
	w = NULL;
	if ((w = load("facerec"))) {
		CHECK(count(w, MC_CONV, false) == 5 && count(w, MC_INPUT, false) == 5);
		/* 108 / 2 = 54 (pad 1): the first layer's stride. */
		CHECK(shape(w, "conv1", 64, 54, 54) && shape(w, "conv5", 512, 7, 7));
	}
	CHECK(w != NULL);
	mc_workload_free(w);
	unlink(path);
}

int main(void)
{
	RUN(test_shapes);
	RUN(test_macs);
	RUN(test_chains);
	CHECK_EXIT();
}
