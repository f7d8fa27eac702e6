/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

#define MAX_OPEN 16

static struct dl_outfile *open_files[MAX_OPEN];

static void track(struct dl_outfile *o, int on)
{
	for (int i = 0; i < MAX_OPEN; i++) {
		if (on && !open_files[i]) {
			open_files[i] = o;
			return;
		}
		if (!on && open_files[i] == o) {
			open_files[i] = NULL;
			return;
		}
	}
}

int dl_outfile_open(struct dl_outfile *o, const char *path, const char *what)
{
	int fd;

	memset(o, 0, sizeof(*o));
	o->what = what;
	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	o->path = strdup(path);
	if (!o->path || asprintf(&o->tmp, "%s.tmp.XXXXXX", path) < 0)
		goto fail_alloc;
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		dl_err("%s %s: cannot create: %s", what, path, strerror(errno));
		goto fail;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		goto fail_alloc;
	}
	track(o, 1);
	return 0;

fail_alloc:
	dl_err("%s %s: out of memory", what, path);
fail:
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return -1;
}

int dl_outfile_commit(struct dl_outfile *o)
{
	int ret = 0;

	if (!o->path) {
		if (fflush(stdout) != 0)
			ret = dl_err("writing standard output: %s", strerror(errno));
		return ret;
	}
	track(o, 0);
	if (ferror(o->f) | fclose(o->f)) {
		ret = dl_err("%s %s: write failed: %s", o->what, o->path, strerror(errno));
		unlink(o->tmp);
	} else if (rename(o->tmp, o->path) != 0) {
		ret = dl_err("%s %s: %s", o->what, o->path, strerror(errno));
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return ret;
}

void dl_outfile_abort(struct dl_outfile *o)
{
	if (!o->path)
		return;
	track(o, 0);
	fclose(o->f);
	unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

void dl_outfile_abort_all(void)
{
	for (int i = 0; i < MAX_OPEN; i++)
		if (open_files[i])
			dl_outfile_abort(open_files[i]);
}
