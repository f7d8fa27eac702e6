/* SPDX-License-Identifier: MIT */
#include "datadir.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *dl_data_dir(const char *name, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	snprintf(buf, len, "%s", name);
	if (n <= 0)
		return buf;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(buf, len, "%s/../share/dlasim/%s", exe, name);
	if (is_dir(buf))
		return buf;
	snprintf(buf, len, "%s/../%s", exe, name);
	return buf;
}

const char *const dl_platform_exts[] = { ".xml", NULL };
const char *const dl_workload_exts[] = { ".dnn", ".tm", ".et", NULL };

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* DIR/name, then DIR/name + each extension. */
static bool find_in(const char *dir, const char *name, const char *const *exts, char *buf,
		    size_t len)
{
	snprintf(buf, len, "%s/%s", dir, name);
	if (exists(buf))
		return true;
	for (int i = 0; exts && exts[i]; i++) {
		snprintf(buf, len, "%s/%s%s", dir, name, exts[i]);
		if (exists(buf))
			return true;
	}
	return false;
}

const char *dl_data_find(const char *kind, const char *name, const char *const *exts,
			 char *buf, size_t len)
{
	char dir[PATH_MAX], sub[PATH_MAX + 256];
	struct dirent *e;
	bool found = false;
	DIR *d;

	if (!name || !*name || strchr(name, '/') || exists(name))
		return name;
	dl_data_dir(kind, dir, sizeof(dir));
	if (find_in(dir, name, exts, buf, len))
		return buf;
	if (!(d = opendir(dir)))
		return name;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		found = is_dir(sub) && find_in(sub, name, exts, buf, len);
	}
	closedir(d);
	return found ? buf : name;
}
