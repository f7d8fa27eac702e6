/* SPDX-License-Identifier: MIT */
/* Device descriptions: properties and device files (docs/devices.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "machine/devdesc.h"

#define MAX_PROPS 32

struct kv {
	struct dl_prop v[MAX_PROPS];
	struct dl_props props;
};

/* Properties from "key=value" strings, NULL-terminated. */
static void props_of(struct kv *kv, const char *const *pairs)
{
	static char buf[MAX_PROPS][256];
	int n = 0;

	for (; pairs[n]; n++) {
		char *eq;

		snprintf(buf[n], sizeof(buf[n]), "%s", pairs[n]);
		eq = strchr(buf[n], '=');
		*eq = '\0';
		kv->v[n].key = buf[n];
		kv->v[n].value = eq + 1;
	}
	kv->props = (struct dl_props){ kv->v, n };
}

/* A host without a description is Table II's device at its speed. */
static void test_default_table2(void)
{
	struct kv kv;
	struct dl_devdesc d;

	props_of(&kv, (const char *const[]){ "dlasim.role=device", "dlasim.tdp=300W", NULL });
	CHECK(dl_devdesc_from_props(&d, &kv.props, 512e12, "x") == 0);
	CHECK(d.model == DL_DEV_PE_ARRAY);
	CHECK_CLOSE(d.peak[DL_FP32], 512e12, 1e-15);
	CHECK(!dl_devdesc_has(&d, DL_BF16));
	CHECK(d.pes == 1024 && d.macs_per_pe == 125);
	CHECK_CLOSE(d.hbm_Bps, 900e9, 1e-15);
	CHECK_CLOSE(d.sram_bytes, 1024 * 32768.0, 1e-15);
	CHECK_STR(d.name, "table2");
}

static const char *const h100[] = {
	"dlasim.device.name=x100",
	"dlasim.device.peak.bf16=989.4Tf",
	"dlasim.device.peak.fp8=1979Tf",
	"dlasim.device.hbm.bandwidth=3.35TBps",
	"dlasim.device.hbm.capacity=80GB",
	"dlasim.device.hbm.latency=1us",
	"dlasim.device.efficiency=0.5",
	"dlasim.device.efficiency.source=a guess",
	"dlasim.device.links=18x25GBps",
	"dlasim.device.c2c.bandwidth=450GBps",
	"dlasim.device.cpu-memory.capacity=480GB",
	"dlasim.tdp=700W",
	NULL,
};

/* A roofline device; `speed` is its fp32 peak when no field says it. */
static void test_roofline_fields(void)
{
	struct kv kv;
	struct dl_devdesc d;

	props_of(&kv, h100);
	CHECK(dl_devdesc_from_props(&d, &kv.props, 67e12, "x") == 0);
	CHECK(d.model == DL_DEV_ROOFLINE);
	CHECK_STR(d.name, "x100");
	CHECK_CLOSE(d.peak[DL_FP32], 67e12, 1e-15);
	CHECK_CLOSE(d.peak[DL_BF16], 989.4e12, 1e-15);
	CHECK_CLOSE(d.peak[DL_FP8], 1979e12, 1e-15);
	CHECK(!dl_devdesc_has(&d, DL_FP16));
	CHECK_CLOSE(d.hbm_Bps, 3.35e12, 1e-15);
	CHECK_CLOSE(d.hbm_bytes, 80e9, 1e-15);
	CHECK_CLOSE(d.hbm_latency_s, 1e-6, 1e-15);
	CHECK_CLOSE(d.efficiency, 0.5, 1e-15);
	CHECK(d.links == 18);
	CHECK_CLOSE(d.link_Bps, 25e9, 1e-15);
	CHECK_CLOSE(d.c2c_Bps, 450e9, 1e-15);
	CHECK_CLOSE(d.cpu_mem_bytes, 480e9, 1e-15);
	CHECK_CLOSE(d.tdp_w, 700, 1e-15);
	CHECK_STR(d.efficiency_source, "a guess");
	/* Its roofline: compute-bound and memory-bound, closed forms. */
	CHECK_CLOSE(dl_devdesc_roofline_s(&d, DL_BF16, 1e15, 1e9),
		    1e15 / (989.4e12 * 0.5) + 1e-6, 1e-12);
	CHECK_CLOSE(dl_devdesc_roofline_s(&d, DL_BF16, 1e9, 1e12), 1e12 / 3.35e12 + 1e-6, 1e-12);
	CHECK(dl_devdesc_roofline_s(&d, DL_BF16, 0, 0) == 0);
	/* With its default type bf16, speed is the bf16 peak: both given and
	 * different is a contradiction. */
	props_of(&kv, (const char *const[]){ "dlasim.device.dtype=bf16",
		"dlasim.device.peak.bf16=989.4Tf", "dlasim.device.hbm.bandwidth=1TBps",
		"dlasim.device.efficiency=1", "dlasim.device.efficiency.source=s", NULL });
	CHECK(dl_devdesc_from_props(&d, &kv.props, 989.4e12, "x") == 0);
	CHECK(dl_devdesc_from_props(&d, &kv.props, 1e12, "x") != 0);
	CHECK(dl_devdesc_from_props(&d, &kv.props, 0, "x") == 0);
	CHECK(d.peak[DL_FP32] == 0);
}

