/* SPDX-License-Identifier: MIT */
/* dlasim platform: generate a SimGrid platform file. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/diag.h"
#include "results/outfile.h"
#include "machine/devdesc.h"
#include "machine/platgen.h"
#include "lib/units.h"
#include "cli.h"

#define CMD "platform"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dlasim platform --topology T (--devices N | --nodes K) [-o FILE] [options]\n"
		"  --topology T            dc, dc-gen4, hc, hc-ring, mc-star, mc-ring or switch\n"
		"  --devices N             number of devices (>= 2; 1 for dc, dc-gen4, hc)\n"
		"  -o, --output FILE       write here instead of standard output\n"
		"  --links-per-device L    high-bandwidth links per device (default 6)\n"
		"  --link-bandwidth BW     per link and direction, with its unit (default 25GBps)\n"
		"  --link-latency T        per link (default 1us; a unit is required, 0 needs none)\n"
		"  --pcie-bandwidth BW     dc: per direction (default 16GBps, dc-gen4 32GBps)\n"
		"  --pcie-uplink-bandwidth BW  dc: PCIe switch to socket (default: as --pcie-bandwidth)\n"
		"  --cpu-memory-bandwidth BW  per socket (dc 80GBps, hc 4 x L/2 x B)\n"
		"  --socket xeon|power9    socket memory bandwidth of that CPU (80GBps, 120GBps)\n"
		"  --device-tdp POWER      devices' TDP (default 300W; with --device, its TDP)\n"
		"  --device NAME|FILE      write this device description on every device\n"
		"                          (docs/devices.md; default: none, Table II's device)\n"
		"  --list-devices          list the shipped device descriptions and exit\n"
		"  --dimm SIZE             memory-node DIMMs, Table IV: 8GB..128GB (default 128GB)\n"
		"  --block K               devices per zone above K devices (default 64, 0 = flat)\n"
		"scale-out (Figure 15; dc, dc-gen4, hc, mc-ring inside each system node):\n"
		"  --nodes K               K system nodes of 8 devices joined by device-side switches\n"
		"  --switch-radix R        ports per switch; a pod of R nodes shares a spine (default 18)\n"
		"  --uplink-bandwidth BW   per device into the switches, per direction (default 150GBps)\n"
		"  --oversubscription X    node switch down : up bandwidth, >= 1 (default 1)\n"
		"See docs/platforms.md for the machines and the file conventions.\n");
}

/* A peak in Tflop/s, or "-" for a type the device does not compute. */
static void peak_cell(char *buf, size_t len, const struct dl_devdesc *d, enum dl_dtype t)
{
	if (dl_devdesc_has(d, t))
		snprintf(buf, len, "%.1f", d->peak[t] / 1e12);
	else
		snprintf(buf, len, "-");
}

static void print_device(const char *name, const struct dl_devdesc *d)
{
	char cell[DL_DTYPES][32], links[96];

	for (int t = 0; t < DL_DTYPES; t++)
		peak_cell(cell[t], sizeof(cell[t]), d, t);
	if (d->links)
		snprintf(links, sizeof(links), "%d x %g GB/s", d->links, d->link_Bps / 1e9);
	else
		snprintf(links, sizeof(links), "-");
	if (d->c2c_Bps > 0)
		snprintf(links + strlen(links), sizeof(links) - strlen(links),
			 "; C2C %g GB/s to %g GB", d->c2c_Bps / 1e9, d->cpu_mem_bytes / 1e9);
	printf("%-14s %-9s %8s %8s %8s %8s %9.0f %7.0f  %s\n", name,
	       d->model == DL_DEV_PE_ARRAY ? "pe-array" : "roofline", cell[DL_FP32], cell[DL_BF16],
	       cell[DL_FP16], cell[DL_FP8], d->hbm_Bps / 1e9, d->hbm_bytes / 1e9, links);
}

