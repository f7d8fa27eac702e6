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
#include "lib/checked.h"
#include "lib/diag.h"
#include "lib/grow.h"

struct input {
	dev_t dev;
	ino_t ino;
};

/* Files the run reads that no command-line word names. */
static struct input *inputs;
static int ninputs, capinputs;

int dl_outfile_reads(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if (dl_grow((void **)&inputs, &capinputs, ninputs + 1, sizeof(*inputs)))
		return dl_err("out of memory");
	inputs[ninputs].dev = st.st_dev;
	inputs[ninputs++].ino = st.st_ino;
	return 0;
}

static bool same_file(const char *path, const struct stat *out)
{
	struct stat st;

	return *path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == out->st_dev &&
	       st.st_ino == out->st_ino;
}

/* The command line as the process was started (getopt moves argv's
 * pointers, not the strings): "a\0b\0...". */
static char *command_line(size_t *len)
{
	static char buf[1 << 16];
	static size_t n;
	static bool read_once;
	FILE *f;

	if (!read_once) {
		read_once = true;
		f = fopen("/proc/self/cmdline", "r");
		if (f) {
			n = fread(buf, 1, sizeof(buf) - 1, f);
			fclose(f);
		}
		buf[n] = '\0';
	}
	*len = n;
	return buf;
}

/*
 * How many words of the command line name the file `out` is (a word, or
 * the value of "--opt=value"); `other` is set to one of them that is not
 * the string `path` (else to `path`).
 */
static int words_naming(const char *path, const struct stat *out, const char **other)
{
	size_t len;
	char *line = command_line(&len), *end = line + len;
	const char *arg = line, *value;
	int n = 0;

	*other = path;
	for (arg += strlen(arg) + 1; arg < end; arg += strlen(arg) + 1) {
		value = arg[0] == '-' && strchr(arg, '=') ? strchr(arg, '=') + 1 : arg;
		if (!same_file(value, out))
			continue;
		n++;
		if (strcmp(value, path) != 0)
			*other = arg;
	}
	return n;
}

/* Refuse to write onto a file this run reads. */
static int check_not_input(const char *path, const char *what)
{
	struct stat out;
	const char *word;

	if (stat(path, &out) != 0 || !S_ISREG(out.st_mode))
		return 0;
	for (int i = 0; i < ninputs; i++)
		if (inputs[i].dev == out.st_dev && inputs[i].ino == out.st_ino)
			return dl_err("%s %s: this run reads that file: write the output elsewhere",
				      what, path);
	/* An option's output is one of those words, a role's ("run list")
	 * none. */
	if (words_naming(path, &out, &word) > (what[0] == '-'))
		return dl_err("%s %s: the same file as '%s' on the command line: write the output elsewhere",
			      what, path, word);
	return 0;
}

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
	o->fd = fd;
	o->f = dl_checked_fdopen(fd, &o->err);
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
	o->fd = fd;
	o->f = dl_checked_fdopen(fd, &o->err);
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
	if (check_not_input(path, what))
		return -1;
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

int dl_outfile_open_results(struct dl_outfile *o, const char *dir)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/results.json", dir);
	return dl_outfile_open(o, path, "--plot");
}

int dl_outfile_commit(struct dl_outfile *o)
{
	int ret = 0, err;
	bool failed;

	if (!o->path)
		return 0;	/* standard output: checked at exit */
	failed = fflush(o->f) != 0 || ferror(o->f);
	if (!failed && o->tmp && fsync(o->fd) != 0)
		o->err = errno;
	fclose(o->f);	/* a failed close is in o->err */
	err = o->err ? o->err : failed ? EIO : 0;
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
