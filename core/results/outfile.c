/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/diag.h"

static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

static int open_in_place(struct dl_outfile *o)
{
	int fd = open(o->path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return dl_err("%s %s: cannot open: %s", o->what, o->path, strerror(errno));
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		return dl_err("%s %s: out of memory", o->what, o->path);
	}
	return 0;
}

static int open_temporary(struct dl_outfile *o, mode_t mode)
{
	int fd;

	if (asprintf(&o->tmp, "%s.tmp.XXXXXX", o->path) < 0) {
		o->tmp = NULL;
		return dl_err("%s %s: out of memory", o->what, o->path);
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0)
		return dl_err("%s %s: cannot create: %s", o->what, o->path, strerror(errno));
	if (dl_cleanup_add_path(o->tmp) || fchmod(fd, mode) != 0) {
		close(fd);
		unlink(o->tmp);
		dl_cleanup_forget_path(o->tmp);
		return dl_err("%s %s: cannot create: %s", o->what, o->path, strerror(errno));
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		dl_cleanup_forget_path(o->tmp);
		return dl_err("%s %s: out of memory", o->what, o->path);
	}
	return 0;
}

static void release(struct dl_outfile *o)
{
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

int dl_outfile_open(struct dl_outfile *o, const char *path, const char *what)
{
	char real[PATH_MAX];
	struct stat st, lst;
	mode_t mode;

	memset(o, 0, sizeof(*o));
	o->what = what;
	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	if (!*path)
		return dl_err("%s '': an empty file name", what);
	/* A link to a regular file: replace the file, keep the link. */
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode) && realpath(path, real))
		path = real;
	o->path = strdup(path);
	if (!o->path)
		return dl_err("%s %s: out of memory", what, path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		dl_err("%s %s: is a directory", what, path);
		goto fail;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (open_in_place(o))
			goto fail;
		return 0;
	}
	mode = stat(path, &st) == 0 ? st.st_mode & 07777 : new_file_mode();
	if (open_temporary(o, mode))
		goto fail;
	return 0;
fail:
	release(o);
	return -1;
}

/* The rename is on disk once the directory is. */
static void sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd = copy ? open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int dl_outfile_commit(struct dl_outfile *o)
{
	int ret = 0, err = 0;

	if (!o->path)
		return 0;	/* standard output: checked at exit */
	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		err = errno ? errno : EIO;
	if (!err && o->tmp && fsync(fileno(o->f)) != 0)
		err = errno;
	if (fclose(o->f) != 0 && !err)
		err = errno;
	if (err) {
		ret = dl_err("%s %s: write failed: %s", o->what, o->path, strerror(err));
	} else if (o->tmp && rename(o->tmp, o->path) != 0) {
		ret = dl_err("%s %s: %s", o->what, o->path, strerror(errno));
	} else if (o->tmp) {
		sync_dir(o->path);
		dl_cleanup_forget_path(o->tmp);
		release(o);
		return 0;
	}
	if (o->tmp) {
		unlink(o->tmp);
		dl_cleanup_forget_path(o->tmp);
	}
	release(o);
	return ret;
}

void dl_outfile_abort(struct dl_outfile *o)
{
	if (!o->path)
		return;
	fclose(o->f);
	if (o->tmp) {
		unlink(o->tmp);
		dl_cleanup_forget_path(o->tmp);
	}
	release(o);
}
