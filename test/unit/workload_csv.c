/* SPDX-License-Identifier: MIT */
/*
 * Layer shapes beyond square convolutions: rectangular kernels and GEMM
 * layers in .dnn files, and SCALE-Sim topology CSVs read as the .dnn
 * files test/data/scalesim/ states for them, against the published shapes
 * of AlexNet, ResNet-18 and a BERT-base layer.
 */
#include <stdlib.h>
#include <unistd.h>

#include "workload/workload.h"
#include "check.h"

#define DATA "test/data/scalesim/"

static struct mc_workload *from_text(const char *text)
{
	char path[] = "/tmp/dlasim-wl-XXXXXX";
	struct mc_workload *w = NULL;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	mc_workload_read(&w, path);
	unlink(path);
	return w;
}

static const struct mc_layer *layer(const struct mc_workload *w, const char *name)
{
	for (int i = 0; w && i < w->nlayers; i++)
		if (strcmp(w->layer[i].name, name) == 0)
			return &w->layer[i];
	return NULL;
}

static bool shape(const struct mc_workload *w, const char *name, long c, long h, long wd)
{
	const struct mc_layer *l = layer(w, name);

	return l && l->c == c && l->h == h && l->w == wd;
}

/* Conv MACs from the layer's published shapes. */
static double conv_macs(double k, double ho, double wo, double cin, double kh, double kw)
{
	return k * ho * wo * cin * kh * kw;
}

/* Every field a study reads, layer by layer. */
static bool same_layers(const struct mc_workload *a, const struct mc_workload *b)
{
	if (!a || !b || a->nlayers != b->nlayers || strcmp(a->name, b->name) != 0)
		return false;
	for (int i = 0; i < a->nlayers; i++) {
		const struct mc_layer *x = &a->layer[i], *y = &b->layer[i];

		if (strcmp(x->name, y->name) || x->kind != y->kind || x->nin != y->nin ||
		    x->in[0] != y->in[0] || x->c != y->c || x->h != y->h || x->w != y->w ||
		    x->kernel != y->kernel || x->kernel_w != y->kernel_w ||
		    x->stride != y->stride || x->stride_w != y->stride_w || x->pad != y->pad ||
		    x->pad_w != y->pad_w || x->groups != y->groups || x->macs != y->macs ||
		    x->weights != y->weights || x->in_elems != y->in_elems ||
		    x->out_elems != y->out_elems) {
			printf("    layer %d: '%s' differs from '%s'\n", i, x->name, y->name);
			return false;
		}
	}
	return true;
}

static void pair(const char *name, struct mc_workload **csv, struct mc_workload **dnn)
{
	char path[256];

	snprintf(path, sizeof(path), DATA "%s.csv", name);
	*csv = NULL;
	mc_workload_read(csv, path);
	snprintf(path, sizeof(path), DATA "%s.dnn", name);
	*dnn = NULL;
	mc_workload_read(dnn, path);
	CHECK(*csv && *dnn && same_layers(*csv, *dnn));
}

/* Kernel height x width, stride and padding per axis, by hand. */
static void test_rectangular(void)
{
	struct mc_workload *w = from_text("input x channels=8 height=17 width=17\n"
					  "conv a out=16 kernel=1x7 pad=0x3\n"
					  "conv b out=16 kernel=7x1 stride=2x1 pad=3x0\n"
					  "pool p kernel=3x1 stride=1\n"
					  "pool q kernel=2x1\n");

	CHECK(w != NULL);
	/* a: (17 - 1) + 1 = 17 rows, (17 + 6 - 7) + 1 = 17 columns. */
	CHECK(shape(w, "a", 16, 17, 17) && layer(w, "a")->macs == conv_macs(16, 17, 17, 8, 1, 7));
	CHECK(layer(w, "a") && layer(w, "a")->weights == 16.0 * 8 * 7 + 16);
	/* b: (17 + 6 - 7) / 2 + 1 = 9 rows, 17 columns. */
	CHECK(shape(w, "b", 16, 9, 17) && layer(w, "b")->macs == conv_macs(16, 9, 17, 16, 7, 1));
	/* p: 9 - 3 + 1 = 7 rows; q strides by its kernel: (7 - 2) / 2 + 1 = 3. */
	CHECK(shape(w, "p", 16, 7, 17) && shape(w, "q", 16, 3, 17));
	mc_workload_free(w);
	/* A square kernel written either way is the same layer. */
	w = from_text("input x channels=8 height=9 width=9\nconv a out=4 kernel=3 stride=2 pad=1\n"
		      "input y channels=8 height=9 width=9\nconv b out=4 kernel=3x3 stride=2x2 pad=1x1\n");
	CHECK(w && layer(w, "a")->macs == layer(w, "b")->macs && shape(w, "b", 4, 5, 5));
	mc_workload_free(w);
	CHECK(!from_text("input x channels=8 height=9 width=9\nconv a out=4 kernel=3x\n"));
	CHECK(!from_text("input x channels=8 height=9 width=9\nconv a out=4 kernel=x3\n"));
	CHECK(!from_text("input x channels=8 height=9 width=9\nconv a out=4 kernel=3x0\n"));
	CHECK(!from_text("input x channels=8 height=9 width=9\nconv a out=4 kernel=3x3x3\n"));
	CHECK(!from_text("input x channels=8 height=9 width=4\nconv a out=4 kernel=3x5\n"));
}

