/* SPDX-License-Identifier: MIT */
/*
 * Replaying a request stream on a device as DRAMsim3's trace CPU does: in
 * order, each request handed over at its cycle or, when its queue is full,
 * as soon as there is room, at most one per cycle.  The stream comes from
 * a trace file (one request per line, DRAMsim3's format: `ADDRESS OP CYCLE`,
 * docs/memdev.md) read as it goes, or from a generator.
 */
#ifndef DL_MEMDEV_TRACE_H
#define DL_MEMDEV_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "memdev.h"

/* One request of the stream: 1 produced, 0 at the end, -1 after a message. */
typedef int (*memdev_source_fn)(void *arg, struct memdev_req *r, int64_t *cycle);

/* Replay until the stream ends and every request completed, or until
 * cycle `stop` (0: no limit); -1 after a message if the source failed or
 * gave a request the device cannot take (memdev_place).  *end is the
 * number of cycles done (memdev_stats_cycles). */
int memdev_replay(struct memdev *d, memdev_source_fn next, void *arg, int64_t stop,
		  int64_t *end);

/* A trace file as a source. */
struct memdev_trace {
	FILE *f;
	const char *path;
	long line;
	int64_t last;		/* cycles never go back */
	const struct memdev *d;
	char *buf;		/* the file read in blocks: buf[pos, len) unread */
	size_t pos, len;
	bool eof;		/* nothing more to read after buf[len] */
	int err;		/* errno of a failed read, 0 at the end of the file */
};

int memdev_trace_open(struct memdev_trace *t, const char *path, const struct memdev *d);
void memdev_trace_close(struct memdev_trace *t);
int memdev_trace_next(void *trace, struct memdev_req *r, int64_t *cycle);

#endif
