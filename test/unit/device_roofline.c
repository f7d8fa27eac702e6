/* SPDX-License-Identifier: MIT */
/*
 * One fully-connected layer on every shipped device description, against
 * the roofline's closed form computed here from the description's own
 * numbers (docs/devices.md): max(flops / (peak x eff), bytes / bw) +
 * latency, bytes = E (M K + K N + M N).  A PE-array device searches its
 * mappings: the closed form bounds it from below, and a large layer comes
 * within 2% of it.
 */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mcdla/device.h"
#include "workload/workload.h"

static const char *const dnn =
	"network one-fc\n"
	"dtype %s\n"
	"input x features=%d steps=1\n"
	"fc y out=%d\n";

/* The one-fc workload in type `t`: `in` features to `out`. */
static struct mc_workload *one_fc(const char *t, int in, int out)
{
	char path[] = "/tmp/dlasim-unit-fc.XXXXXX";
	struct mc_workload *w = NULL;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return NULL;
	fprintf(f, dnn, t, in, out);
	fclose(f);
	if (mc_workload_read(&w, path))
		w = NULL;
	unlink(path);
	return w;
}

static double closed_form(const struct dl_devdesc *x, enum dl_dtype t, double m, double n,
			  double k)
{
	double E = dl_dtype_bytes(t);

	return fmax(2 * m * n * k / (x->peak[t] * x->efficiency),
		    E * (m * k + k * n + m * n) / x->hbm_Bps) + x->hbm_latency_s;
}

/* The forward pass of y = fc(x) at batch b: an M = b, N = out, K = in GEMM. */
static void check_device(const char *file, enum dl_dtype t, double b, int in, int out)
{
	struct mc_workload *w = one_fc(dl_dtype_name(t), in, out);
	struct dl_props props;
	struct dl_devdesc x;
	struct mc_device d;
	struct mc_layer_time lt;
	double want;

	CHECK(w != NULL);
	if (!w || dl_devfile_read(file, &props, NULL, &x)) {
		CHECK(!"readable");
		mc_workload_free(w);
		return;
	}
	CHECK(mc_device_from_desc(&d, &x, t, file) == 0);
	mc_layer_times(&d, w, &w->layer[1], b, 1, &lt);
	want = closed_form(&x, t, b, out, in);
	if (x.model == DL_DEV_ROOFLINE) {
		CHECK_CLOSE(lt.fwd_s, want, 1e-12);
	} else {
		CHECK(lt.fwd_s >= want * (1 - 1e-12));
		CHECK_CLOSE(lt.fwd_s, want, 0.02);
	}
	printf("# %s %s: %.6g s, closed form %.6g s\n", file, dl_dtype_name(t), lt.fwd_s, want);
	dl_devfile_free(&props);
	mc_workload_free(w);
}

static void test_shipped(void)
{
	glob_t g;
	int n = 0;

	CHECK(glob("platforms/devices/*.xml", 0, NULL, &g) == 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct dl_props props;
		struct dl_devdesc x;

		if (dl_devfile_read(g.gl_pathv[i], &props, NULL, &x)) {
			CHECK(!"shipped description readable");
			continue;
		}
		dl_devfile_free(&props);
		n++;
		/* Compute-bound (K large) and memory-bound (batch 1) layers, in
		 * every type the device computes. */
		for (int t = 0; t < DL_DTYPES; t++) {
			if (!dl_devdesc_has(&x, t))
				continue;
			check_device(g.gl_pathv[i], t, 4096, 8192, 8192);
			if (x.model == DL_DEV_ROOFLINE)
				check_device(g.gl_pathv[i], t, 1, 8192, 8192);
		}
	}
	globfree(&g);
	CHECK(n >= 8);
}

/* The element size follows the workload's type: bf16 moves half fp32's
 * bytes, so a memory-bound layer takes half the time. */
static void test_dtype_bytes(void)
{
	struct mc_workload *w32 = one_fc("fp32", 8192, 8192), *w16 = one_fc("bf16", 8192, 8192);

	CHECK(w32 && w16);
	if (w32 && w16) {
		CHECK(w32->elem_bytes == 4 && w16->elem_bytes == 2);
		CHECK(w32->dtype == DL_FP32 && w16->dtype == DL_BF16);
	}
	mc_workload_free(w32);
	mc_workload_free(w16);
}

int main(void)
{
	RUN(test_shipped);
	RUN(test_dtype_bytes);
	CHECK_EXIT();
}
