/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"

int dl_lines_open(struct dl_lines *l, const char *file, size_t max, const char *what)
{
	struct stat st;

	memset(l, 0, sizeof(*l));
	l->file = file;
	l->max = max;
	l->f = fopen(file, "r");
	if (!l->f)
		return dl_err("%s %s: %s", what, file, strerror(errno));
	if (fstat(fileno(l->f), &st) == 0 && S_ISDIR(st.st_mode)) {
		dl_lines_close(l);
		return dl_err("%s %s: is a directory", what, file);
	}
	return 0;
}

/*
 * Read at most max + 2 characters of a line (max, a CR before the newline,
 * one more to know it is too long), so that an input without newlines (a
 * device such as /dev/zero, a huge binary) costs max bytes, not all the
 * memory there is.
 */
static int read_bounded(struct dl_lines *l, size_t *len)
{
	size_t n = 0, limit = l->max + 2;
	int c = 0;

	if (!l->buf) {
		l->cap = limit + 1;
		l->buf = malloc(l->cap);
		if (!l->buf)
			return dl_err("%s: out of memory", l->file);
	}
	errno = 0;
	while (n < limit && (c = getc_unlocked(l->f)) != EOF && c != '\n')
		l->buf[n++] = (char)c;
	if (c == EOF && n == 0) {
		if (ferror(l->f))
			return dl_err("%s: read error: %s", l->file, strerror(errno ? errno : EIO));
		return 0;
	}
	l->buf[n] = '\0';
	*len = n;
	return 1;
}

int dl_lines_next(struct dl_lines *l, char **text)
{
	size_t n = 0;
	int got = read_bounded(l, &n);

	if (got <= 0)
		return got;
	l->no++;
	if (n > 0 && n <= l->max + 1 && l->buf[n - 1] == '\r')
		l->buf[--n] = '\0';
	/* A line cut at the bound is too long whatever follows: its first
	 * max + 1 characters say whether it is text. */
	for (size_t i = 0; i < n && i <= l->max; i++) {
		unsigned char c = (unsigned char)l->buf[i];

		if (c == '\0')
			return dl_err("%s:%d: a NUL byte: not a text file", l->file, l->no);
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return dl_err("%s:%d: control character 0x%02x: not a text file", l->file,
				      l->no, c);
	}
	if (n > l->max)
		return dl_err("%s:%d: line longer than %zu characters", l->file, l->no, l->max);
	*text = l->buf;
	return 1;
}

void dl_lines_close(struct dl_lines *l)
{
	if (l->f)
		fclose(l->f);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}
