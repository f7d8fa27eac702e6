/* SPDX-License-Identifier: MIT */
#include "run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/cond.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/mutex.h>
#include <xbt/dynar.h>

#include "lib/cleanup.h"
#include "lib/diag.h"
#include "machine/engine.h"
#include "results/outfile.h"
#include "plugin/plugin.h"
#include "lib/units.h"
#include "chip.h"
#include "manager.h"
#include "mem.h"
#include "monitor.h"
#include "tmgraph/floor.h"
#include "tmgraph/npu.h"
#include "npu_platform.h"
#include "services.h"
#include "state.h"

/* TM-Training: 25:1 is 12.5% and 100:1 is 50% of the 32 GB per chip. */
double tier_ratio_bytes(double ratio)
{
	return ratio / 200 * NPU_ADDRESS_SPACE;
}

/* ---- the system ---- */

static int size_system(struct dlasim_tier_ctx *run, const struct tier_config *cfg)
{
	struct dlasim_tier_system *s = &run->sys;
	double need = run->g.peak_bytes, t1 = tier_ratio_bytes(cfg->tier1_ratio), hold;

	s->size = sizeof(*s);
	s->arrangement = run->ops->arrangement;
	s->address_space_bytes = NPU_ADDRESS_SPACE * cfg->batch_scale;
	s->seq = (int)run->w.seq;
	if (t1 > s->address_space_bytes)
		return dl_err("--tier1-ratio %g: tier 1 would be %.3g GiB, larger than the %.3g GiB address space of a chip",
			      cfg->tier1_ratio, t1 / GIB, s->address_space_bytes / GIB);
	switch (s->arrangement) {
	case DLASIM_TIER_HBM_ONLY:
		s->tier1_capacity_bytes = s->address_space_bytes;
		s->tier2_capacity_bytes = 0;
		hold = s->tier1_capacity_bytes;
		break;
	case DLASIM_TIER_VERTICAL:
		s->tier1_capacity_bytes = t1;
		s->tier2_capacity_bytes = s->address_space_bytes;
		hold = s->tier2_capacity_bytes;
		break;
	default:
		s->tier1_capacity_bytes = t1;
		s->tier2_capacity_bytes = s->address_space_bytes - t1;
		hold = s->address_space_bytes;
		break;
	}
	if (need > hold)
		return dl_err("workload %s fits in neither tier: it needs %.3g GiB at op %s, the tiers hold %.3g GiB (tier 1 %.3g GiB, tier 2 %.3g GiB)",
			      run->w.file, need / GIB, run->g.ops[run->g.peak_op].name, hold / GIB,
			      s->tier1_capacity_bytes / GIB, s->tier2_capacity_bytes / GIB);
	s->tier1_j_per_byte = HBM_J_PER_BYTE;
	s->tier2_j_per_byte = FLASH_J_PER_BYTE;
	return 0;
}

/* ---- the platform ---- */

enum prop_unit { P_POWER, P_SIZE, P_NUMBER };

/* Property `key` of host h in its unit; 1 if absent and optional. */
static int host_value(const struct dl_platform *p, const struct dl_host *h, const char *key,
		      enum prop_unit unit, bool optional, double *v)
{
	const char *text = dl_host_prop(h, key), *why;

	if (!text && optional)
		return 1;
	if (!text)
		return dl_err("platform %s:%d: host %s: needs %s (see docs/tier.md)", p->file,
			      h->line, h->name, key);
	why = unit == P_POWER ? dl_parse_power(text, v) :
	      unit == P_SIZE ? dl_parse_size(text, v) : dl_parse_number(text, 0, v);
	if (why)
		return dl_err("platform %s:%d: host %s: %s '%s': %s", p->file, h->line, h->name,
			      key, text, why);
	return 0;
}

/* A memory device: its static power, per byte (of the device it is given
 * for) and per device, and its price per byte. */
static int memory_props(const struct dl_platform *p, const struct dl_host *h, double *w,
			double *device_w, double *price)
{
	double cap;

	if (host_value(p, h, "dlasim.static-power", P_POWER, false, device_w) ||
	    host_value(p, h, "dlasim.device-capacity", P_SIZE, false, &cap) ||
	    host_value(p, h, "dlasim.price", P_NUMBER, false, price))
		return -1;
	*w = *device_w / cap;
	return 0;
}

