/* SPDX-License-Identifier: MIT */
#include "state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/cond.h>

#include "lib/diag.h"
#include "machine/engine.h"
#include "plugin/plugin.h"
#include "tmgraph/npu.h"

void run_changed(struct dlasim_tier_ctx *run)
{
	sg_cond_notify_all(run->changed);
}

void run_energy(const struct dlasim_tier_ctx *run, struct tier_result *r, double macs,
		double sram_bytes, double seconds)
{
	const struct dlasim_tier_system *s = &run->sys;

	r->migration_bytes = r->promoted_bytes + r->demoted_bytes;
	r->energy_migration_j = r->migration_bytes * (s->tier1_j_per_byte + s->tier2_j_per_byte);
	r->energy_prefetch_j = (r->tier1_read_bytes + r->tier1_write_bytes) * s->tier1_j_per_byte +
			       (r->tier2_read_bytes + r->tier2_write_bytes) * s->tier2_j_per_byte;
	r->energy_static_j = (s->tier1_static_w + s->tier2_static_w) * seconds;
	r->energy_sram_j = sram_bytes * SRAM_J_PER_BYTE;
	r->energy_mac_j = macs * MAC_J;
	r->energy_idle_j = s->onchip_static_w * seconds;
	r->iommu_walks = 0;
	r->energy_iommu_j = 0;
	/* Horizontal tiers translate every page the DMA touches (the IOTLB's
	 * 8 MiB reach is below the tensors streamed); a migrated page is
	 * translated at both ends and remapped. */
	if (run->iommu_page > 0 && s->arrangement == DLASIM_TIER_HORIZONTAL) {
		r->iommu_walks = (r->tier1_read_bytes + r->tier1_write_bytes + r->tier2_read_bytes +
				  r->tier2_write_bytes + 3 * r->migration_bytes) / run->iommu_page;
		r->energy_iommu_j = r->iommu_walks * run->iommu_walk * s->tier1_j_per_byte +
				    run->iommu_leak_w * seconds;
	}
	r->energy_j = r->energy_migration_j + r->energy_prefetch_j + r->energy_static_j +
		      r->energy_sram_j + r->energy_mac_j + r->energy_idle_j + r->energy_iommu_j;
}

void run_notify(struct dlasim_tier_ctx *run, const struct notice *n)
{
	if (run->nnotices == run->capnotices) {
		int cap = run->capnotices ? 2 * run->capnotices : 64;
		struct notice *p = realloc(run->notices, (size_t)cap * sizeof(*p));

		if (!p) {
			dl_err("out of memory");
			dl_sim_fail();
		}
		run->notices = p;
		run->capnotices = cap;
	}
	run->notices[run->nnotices++] = *n;
}

void run_plugin_fail(struct dlasim_tier_ctx *run, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dl_sim_plugin_error(run->plugin, "", "%s", msg);
}
