/* SPDX-License-Identifier: MIT */
/*
 * Device files (docs/devices.md): a <device> element holding the <prop>
 * elements a device host carries, checked as the platform reader checks
 * a platform (the same scanner, then libxml2).
 */
#include "devdesc.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "lib/datadir.h"
#include "lib/diag.h"
#include "lib/grow.h"

#include "platform.h"
#include "platform_parts.h"
#include "xmlscan.h"

#define DEVFILE_MAX_BYTES (1 << 20)
#define DEVICES_DIR "platforms/devices"

void dl_devfile_free(struct dl_props *props)
{
	for (int i = 0; i < props->n; i++) {
		free(props->v[i].key);
		free(props->v[i].value);
	}
	free(props->v);
	props->v = NULL;
	props->n = 0;
}

static int slurp(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	int ret = -1;

	*buf = NULL;
	if (!f)
		return dl_err("%s: cannot open device description: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > DEVFILE_MAX_BYTES) {
		dl_err("%s: not a regular file of at most 1 MiB", path);
		goto out;
	}
	*len = (size_t)st.st_size;
	if (!(*buf = malloc(*len + 1)) || fread(*buf, 1, *len, f) != *len) {
		dl_err("%s: cannot read device description", path);
		goto out;
	}
	(*buf)[*len] = '\0';
	ret = 0;
out:
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	fclose(f);
	return ret;
}

static int add_prop(struct dl_props *props, int *cap, const char *key, const char *value)
{
	struct dl_prop *p;

	if (dl_grow((void **)&props->v, cap, props->n + 1, sizeof(*props->v)))
		return dl_err("out of memory");
	p = &props->v[props->n];
	p->key = strdup(key);
	p->value = strdup(value);
	if (!p->key || !p->value) {
		free(p->key);
		free(p->value);
		return dl_err("out of memory");
	}
	props->n++;
	return 0;
}

static bool device_key(const char *key)
{
	return strncmp(key, DL_DEVDESC_PREFIX, strlen(DL_DEVDESC_PREFIX)) == 0 ||
	       strcmp(key, "dlasim.tdp") == 0;
}

/* The <prop id= value=> children of the root <device>. */
static int read_props(const char *path, xmlNode *root, struct dl_props *props)
{
	int cap = 0;

	if (!root || xmlStrcmp(root->name, BAD_CAST "device"))
		return dl_err("%s:%ld: the root element is not <device> (docs/devices.md)", path,
			      root ? xmlGetLineNo(root) : 1L);
	for (xmlNode *n = root->children; n; n = n->next) {
		xmlChar *id, *value;
		int bad;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (xmlStrcmp(n->name, BAD_CAST "prop"))
			return dl_err("%s:%ld: <%s>: a device holds only <prop> elements", path,
				      xmlGetLineNo(n), (const char *)n->name);
		id = xmlGetProp(n, BAD_CAST "id");
		value = xmlGetProp(n, BAD_CAST "value");
		bad = !id || !value ? dl_err("%s:%ld: <prop> without id or value", path, xmlGetLineNo(n)) :
		      !device_key((const char *)id) ?
		      dl_err("%s:%ld: %s: a device file holds dlasim.device.* fields and dlasim.tdp only",
			     path, xmlGetLineNo(n), (const char *)id) :
		      dl_props_get(props, (const char *)id) ?
		      dl_err("%s:%ld: %s given twice", path, xmlGetLineNo(n), (const char *)id) :
		      add_prop(props, &cap, (const char *)id, (const char *)value);
		xmlFree(id);
		xmlFree(value);
		if (bad)
			return -1;
	}
	return 0;
}

static int parse(const char *path, struct dl_props *props)
{
	xmlDoc *doc = NULL;
	char *buf = NULL;
	const char *why;
	size_t len = 0;
	int line, ret = -1;

	if (slurp(path, &buf, &len))
		return -1;
	if ((why = dl_xml_scan(buf, len, &line))) {
		dl_err("%s:%d: %s", path, line, why);
		goto out;
	}
	doc = xmlReadMemory(buf, (int)len, path, NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (!doc) {
		dl_err("%s: malformed XML", path);
		goto out;
	}
	ret = read_props(path, xmlDocGetRootElement(doc), props);
out:
	xmlFreeDoc(doc);
	free(buf);
	return ret;
}

static const char *const devfile_exts[] = { ".xml", NULL };

int dl_devfile_read(const char *name, struct dl_props *props, char **path,
		    struct dl_devdesc *d)
{
	char buf[PATH_MAX];
	const char *file = dl_data_find(DEVICES_DIR, name, devfile_exts, buf, sizeof(buf));
	struct stat st;

	props->v = NULL;
	props->n = 0;
	if (path)
		*path = NULL;
	if (file == name && !strchr(name, '/') && stat(name, &st) != 0)
		return dl_err("device '%s': no such description (dlasim platform --list-devices; or a file)",
			      name);
	if (parse(file, props) || dl_devdesc_from_props(d, props, 0, file))
		goto fail;
	if (path && !(*path = strdup(file))) {
		dl_err("out of memory");
		goto fail;
	}
	return 0;
fail:
	dl_devfile_free(props);
	return -1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int dl_devfile_list(char ***names, int *n)
{
	char dir[PATH_MAX];
	struct dirent *e;
	int cap = 0;
	DIR *d;

	*names = NULL;
	*n = 0;
	if (!(d = opendir(dl_data_dir(DEVICES_DIR, dir, sizeof(dir)))))
		return dl_err("%s: cannot open the shipped device descriptions: %s", dir,
			      strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len <= 4 || strcmp(e->d_name + len - 4, ".xml"))
			continue;
		if (dl_grow((void **)names, &cap, *n + 1, sizeof(**names)) ||
		    !((*names)[*n] = strndup(e->d_name, len - 4))) {
			closedir(d);
			return dl_err("out of memory");
		}
		(*n)++;
	}
	closedir(d);
	qsort(*names, *n, sizeof(**names), by_name);
	return 0;
}