/* The chip's idle power and, if it has one, its IOMMU. */
static int chip_props(struct dlasim_tier_ctx *run, const struct dl_platform *p,
		      const struct dl_host *h)
{
	int page;

	if (host_value(p, h, "dlasim.idle-power", P_POWER, false, &run->sys.onchip_static_w))
		return -1;
	page = host_value(p, h, "dlasim.iommu-page", P_SIZE, true, &run->iommu_page);
	if (page < 0)
		return -1;
	if (page > 0) {
		run->iommu_page = 0;
		return 0;
	}
	if (host_value(p, h, "dlasim.iommu-walk", P_SIZE, false, &run->iommu_walk) ||
	    host_value(p, h, "dlasim.iommu-leakage", P_POWER, false, &run->iommu_leak_w))
		return -1;
	return 0;
}

static int find_hosts(struct dlasim_tier_ctx *run, const struct dl_platform *p)
{
	const struct dl_host *chip = NULL, *hbm = NULL, *flash = NULL, *ici = NULL;
	struct dlasim_tier_system *s = &run->sys;
	double flash_w;

	for (int i = 0; i < p->nhosts; i++) {
		const struct dl_host *h = &p->hosts[i];
		const char *tier = dl_host_prop(h, "dlasim.tier");

		if (h->role == DL_ROLE_DEVICE && !chip)
			chip = h;
		else if (h->role == DL_ROLE_MEMORY && tier && strcmp(tier, "1") == 0)
			hbm = h;
		else if (h->role == DL_ROLE_MEMORY && tier && strcmp(tier, "2") == 0)
			flash = h;
	}
	for (int i = 0; chip && i < p->nhosts; i++) {
		const char *of = dl_host_prop(&p->hosts[i], "dlasim.port-of");

		if (p->hosts[i].role == DL_ROLE_PORT && of && strcmp(of, chip->name) == 0)
			ici = &p->hosts[i];
	}
	if (!chip || !hbm || !flash || !ici)
		return dl_err("platform %s: needs a device host, a port of it (the inter-chip network) and memory hosts with dlasim.tier 1 and 2 (see docs/tier.md)",
			      p->file);
	run->chip = chip->sg;
	run->hbm = hbm->sg;
	run->flash = flash->sg;
	run->ici = ici->sg;
	if (chip_props(run, p, chip) ||
	    memory_props(p, hbm, &run->hbm_static_w_per_byte, &run->hbm_device_w, &run->hbm_price) ||
	    memory_props(p, flash, &run->flash_static_w_per_byte, &flash_w, &run->flash_price))
		return -1;
	s->tier1_static_w = run->hbm_static_w_per_byte * s->tier1_capacity_bytes;
	s->tier2_static_w = run->flash_static_w_per_byte * s->tier2_capacity_bytes;
	return 0;
}

/* Data moves between the chip and both tiers, and between the tiers, in
 * both directions: SimGrid aborts on a transfer without a route. */
static int check_routes(const struct dlasim_tier_ctx *run, const struct dl_platform *p)
{
	const sg_host_t hosts[] = { run->chip, run->hbm, run->flash };

	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++)
			if (a != b && !dl_route_exists(p, dl_host_index(p, sg_host_get_name(hosts[a])),
						       dl_host_index(p, sg_host_get_name(hosts[b]))))
				return dl_err("platform %s: no route from '%s' to '%s' (tier placement moves data between the chip and both tiers, both ways: docs/tier.md)",
					      p->file, sg_host_get_name(hosts[a]),
					      sg_host_get_name(hosts[b]));
	/* A pod's collectives reach the chip through its network port. */
	if (!dl_route_exists(p, dl_host_index(p, sg_host_get_name(run->ici)),
			     dl_host_index(p, sg_host_get_name(run->chip))))
		return dl_err("platform %s: no route from the network port '%s' to '%s' (a pod's collectives reach the chip through it: docs/tier.md)",
			      p->file, sg_host_get_name(run->ici), sg_host_get_name(run->chip));
	return 0;
}

static bool on_route(sg_host_t a, sg_host_t b, sg_link_t l)
{
	xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
	bool found = false;
	unsigned i;
	sg_link_t x;

	sg_host_get_route(a, b, links);
	xbt_dynar_foreach (links, i, x)
		found |= x == l;
	xbt_dynar_free(&links);
	return found;
}

/* Scale the links that only tier-2 traffic uses. */
static void scale_tier2(struct dlasim_tier_ctx *run, double f)
{
	sg_link_t *links = sg_link_list();
	size_t n = sg_link_count();

	for (size_t i = 0; i < n; i++) {
		sg_link_t l = links[i];
		bool t2 = on_route(run->flash, run->chip, l) || on_route(run->chip, run->flash, l);
		bool t1 = on_route(run->hbm, run->chip, l) || on_route(run->chip, run->hbm, l);

		if (t2 && !t1)
			sg_link_set_bandwidth(l, sg_link_get_bandwidth(l) * f);
	}
	free(links);
}