/* --list-devices: the shipped descriptions, one a line. */
static int list_devices(void)
{
	char **names;
	int n, ret = 0;

	if (dl_devfile_list(&names, &n))
		return -1;
	printf("%-14s %-9s %8s %8s %8s %8s %9s %7s  %s\n", "device", "model", "fp32", "bf16",
	       "fp16", "fp8", "HBM GB/s", "HBM GB", "links (per direction)");
	printf("%-14s %-9s %35s\n", "", "", "peak Tflop/s");
	for (int i = 0; i < n; i++) {
		struct dl_props props;
		struct dl_devdesc d;

		if (!ret && dl_devfile_read(names[i], &props, NULL, &d) == 0) {
			print_device(names[i], &d);
			dl_devfile_free(&props);
		} else {
			ret = -1;
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int cmd_platform(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "devices", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "links-per-device", required_argument, NULL, 'L' },
		{ "link-bandwidth", required_argument, NULL, 'B' },
		{ "link-latency", required_argument, NULL, 'l' },
		{ "pcie-bandwidth", required_argument, NULL, 'P' },
		{ "cpu-memory-bandwidth", required_argument, NULL, 'C' },
		{ "pcie-uplink-bandwidth", required_argument, NULL, 'u' },
		{ "socket", required_argument, NULL, 'S' },
		{ "device-tdp", required_argument, NULL, 'W' },
		{ "dimm", required_argument, NULL, 'D' },
		{ "block", required_argument, NULL, 'k' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "switch-radix", required_argument, NULL, 'R' },
		{ "uplink-bandwidth", required_argument, NULL, 'U' },
		{ "oversubscription", required_argument, NULL, 'O' },
		{ "device", required_argument, NULL, 'V' },
		{ "list-devices", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *topology = NULL, *output = NULL, *device = NULL, *why;
	struct dl_props dprops = { 0 };
	struct dl_devdesc desc;
	int ret = DL_EXIT_ERROR;
	struct dl_platgen g, set = { .device_tdp_w = -1 };
	bool latency_given = false;
	long devices = -1, links = -1, block = -1, nodes = 0, radix = -1;
	double oversub = 0;
	struct dl_outfile out;
	long bytes;
	struct stat st;
	enum dl_topology t;
	int c;

	while ((c = dl_getopt(argc, argv, CMD, "o:", opts)) != -1) {
		switch (c) {
		case 't': topology = optarg; break;
		case 'o': output = optarg; break;
		case 'n':
			if ((why = dl_parse_int(optarg, 1, DL_PLATGEN_MAX_DEVICES, &devices)))
				return dl_bad_option(CMD, "--devices", optarg,
						     strncmp(why, "out of range", 12) || devices > 1 ? why :
						     "need at least 1 device");
			break;
		case 'L':
			if ((why = dl_parse_int(optarg, 2, 64, &links)))
				return dl_bad_option(CMD, "--links-per-device", optarg, why);
			break;
		case 'B':
			if ((why = dl_parse_bandwidth(optarg, &set.link_bw)))
				return dl_bad_option(CMD, "--link-bandwidth", optarg, why);
			break;
		case 'l':
			if ((why = dl_parse_time(optarg, &set.link_lat)))
				return dl_bad_option(CMD, "--link-latency", optarg, why);
			latency_given = true;	/* it may be 0 */
			break;
		case 'P':
			if ((why = dl_parse_bandwidth(optarg, &set.pcie_bw)))
				return dl_bad_option(CMD, "--pcie-bandwidth", optarg, why);
			break;
		case 'C':
			if ((why = dl_parse_bandwidth(optarg, &set.cpu_mem_bw)))
				return dl_bad_option(CMD, "--cpu-memory-bandwidth", optarg, why);
			break;
		case 'u':
			if ((why = dl_parse_bandwidth(optarg, &set.pcie_uplink_bw)))
				return dl_bad_option(CMD, "--pcie-uplink-bandwidth", optarg, why);
			break;
		case 'S':
			if (!(set.cpu_mem_bw = dl_socket_memory_bw(optarg)))
				return dl_bad_option(CMD, "--socket", optarg, "not xeon or power9");
			break;
		case 'W':
			if ((why = dl_parse_power(optarg, &set.device_tdp_w)))
				return dl_bad_option(CMD, "--device-tdp", optarg, why);
			break;
		case 'D':
			if ((why = dl_parse_size(optarg, &set.dimm_bytes)))
				return dl_bad_option(CMD, "--dimm", optarg, why);
			break;
		case 'k':
			if ((why = dl_parse_int(optarg, 0, 1 << 20, &block)))
				return dl_bad_option(CMD, "--block", optarg, why);
			break;
		case 'N':
			if ((why = dl_parse_int(optarg, 1, (1 << 20) / DL_NODE_DEVICES, &nodes)))
				return dl_bad_option(CMD, "--nodes", optarg, why);
			break;
		case 'R':
			if ((why = dl_parse_int(optarg, 2, 1 << 16, &radix)))
				return dl_bad_option(CMD, "--switch-radix", optarg, why);
			break;
		case 'U':
			if ((why = dl_parse_bandwidth(optarg, &set.uplink_bw)))
				return dl_bad_option(CMD, "--uplink-bandwidth", optarg, why);
			break;
		case 'O':
			if ((why = dl_parse_number(optarg, 1, &oversub)))
				return dl_bad_option(CMD, "--oversubscription", optarg, why);
			break;
		case 'V': device = optarg; break;
		case 'I': return list_devices() ? DL_EXIT_ERROR : DL_EXIT_OK;
		case 'h': usage(stdout); return DL_EXIT_OK;
		default: return DL_EXIT_USAGE;
		}
	}
	if (dl_no_operands(argc, argv, CMD))
		return DL_EXIT_USAGE;
	if (nodes && devices < 0)
		devices = nodes * DL_NODE_DEVICES;
	if (!topology || devices < 0) {
		dl_err("%s: --topology and --devices (or --nodes) are required (see 'dlasim platform --help')", CMD);
		return DL_EXIT_USAGE;
	}
	if (dl_topology_parse(topology, &t))
		return dl_bad_option(CMD, "--topology", topology,
				     "unknown topology (dc, dc-gen4, hc, hc-ring, mc-star, mc-ring, switch)");
	dl_platgen_defaults(&g, t, (int)devices);
	if (links >= 0)
		g.links = (int)links;
	if (set.link_bw > 0)
		g.link_bw = set.link_bw;
	if (latency_given)
		g.link_lat = set.link_lat;
	if (set.dimm_bytes > 0)
		g.dimm_bytes = set.dimm_bytes;
	g.pcie_bw = set.pcie_bw;
	g.pcie_uplink_bw = set.pcie_uplink_bw;
	g.cpu_mem_bw = set.cpu_mem_bw;
	if (set.device_tdp_w >= 0)
		g.device_tdp_w = set.device_tdp_w;
	if (block >= 0)
		g.block = (int)block;
	g.nodes = (int)nodes;
	if (radix >= 0)
		g.radix = (int)radix;
	if (set.uplink_bw > 0)
		g.uplink_bw = set.uplink_bw;
	if (oversub > 0)
		g.oversubscription = oversub;
	if (device && dl_devfile_read(device, &dprops, NULL, &desc))
		return DL_EXIT_USAGE;
	if (device) {
		g.device_props = &dprops;
		g.device_speed = desc.peak[desc.dtype];
		if (set.device_tdp_w < 0 && desc.tdp_w > 0)
			g.device_tdp_w = desc.tdp_w;
	}
	if (dl_platgen_check(&g)) {
		ret = DL_EXIT_USAGE;
		goto out;
	}
	if (dl_outfile_open(&out, output, "-o"))
		goto out;
	if (dl_platgen_write(&g, out.f)) {
		dl_outfile_abort(&out);
		goto out;
	}
	if (dl_outfile_commit(&out))
		goto out;
	/* The written stream may not be seekable: the file's size says. */
	bytes = output && stat(output, &st) == 0 ? (long)st.st_size : -1;
	/* Written to a file: say what is there, on stderr with the other
	 * messages (standard output may be closed or piped). */
	if (output && strcmp(output, "-") != 0 && g.nodes > 0)
		dl_note("platform: wrote %s: %s, %d system nodes of %d devices, %ld bytes", output,
			dl_topology_name(t), g.nodes, DL_NODE_DEVICES, bytes);
	else if (output && strcmp(output, "-") != 0)
		dl_note("platform: wrote %s: %s, %d device%s, %ld bytes", output,
			dl_topology_name(t), g.devices, g.devices == 1 ? "" : "s", bytes);
	ret = DL_EXIT_OK;
out:
	dl_devfile_free(&dprops);
	return ret;
}
