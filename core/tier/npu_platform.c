/* SPDX-License-Identifier: MIT */
/*
 * The SimGrid platform of one NPU chip and its two memory tiers
 * (platforms/npu-horizontal.xml and platforms/npu-vertical.xml are this
 * text).  Horizontal: HBM and flash both reach the chip, every access
 * through its IOMMU.  Vertical: flash reaches the chip only through the
 * HBM, which caches it.  Parameters and sources: docs/tier.md.
 */
#include "npu_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "machine/devdesc.h"
#include "tmgraph/npu.h"

#define HEAD \
	"<?xml version='1.0'?>\n" \
	"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"

#define ZONE \
	"<platform version=\"4.1\">\n" \
	"<zone id=\"npu\" routing=\"Full\">\n" \
	"  <!-- host speed = clock: one flop is one cycle of all eight MXUs;\n" \
	"       idle power: TPU v4's measured minimum -->\n" \
	"  <host id=\"chip\" speed=\"1.05Gf\">\n" \
	"    <prop id=\"dlasim.role\" value=\"device\"/>\n" \
	"    <prop id=\"dlasim.idle-power\" value=\"90W\"/>\n"

/* Table 1's IOMMU (4 KiB pages) with NeuMMU's walkers (Figure 5: 128): a
 * 4-level walk of 64-byte entries per page; its SRAM leaks 13.65 mW and
 * the request timing monitor's 2.7 KB at the same rate 1.08 mW (Section
 * 4.4). */
#define IOMMU \
	"    <prop id=\"dlasim.iommu-page\" value=\"4KiB\"/>\n" \
	"    <prop id=\"dlasim.iommu-walk\" value=\"256B\"/>\n" \
	"    <prop id=\"dlasim.iommu-leakage\" value=\"14.73mW\"/>\n"

#define HOSTS \
	"  </host>\n" \
	"  <!-- static power of one device of device-capacity (Table 2), scaled\n" \
	"       by the capacity a tier has; price per byte relative to flash's -->\n" \
	"  <host id=\"hbm\" speed=\"1f\">\n" \
	"    <prop id=\"dlasim.role\" value=\"memory\"/>\n" \
	"    <prop id=\"dlasim.tier\" value=\"1\"/>\n" \
	"    <prop id=\"dlasim.static-power\" value=\"684mW\"/>\n" \
	"    <prop id=\"dlasim.device-capacity\" value=\"32GiB\"/>\n" \
	"    <prop id=\"dlasim.price\" value=\"100\"/>\n" \
	"  </host>\n" \
	"  <host id=\"flash\" speed=\"1f\">\n" \
	"    <prop id=\"dlasim.role\" value=\"memory\"/>\n" \
	"    <prop id=\"dlasim.tier\" value=\"2\"/>\n" \
	"    <prop id=\"dlasim.static-power\" value=\"1.6mW\"/>\n" \
	"    <prop id=\"dlasim.device-capacity\" value=\"1TB\"/>\n" \
	"    <prop id=\"dlasim.price\" value=\"1\"/>\n" \
	"  </host>\n" \
	"  <!-- the chip's port on the inter-chip network: a pod's all-reduce\n" \
	"       bandwidth (1.1 PB/s) over its 4096 chips -->\n" \
	"  <host id=\"ici\" speed=\"1f\">\n" \
	"    <prop id=\"dlasim.role\" value=\"port\"/>\n" \
	"    <prop id=\"dlasim.port-of\" value=\"chip\"/>\n" \
	"  </host>\n" \
	"  <link id=\"hbm-bus\" bandwidth=\"1200GBps\" latency=\"0s\">\n" \
	"    <prop id=\"dlasim.class\" value=\"dram\"/>\n" \
	"  </link>\n" \
	"  <link id=\"flash-read\" bandwidth=\"15GBps\" latency=\"0s\"/>\n" \
	"  <link id=\"flash-write\" bandwidth=\"13.8GBps\" latency=\"0s\"/>\n" \
	"  <link id=\"ici-link\" bandwidth=\"268.5546875GBps\" latency=\"0s\"/>\n"

#define ICI_ROUTE \
	"  <route src=\"ici\" dst=\"chip\" symmetrical=\"YES\"><link_ctn id=\"ici-link\"/></route>\n"

#define TAIL "</zone>\n</platform>\n"

