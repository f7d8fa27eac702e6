/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: networks as the NNA study reads them (nna/net.c: the
 * .dnn reader, then fusion), and for those accepted the tiling, the
 * steps of the shipped dataflows ws and arai (nna/schedule.c, which
 * checks that a plugin neither skips nor repeats work) and the traffic
 * count (nna/traffic.c).  The plugins are the plain build's
 * (build/plugins), set in DLASIM_PLUGIN_PATH.
 */
#include "fuzz.h"

#include "plugin/plugin.h"
#include "nna/schedule.h"
#include "nna/traffic.h"

/* Table 5.3's array and scratchpad; the step count is capped so that a
 * 2^20-row layer does not only slow the search down. */
static const struct nna_array array32 = { 32, 2 << 20, 1, 8, 1024 };
#define MAX_FUZZ_STEPS 200000

static struct dl_plugin *dataflow[2];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const names[] = { "ws", "arai" };

	if (!getenv("DLASIM_PLUGIN_PATH"))
		setenv("DLASIM_PLUGIN_PATH", "build/plugins", 1);
	dl_host_api.dataflow = &nna_dataflow_services;
	for (int i = 0; i < 2; i++)
		if (dl_plugin_open(&dataflow[i], DLASIM_KIND_DATAFLOW, names[i], "--dataflow",
				   nna_dataflow_ops_check) != 0)
			abort();	/* the target itself is broken */
	return 0;
}

static long total_steps(const struct nna_tiles *x)
{
	long n = 0;

	for (int l = 0; l < x->net->nlayers; l++)
		n += x->t[l].nsteps;
	return n;
}

static void count(const struct nna_tiles *x, const struct dl_plugin *df)
{
	struct nna_traffic *per_layer, sum;
	struct nna_schedule s;

	if (nna_schedule_build(&s, x, df) != 0)
		return;
	per_layer = calloc((size_t)x->net->nlayers, sizeof(*per_layer));
	if (per_layer)
		nna_traffic_count(x, &s, per_layer, &sum);
	free(per_layer);
	nna_schedule_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nna_net net;
	struct nna_tiles x;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	memset(&net, 0, sizeof(net));
	if (nna_net_read(&net, path) == 0) {
		if (nna_tiles_build(&x, &net, &array32) == 0) {
			if (total_steps(&x) <= MAX_FUZZ_STEPS)
				for (int i = 0; i < 2; i++)
					count(&x, dataflow[i]);
			nna_tiles_free(&x);
		}
	}
	nna_net_free(&net);
	close(fd);
	return 0;
}