static int start_platform(struct dlasim_tier_ctx *run, const struct tier_config *cfg,
			  struct dl_platform **p)
{
	int ret;

	char *xml = NULL;

	if (cfg->platform && cfg->npu_device)
		return dl_err("--npu-device %s: not with --platform (the NPU is that platform's)",
			      cfg->npu_device);
	if (cfg->npu_device &&
	    npu_platform_xml_device(run->sys.arrangement, cfg->npu_device, &xml))
		return -1;
	if (cfg->platform)
		ret = dl_engine_start(cfg->platform, p);
	else
		ret = dl_engine_start_xml(xml ? xml : npu_platform_xml(run->sys.arrangement), "npu", p);
	free(xml);
	if (ret || find_hosts(run, *p) || check_routes(run, *p))
		return -1;
	run->clock_hz = NPU_CLOCK_HZ;
	if (cfg->npu_device) {
		run->clock_hz = sg_host_get_speed(run->chip);
		tier_graph_set_clock(&run->g, run->clock_hz);
	}
	scale_tier2(run, cfg->tier2_bw_scale);
	run->sys.tier1_bw_Bps = sg_host_get_route_bandwidth(run->hbm, run->chip);
	run->sys.tier2_read_bw_Bps = sg_host_get_route_bandwidth(run->flash, run->chip);
	run->sys.tier2_write_bw_Bps = sg_host_get_route_bandwidth(run->chip, run->flash);
	run->sys.network_bw_Bps = sg_host_get_route_bandwidth(run->ici, run->chip);
	return 0;
}

/* ---- results ---- */

static void account(struct dlasim_tier_ctx *run, struct tier_result *r)
{
	const struct dlasim_tier_system *s = &run->sys;
	double t = run->end_s, sram = 0;

	for (int i = 0; i < run->g.nops; i++)
		sram += run->g.ops[i].sram_bytes;
	r->arrangement = s->arrangement;
	r->address_space_bytes = s->address_space_bytes;
	r->tier1_capacity_bytes = s->tier1_capacity_bytes;
	r->tier2_capacity_bytes = s->tier2_capacity_bytes;
	r->params = tier_workload_params(&run->w);
	r->samples = run->g.dims.b;
	r->peak_bytes = run->g.peak_bytes;
	r->data_bytes = run->g.data_bytes;
	r->traffic_bytes = run->g.traffic_bytes;
	r->network_bytes = run->g.network_bytes;
	r->recomputed_layers = (int)run->g.dims.recomputed;
	r->weights_sharded = run->g.dims.fsdp;
	r->iteration_time_s = t;
	r->compute_s = run->g.compute_s;
	r->stall_s = t - run->g.compute_s;
	r->stall_share = r->stall_s / t;
	run_energy(run, r, run->g.macs, sram, t);
	/* The memory's price against an HBM-only address space (Section 1). */
	r->memory_cost_ratio = (s->tier1_capacity_bytes * run->hbm_price +
				s->tier2_capacity_bytes * run->flash_price) /
			       (s->address_space_bytes * run->hbm_price);
	r->throughput_samples_per_s = r->samples / t;
	r->throughput_per_watt = r->samples / r->energy_j;
	r->ops = run->g.nops;
	r->tensors = run->g.nt;
}

/* The floor of this iteration on these tiers: its least time and flash
 * traffic (tier_graph_floor), and the least energy they imply: the MACs'
 * and SRAM's, HBM's access energy on every byte an HBM-only chip moves
 * but what tier-2 blocks held in SRAM save, flash's extra access energy on
 * the least flash traffic, and the static and idle powers over the least
 * time (docs/tier.md, "The floor"). */
static int account_floor(struct dlasim_tier_ctx *run, struct tier_result *r)
{
	const struct dlasim_tier_system *s = &run->sys;
	double power = s->tier1_static_w + s->tier2_static_w + s->onchip_static_w;
	double saved, flash;
	struct tg_links l = { s->tier1_bw_Bps, s->tier2_read_bw_Bps, s->tier2_write_bw_Bps,
			      s->network_bw_Bps };
	struct tg_floor f;

	if (tier_graph_floor(&run->g, s->tier1_capacity_bytes, &l, &f))
		return dl_err("out of memory");
	saved = s->tier2_capacity_bytes > 0 ? f.pass_saving_bytes : 0;
	flash = f.flash_read_bytes + f.flash_write_bytes;
	r->floor_time_s = f.time_s;
	r->floor_flash_read_bytes = f.flash_read_bytes;
	r->floor_flash_write_bytes = f.flash_write_bytes;
	r->floor_energy_j = r->energy_mac_j + r->energy_sram_j +
			    (run->g.traffic_bytes - saved) * s->tier1_j_per_byte +
			    flash * fmax(0, s->tier2_j_per_byte - s->tier1_j_per_byte) +
			    power * f.time_s;
	r->floor_throughput_per_watt = r->samples / r->floor_energy_j;
	return 0;
}