/* C[M x N] = A[M x K] B[K x N] over the positions of the input. */
static void test_gemm(void)
{
	struct mc_workload *w = from_text("input t channels=768 height=128 width=1\n"
					  "gemm ff1 m=128 n=3072 k=768\nrelu r\n"
					  "gemm ff2 m=128 n=768 k=3072\n"
					  "input img channels=64 height=7 width=7\ngemm g m=49 n=32 k=64\n");

	CHECK(w != NULL);
	CHECK(shape(w, "ff1", 3072, 128, 1) && layer(w, "ff1")->macs == 128.0 * 3072 * 768);
	CHECK(layer(w, "ff1") && layer(w, "ff1")->weights == 768.0 * 3072 + 3072);
	CHECK(shape(w, "ff2", 768, 128, 1) && layer(w, "ff2")->macs == 128.0 * 768 * 3072);
	/* Over a map, its pixels are the positions. */
	CHECK(shape(w, "g", 32, 7, 7) && layer(w, "g")->macs == 49.0 * 32 * 64);
	CHECK(w && mc_workload_macs(w) == 2 * 128.0 * 3072 * 768 + 49.0 * 32 * 64);
	mc_workload_free(w);
	CHECK(!from_text("input t channels=768 height=128 width=1\ngemm g m=64 n=10 k=768\n"));
	CHECK(!from_text("input t channels=768 height=128 width=1\ngemm g m=128 n=10 k=512\n"));
	CHECK(!from_text("input t features=768 steps=128\ngemm g m=128 n=10 k=768\n"));
}

/* AlexNet (Krizhevsky et al., Figure 2): 55, 27, 13 pixel maps. */
static void test_alexnet_csv(void)
{
	struct mc_workload *csv, *dnn;

	pair("alexnet", &csv, &dnn);
	CHECK(shape(csv, "conv1", 96, 55, 55) && shape(csv, "conv2", 256, 27, 27));
	CHECK(shape(csv, "conv3", 384, 13, 13) && shape(csv, "conv5", 256, 13, 13));
	CHECK(shape(csv, "fc6", 4096, 1, 1) && shape(csv, "fc8", 1000, 1, 1));
	CHECK(layer(csv, "conv1") && layer(csv, "conv1")->macs == conv_macs(96, 55, 55, 3, 11, 11));
	CHECK(layer(csv, "conv2") && layer(csv, "conv2")->macs == conv_macs(256, 27, 27, 96, 5, 5));
	CHECK(layer(csv, "fc6") && layer(csv, "fc6")->macs == 6.0 * 6 * 256 * 4096);
	/* conv4 reads conv3 (13 + 2 = 15: pad 1); conv3 reads its own input. */
	CHECK(layer(csv, "conv4") && layer(csv, "conv4")->pad == 1 &&
	      csv->layer[layer(csv, "conv4")->in[0]].kind == MC_CONV);
	CHECK(layer(csv, "conv3") && csv->layer[layer(csv, "conv3")->in[0]].kind == MC_INPUT);
	CHECK(csv && strcmp(csv->name, "alexnet") == 0);
	mc_workload_free(csv);
	mc_workload_free(dnn);
	pair("alexnet-conv", &csv, &dnn);
	mc_workload_free(csv);
	mc_workload_free(dnn);
}

