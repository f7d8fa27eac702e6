/* SPDX-License-Identifier: MIT */
/*
 * Reading a text input file line by line (workloads and other line-based
 * formats): each line whole, its number for messages, and the checks
 * every such reader needs: a line too long, a NUL byte or another control
 * character (a binary file) is one "file:line: ..." message.
 */
#ifndef DL_LINES_H
#define DL_LINES_H

#include <stddef.h>
#include <stdio.h>

struct dl_lines {
	const char *file;
	FILE *f;
	int no;			/* number of the line returned last */
	size_t max;		/* longest line accepted, newline excluded */
	char *buf;
	size_t cap;
};

/* Open `file`; `max` characters a line at most.  Reports failure as
 * "<what> <file>: <why>" (what e.g. "workload"). */
int dl_lines_open(struct dl_lines *l, const char *file, size_t max, const char *what);
/* 1 and the line in *text (its newline removed; valid until the next
 * call), 0 at the end, -1 on a bad line or a read error (reported). */
int dl_lines_next(struct dl_lines *l, char **text);
void dl_lines_close(struct dl_lines *l);

#endif
