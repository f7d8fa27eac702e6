/* SPDX-License-Identifier: MIT */
/*
 * Inside the workload reader: a layer as one parsed line (kind, name,
 * key=value pairs), which the .dnn reader tokenizes from its text and the
 * SCALE-Sim topology reader (topology_csv.c) builds from a CSV row, so
 * that both formats go through the same shape rules and checks.
 */
#ifndef MC_WORKLOAD_READER_H
#define MC_WORKLOAD_READER_H

#include <stdbool.h>

#include "lib/lines.h"

struct mc_workload;

#define MC_LINE_KEYS 16

struct mc_line {
	const char *file;
	int no;
	char *word[2 + MC_LINE_KEYS];	/* kind, name */
	int nwords;
	char *key[MC_LINE_KEYS], *val[MC_LINE_KEYS];
	bool used[MC_LINE_KEYS];
	int nkeys;
};

/* Growing list of layers being read. */
struct mc_reader {
	struct mc_workload *w;
	int cap;
};

int mc_line_err(const struct mc_line *ln, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Shape, check and append the layer of `ln`. */
int mc_reader_add(struct mc_reader *r, struct mc_line *ln);

/* Read the layers of a .dnn file whose first line `first` was read
 * (workload.c). */
int mc_dnn_read(struct mc_reader *r, struct dl_lines *in, char *first);

/* Is the first line of a file a SCALE-Sim topology header (its first
 * column "Layer" or "Layer name")? */
bool mc_csv_is_header(const char *text);
/* Read a SCALE-Sim topology whose header `header` (line 1) was read
 * (topology_csv.c). */
int mc_csv_read(struct mc_reader *r, struct dl_lines *in, char *header);

#endif
