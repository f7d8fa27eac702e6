/* SPDX-License-Identifier: MIT */
/*
 * Reading a workload file: a .dnn (workload.c) or, recognised by its
 * first line, a SCALE-Sim topology CSV (topology_csv.c), into one list of
 * layers (docs/workloads.md).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "reader.h"
#include "workload.h"

#define MAX_LINE 4094

static int read_layers(struct mc_workload *w, struct dl_lines *in)
{
	struct mc_reader r = { .w = w };
	char *first;
	int rc = dl_lines_next(in, &first);

	if (rc > 0)
		{
		w->format = mc_csv_is_header(first) ? "scalesim-csv" : "dnn";
		rc = mc_csv_is_header(first) ? mc_csv_read(&r, in, first) : mc_dnn_read(&r, in, first);
	}
	if (rc < 0)
		return -1;
	if (w->nlayers < 2)
		return dl_err("%s: no layers (an 'input' and at least one more are needed)", w->file);
	return 0;
}

int mc_workload_read(struct mc_workload **out, const char *file)
{
	struct mc_workload *w = calloc(1, sizeof(*w));
	struct dl_lines in = { 0 };
	int ret = -1;

	*out = NULL;
	if (!w || !(w->file = strdup(file))) {
		free(w);
		return dl_err("out of memory");
	}
	dl_strmap_init(&w->by_name);
	w->dtype = DL_FP32;
	w->elem_bytes = dl_dtype_bytes(DL_FP32);
	if (dl_lines_open(&in, file, MAX_LINE, "workload") || read_layers(w, &in))
		goto out;
	if (!w->name && !(w->name = strdup(w->layer[0].name))) {
		dl_err("out of memory");
		goto out;
	}
	*out = w;
	ret = 0;
out:
	dl_lines_close(&in);
	if (ret)
		mc_workload_free(w);
	return ret;
}