static int alloc_pipeline(struct dlasim_tier_ctx *run)
{
	int n = run->g.nops;

	run->t2 = malloc((size_t)n * sizeof(double));
	run->t3 = malloc((size_t)n * sizeof(double));
	run->ready = calloc((size_t)n, sizeof(bool));
	run->written = calloc((size_t)n, sizeof(bool));
	run->writers_of = calloc((size_t)n, sizeof(*run->writers_of));
	if (!run->t2 || !run->t3 || !run->ready || !run->written || !run->writers_of)
		return dl_err("out of memory");
	for (int i = 0; i < n; i++)
		run->t2[i] = run->t3[i] = -1;
	return mem_init(run);
}

static void free_run(struct dlasim_tier_ctx *run)
{
	free(run->t2);
	free(run->t3);
	free(run->ready);
	free(run->written);
	free(run->writers_of);
	mem_free_state(run);
	monitor_free(run);
	free(run->op_view);
	free(run->notices);
	tier_graph_free(&run->g);
	tier_workload_free(&run->w);
	dl_plugin_close(run->plugin);
}

static int simulate(struct dlasim_tier_ctx *run, const struct tier_config *cfg)
{
	struct dl_platform *p = NULL;
	struct dl_outfile records = { 0 };
	int ret = -1;

	if (cfg->monitor && dl_outfile_open(&records, cfg->monitor, "--monitor"))
		return -1;
	if (size_system(run, cfg) || start_platform(run, cfg, &p) || alloc_pipeline(run))
		goto out;
	run->mutex = sg_mutex_init();
	run->changed = sg_cond_init();
	if (monitor_start(run) || manager_start(run))
		goto out;
	chip_start(run);
	if (dl_engine_run())
		goto out;
	manager_notify(run);	/* the last ops' feedback */
	for (int i = 0; i < run->g.nops; i++) {
		if (!run->written[i]) {
			dl_err("internal error: op %s never completed", run->g.ops[i].name);
			goto out;
		}
	}
	account(run, run->res);
	if (account_floor(run, run->res))
		goto out;
	if (cfg->monitor) {
		monitor_write(run, records.f);
		if (dl_outfile_commit(&records))
			goto out;
	}
	ret = 0;
out:
	if (ret && cfg->monitor)
		dl_outfile_abort(&records);
	if (run->changed)
		sg_cond_destroy(run->changed);
	if (run->mutex)
		sg_mutex_destroy(run->mutex);
	dl_platform_free(p);
	return ret;
}

int tier_run(const struct tier_config *cfg, struct tier_result *res)
{
	static struct dlasim_tier_ctx run;
	const struct dlasim_tier_ops *ops;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	run.res = res;
	res->tier1_ratio = cfg->tier1_ratio;
	res->batch_scale = cfg->batch_scale;
	res->tier2_bw_scale = cfg->tier2_bw_scale;
	if (tier_workload_read(&run.w, cfg->workload))
		return -1;
	snprintf(res->workload, sizeof(res->workload), "%s", run.w.name);
	if (tier_graph_build(&run.g, &run.w, cfg->batch_scale, NPU_ADDRESS_SPACE * cfg->batch_scale))
		goto out;
	dl_host_api.tier = &tier_services;
	if (dl_plugin_open(&run.plugin, DLASIM_KIND_TIER_PLACEMENT, cfg->policy, "--policy",
			   tier_ops_check))
		goto out;
	ops = run.plugin->desc->ops;
	memcpy(&run.ops_copy, ops, ops->size < sizeof(*ops) ? ops->size : sizeof(*ops));
	run.ops = &run.ops_copy;
	run.state = run.plugin->state;
	run.online = cfg->online_only && !(run.ops->flags & DLASIM_TIER_OFFLINE);
	snprintf(res->policy, sizeof(res->policy), "%s", run.plugin->desc->name);
	ret = simulate(&run, cfg);
out:
	free_run(&run);
	return ret;
}
