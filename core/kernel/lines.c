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

int dl_lines_next(struct dl_lines *l, char **text)
{
	ssize_t n;

	errno = 0;
	n = getline(&l->buf, &l->cap, l->f);
	if (n < 0) {
		if (ferror(l->f))
			return dl_err("%s: read error: %s", l->file, strerror(errno ? errno : EIO));
		return 0;
	}
	l->no++;
	if (n > 0 && l->buf[n - 1] == '\n')
		l->buf[--n] = '\0';
	if (n > 0 && l->buf[n - 1] == '\r')
		l->buf[--n] = '\0';
	for (ssize_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)l->buf[i];

		if (c == '\0')
			return dl_err("%s:%d: a NUL byte: not a text file", l->file, l->no);
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return dl_err("%s:%d: control character 0x%02x: not a text file", l->file,
				      l->no, c);
	}
	if ((size_t)n > l->max)
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