/* Each of these is refused. */
static void test_bad(void)
{
	static const char *const cases[][4] = {
		{ "dlasim.device.hbm.bandwidth=-1GBps", NULL },
		{ "dlasim.device.hbm.bandwidth=1GQps", NULL },
		{ "dlasim.device.hbm.bandwidth=1TBps", "dlasim.device.peak.fp32=1Tq", NULL },
		{ "dlasim.device.hbm.bandwidth=1TBps", "dlasim.device.efficiency=1.5", NULL },
		{ "dlasim.device.hbm.bandwidth=1TBps", "dlasim.device.efficiency=0.5", NULL },
		{ "dlasim.device.peak.fp32=1Tf", NULL },
		{ "dlasim.device.hbm.bandwidth=1TBps", "dlasim.device.hbm-bandwidth=1TBps", NULL },
		{ "dlasim.device.hbm.bandwidth=1TBps", "dlasim.device.model=gpu", NULL },
		{ "dlasim.device.model=pe-array", "dlasim.device.hbm.bandwidth=1TBps", NULL },
		{ "dlasim.device.links=many", "dlasim.device.hbm.bandwidth=1TBps", NULL },
	};
	struct kv kv;
	struct dl_devdesc d;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		props_of(&kv, cases[i]);
		CHECK(dl_devdesc_from_props(&d, &kv.props, 1e12, "x") != 0);
	}
	/* No peak at all: no speed and no field. */
	props_of(&kv, (const char *const[]){ "dlasim.device.hbm.bandwidth=1TBps",
		"dlasim.device.efficiency=1", "dlasim.device.efficiency.source=s", NULL });
	CHECK(dl_devdesc_from_props(&d, &kv.props, 0, "x") != 0);
	CHECK(dl_devdesc_from_props(&d, &kv.props, 1e12, "x") == 0);
}

/* The shipped Table II file says what a bare host of 256 Tflop/s is. */
static void test_file_table2(void)
{
	struct dl_devdesc f, h;
	struct dl_props props;
	char *path = NULL;

	CHECK(dl_devfile_read("platforms/devices/table2.xml", &props, &path, &f) == 0);
	dl_devdesc_table2(&h, 256e12);
	CHECK(f.model == h.model && f.pes == h.pes && f.macs_per_pe == h.macs_per_pe);
	CHECK(f.peak[DL_FP32] == h.peak[DL_FP32] && f.hbm_Bps == h.hbm_Bps);
	CHECK(f.hbm_latency_s == h.hbm_latency_s && f.sram_bytes == h.sram_bytes);
	CHECK(f.efficiency == h.efficiency);
	CHECK(path && strstr(path, "table2.xml"));
	free(path);
	dl_devfile_free(&props);
	CHECK(dl_devfile_read("platforms/devices/no-such-device.xml", &props, NULL, &f) != 0);
	CHECK(dl_devfile_read("no-such-device", &props, NULL, &f) != 0);
}

int main(void)
{
	RUN(test_default_table2);
	RUN(test_roofline_fields);
	RUN(test_bad);
	RUN(test_file_table2);
	CHECK_EXIT();
}
