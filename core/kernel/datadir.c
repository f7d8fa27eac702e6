/* SPDX-License-Identifier: MIT */
#include "datadir.h"

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
