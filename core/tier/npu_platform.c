/* SPDX-License-Identifier: MIT */
/*
 * The SimGrid platform of one NPU chip and its two memory tiers
 * (platforms/npu-horizontal.xml and platforms/npu-vertical.xml are this
 * text).  Horizontal: HBM and flash both reach the chip.  Vertical: flash
 * reaches the chip only through the HBM, which caches it.
 */
#include "npu_platform.h"

#define HEAD \
	"<?xml version='1.0'?>\n" \
	"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"

#define HOSTS \
	"<platform version=\"4.1\">\n" \
	"<zone id=\"npu\" routing=\"Full\">\n" \
	"  <!-- host speed = clock: one flop is one cycle of all eight MXUs -->\n" \
	"  <host id=\"chip\" speed=\"1.05Gf\">\n" \
	"    <prop id=\"dlasim.role\" value=\"device\"/>\n" \
	"  </host>\n" \
	"  <host id=\"hbm\" speed=\"1f\">\n" \
	"    <prop id=\"dlasim.role\" value=\"memory\"/>\n" \
	"    <prop id=\"dlasim.tier\" value=\"1\"/>\n" \
	"  </host>\n" \
	"  <host id=\"flash\" speed=\"1f\">\n" \
	"    <prop id=\"dlasim.role\" value=\"memory\"/>\n" \
	"    <prop id=\"dlasim.tier\" value=\"2\"/>\n" \
	"  </host>\n" \
	"  <link id=\"hbm-bus\" bandwidth=\"1200GBps\" latency=\"0s\">\n" \
	"    <prop id=\"dlasim.class\" value=\"dram\"/>\n" \
	"  </link>\n" \
	"  <link id=\"flash-read\" bandwidth=\"15GBps\" latency=\"0s\"/>\n" \
	"  <link id=\"flash-write\" bandwidth=\"13.8GBps\" latency=\"0s\"/>\n" \
	"  <route src=\"hbm\" dst=\"chip\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/></route>\n" \
	"  <route src=\"chip\" dst=\"hbm\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/></route>\n" \
	"  <route src=\"flash\" dst=\"hbm\" symmetrical=\"NO\"><link_ctn id=\"flash-read\"/><link_ctn id=\"hbm-bus\"/></route>\n" \
	"  <route src=\"hbm\" dst=\"flash\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/><link_ctn id=\"flash-write\"/></route>\n"

#define TAIL "</zone>\n</platform>\n"

static const char horizontal[] = HEAD
	"<!-- dlasim tier: an NPU chip (TM-Training Table 1) with HBM as tier 1 and NAND flash as tier 2 side by side (Table 2); docs/tier.md -->\n"
	HOSTS
	"  <route src=\"flash\" dst=\"chip\" symmetrical=\"NO\"><link_ctn id=\"flash-read\"/></route>\n"
	"  <route src=\"chip\" dst=\"flash\" symmetrical=\"NO\"><link_ctn id=\"flash-write\"/></route>\n"
	TAIL;

static const char vertical[] = HEAD
	"<!-- dlasim tier: an NPU chip (TM-Training Table 1) whose HBM (tier 1) caches NAND flash (tier 2, Table 2); docs/tier.md -->\n"
	HOSTS
	"  <route src=\"flash\" dst=\"chip\" symmetrical=\"NO\"><link_ctn id=\"flash-read\"/><link_ctn id=\"hbm-bus\"/></route>\n"
	"  <route src=\"chip\" dst=\"flash\" symmetrical=\"NO\"><link_ctn id=\"hbm-bus\"/><link_ctn id=\"flash-write\"/></route>\n"
	TAIL;

const char *npu_platform_xml(enum dlasim_tier_arrangement a)
{
	return a == DLASIM_TIER_VERTICAL ? vertical : horizontal;
}