static const char horizontal[] = HEAD
	"<!-- dlasim tier: an NPU chip (TM-Training Table 1) with HBM as tier 1 and NAND flash as tier 2 side by side (Table 2); docs/tier.md -->\n"
	ZONE IOMMU HOSTS
	"  <!-- the walkers translate 128 pages per 4-access walk (4 x 100 ns) -->\n"
	"  <link id=\"iommu\" bandwidth=\"1310.72GBps\" latency=\"0s\"/>\n"
	"  <route src=\"hbm\" dst=\"chip\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/><link_ctn id=\"iommu\"/></route>\n"
	"  <route src=\"chip\" dst=\"hbm\" symmetrical=\"NO\"><link_ctn id=\"iommu\"/><link_ctn id=\"hbm-bus\"/></route>\n"
	"  <route src=\"flash\" dst=\"hbm\" symmetrical=\"NO\"><link_ctn id=\"flash-read\"/><link_ctn id=\"iommu\"/><link_ctn id=\"hbm-bus\"/></route>\n"
	"  <route src=\"hbm\" dst=\"flash\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/><link_ctn id=\"iommu\"/><link_ctn id=\"flash-write\"/></route>\n"
	"  <route src=\"flash\" dst=\"chip\" symmetrical=\"NO\"><link_ctn id=\"flash-read\"/><link_ctn id=\"iommu\"/></route>\n"
	"  <route src=\"chip\" dst=\"flash\" symmetrical=\"NO\"><link_ctn id=\"iommu\"/><link_ctn id=\"flash-write\"/></route>\n"
	ICI_ROUTE TAIL;

static const char vertical[] = HEAD
	"<!-- dlasim tier: an NPU chip (TM-Training Table 1) whose HBM (tier 1) caches NAND flash (tier 2, Table 2); docs/tier.md -->\n"
	ZONE HOSTS
	"  <route src=\"hbm\" dst=\"chip\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/></route>\n"
	"  <route src=\"chip\" dst=\"hbm\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/></route>\n"
	"  <route src=\"flash\" dst=\"hbm\" symmetrical=\"NO\"><link_ctn id=\"flash-read\"/><link_ctn id=\"hbm-bus\"/></route>\n"
	"  <route src=\"hbm\" dst=\"flash\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/><link_ctn id=\"flash-write\"/></route>\n"
	"  <route src=\"flash\" dst=\"chip\" symmetrical=\"NO\"><link_ctn id=\"flash-read\"/><link_ctn id=\"hbm-bus\"/></route>\n"
	"  <route src=\"chip\" dst=\"flash\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/><link_ctn id=\"flash-write\"/></route>\n"
	ICI_ROUTE TAIL;

const char *npu_platform_xml(enum dlasim_tier_arrangement a)
{
	return a == DLASIM_TIER_VERTICAL ? vertical : horizontal;
}

#define CHIP_SPEED "speed=\"1.05Gf\""
#define HBM_BW "bandwidth=\"1200GBps\""

/* `text` with its one `from` replaced by `to`, into a new string. */
static char *replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t head = (size_t)(at - text), n = strlen(text) - strlen(from) + strlen(to);
	char *out = malloc(n + 1);

	if (out)
		snprintf(out, n + 1, "%.*s%s%s", (int)head, text, to, at + strlen(from));
	return out;
}

int npu_platform_xml_device(enum dlasim_tier_arrangement a, const char *device, char **xml)
{
	/* One flop of the chip host is one cycle of all its MXUs. */
	const double macs = NPU_CORES * NPU_MXUS_PER_CORE * NPU_MXU_DIM * NPU_MXU_DIM;
	struct dl_props props;
	struct dl_devdesc d;
	char speed[64], bw[64], *tmp;
	char *path;
	int ret = -1;

	*xml = NULL;
	if (dl_devfile_read(device, &props, &path, &d))
		return -1;
	if (!dl_devdesc_has(&d, DL_BF16)) {
		dl_err("%s: device '%s': dlasim.device.peak.bf16: missing (the NPU computes in bf16)",
		       path, d.name);
		goto out;
	}
	snprintf(speed, sizeof(speed), "speed=\"%.17gf\"", d.peak[DL_BF16] / (2 * macs));
	snprintf(bw, sizeof(bw), "bandwidth=\"%.17gBps\"", d.hbm_Bps);
	tmp = replace(npu_platform_xml(a), CHIP_SPEED, speed);
	*xml = tmp ? replace(tmp, HBM_BW, bw) : NULL;
	free(tmp);
	ret = *xml ? 0 : dl_err("out of memory");
out:
	free(path);
	dl_devfile_free(&props);
	return ret;
}