/* ResNet-18 (He et al., Table 1): 112, then 56, 28, 14 and 7. */
static void test_resnet18_csv(void)
{
	struct mc_workload *csv, *dnn;
	double macs = 0;

	pair("resnet18", &csv, &dnn);
	CHECK(shape(csv, "conv1", 64, 112, 112) && shape(csv, "res2b_2", 64, 56, 56));
	CHECK(shape(csv, "res3a_proj", 128, 28, 28) && shape(csv, "res3b_2", 128, 28, 28));
	CHECK(shape(csv, "res4a_1", 256, 14, 14) && shape(csv, "res5b_2", 512, 7, 7));
	CHECK(shape(csv, "fc", 1000, 1, 1));
	/* Table 1: 1.8 GFLOPs (multiply-adds) for the 18-layer network. */
	for (int i = 0; csv && i < csv->nlayers; i++)
		macs += csv->layer[i].macs;
	CHECK_CLOSE(macs, 1.8e9, 0.02);
	mc_workload_free(csv);
	mc_workload_free(dnn);
}

/* A BERT-base encoder layer as GEMMs: M N K each. */
static void test_gemm_csv(void)
{
	struct mc_workload *csv, *dnn;

	pair("gemm", &csv, &dnn);
	CHECK(layer(csv, "qkv") && layer(csv, "qkv")->macs == 128.0 * 2304 * 768);
	CHECK(layer(csv, "ff2") && layer(csv, "ff2")->macs == 128.0 * 768 * 3072);
	/* context reads scores (128 features at 128 positions). */
	CHECK(layer(csv, "context") && layer(csv, "context")->in[0] == 3);
	mc_workload_free(csv);
	mc_workload_free(dnn);
}

/* SCALE-Sim's own writer's header (a stride per axis), no trailing comma,
 * blank lines, and its depthwise rule ("DP" in the name). */
static void test_csv_forms(void)
{
	struct mc_workload *w = from_text(
		"Layer name,IFMAP height,IFMAP width,Filter height,Filter width,Channels,Num filter,Stride height,Stride width,\n"
		"c1,9,17,3,1,8,16,2,1,\n\n"
		"c2DP,  6, 19, 3, 3, 16, 2, 1, 1\n");

	CHECK(w != NULL);
	/* c1: (9 - 3) / 2 + 1 = 4 rows, 17 columns. */
	CHECK(shape(w, "c1", 16, 4, 17) && layer(w, "c1")->stride_w == 1);
	/* c2DP: 2 filters on each of 16 channels, reading c1 padded 1x1. */
	CHECK(shape(w, "c2DP", 32, 4, 17) && layer(w, "c2DP")->groups == 16);
	CHECK(layer(w, "c2DP") && layer(w, "c2DP")->macs == conv_macs(32, 4, 17, 1, 3, 3));
	CHECK(layer(w, "c2DP") && layer(w, "c2DP")->pad == 1 && layer(w, "c2DP")->pad_w == 1);
	mc_workload_free(w);
}

/* Bad rows and headers are refused (their messages: test/cli/workload_csv.sh). */
static void test_csv_bad(void)
{
	const char *conv = "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n";
	const char *bad[] = {
		"c,9,9,3,3,8,16,\n",		/* a missing column */
		"c,9,9,3,3,8,16,1,1,\n",	/* one too many */
		"c,9,nine,3,3,8,16,1,\n",
		"c,9,9,3,3,0,16,1,\n",
		"c,9,9,3,3,8,-16,1,\n",
		"c,9,9,11,3,8,16,1,\n",		/* filter taller than the map */
		",9,9,3,3,8,16,1,\n",
		"",				/* no rows */
	};
	char text[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", conv, bad[i]);
		CHECK(!from_text(text));
	}
	CHECK(!from_text("Layer, M, N\nx,1,2\n"));
	CHECK(!from_text("Layer, IFMAP Height, Width\nx,1,2\n"));
	CHECK(!from_text("Layer, M, N, K\nx,1,2,3\nx,1,2,3\n"));
}

int main(void)
{
	RUN(test_rectangular);
	RUN(test_gemm);
	RUN(test_alexnet_csv);
	RUN(test_resnet18_csv);
	RUN(test_gemm_csv);
	RUN(test_csv_forms);
	RUN(test_csv_bad);
	CHECK_EXIT();
}
