/* SPDX-License-Identifier: MIT */
#include "cluster.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

#define MAX_HOSTS (1L << 20)

static char why_buf[512];

static const char *attr(xmlNode *n, const char *name)
{
	xmlAttr *a = xmlHasProp(n, (const xmlChar *)name);

	return a && a->children ? (const char *)a->children->content : NULL;
}

static const char *say(const char *fmt, const char *a, const char *b)
{
	snprintf(why_buf, sizeof(why_buf), fmt, a, b);
	return why_buf;
}

static bool one_of(const char *v, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(v, *list) == 0)
			return true;
	return false;
}

/* "0-7,9,12-15": ranges and numbers, in order. */
static const char *read_radical(const char *s, struct dl_cluster *c)
{
	char *copy = strdup(s), *save = NULL;
	long cap = 0;

	if (!copy)
		return "out of memory";
	for (char *part = strtok_r(copy, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(part + 1, '-'), *end;
		long a = strtol(part, &end, 10), b = a;

		if (end == part || (dash ? end != dash : *end) || a < 0)
			goto bad;
		if (dash && ((b = strtol(dash + 1, &end, 10)), *end || end == dash + 1 || b < a))
			goto bad;
		/* a <= b, both >= 0: b - a cannot overflow, b - a + 1 can */
		if (b - a >= MAX_HOSTS - c->nhosts) {
			free(copy);
			return "radical: more than 2^20 hosts";
		}
		if (c->nhosts + (b - a + 1) > cap) {
			long *nv = realloc(c->number, (cap = c->nhosts + (b - a + 1) + cap) * sizeof(long));

			if (!nv) {
				free(copy);
				return "out of memory";
			}
			c->number = nv;
		}
		for (long x = a; x <= b; x++)
			c->number[c->nhosts++] = x;
	}
	free(copy);
	return c->nhosts ? NULL : say("radical '%s': no host%s", s, "");
bad:
	free(copy);
	return say("radical '%s': not numbers and ranges like \"0-7,9\"%s", s, "");
}

/* Positive integers separated by `sep`; their count and product. */
static bool int_list(const char *s, char sep, long *count, long *product)
{
	const char *p = s;

	*count = 0;
	*product = 1;
	for (;;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v < 1 || v > MAX_HOSTS)
			return false;
		(*count)++;
		*product = *product > MAX_HOSTS ? *product : *product * v;
		if (*end == '\0')
			return true;
		if (*end != sep)
			return false;
		p = end + 1;
	}
}

/* TORUS "d1,d2,...": the hosts fill the grid. */
static long torus_hosts(const char *s)
{
	long n, prod;

	return int_list(s, ',', &n, &prod) ? prod : -1;
}

/* FAT_TREE "L;m1,...,mL;w1,...,wL;p1,...,pL": hosts = product of the m. */
static long fat_tree_hosts(const char *s)
{
	char buf[512], *part[4], *save = NULL;
	long levels, n, prod, hosts = -1;
	int k = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ";", &save); t && k < 4; t = strtok_r(NULL, ";", &save))
		part[k++] = t;
	if (k != 4 || strtok_r(NULL, ";", &save) || !int_list(part[0], ',', &n, &levels) || n != 1)
		return -1;
	for (int i = 1; i < 4; i++) {
		if (!int_list(part[i], ',', &n, &prod) || n != levels)
			return -1;
		if (i == 1)
			hosts = prod;
	}
	return hosts;
}

/*
 * DRAGONFLY "groups,links;chassis,links;routers,links;nodes".  SimGrid
 * 3.32 leaves a hole in the route between two groups (and crashes on
 * it) unless every chassis has at least as many routers as there are
 * groups: found by routing every pair of hosts for groups 1 to 4, chassis
 * and routers 1 to 3; *ok tells.
 */
static long dragonfly_hosts(const char *s, bool *ok)
{
	char buf[512], *part[4], *save = NULL;
	long hosts = 1, n, prod;
	int k = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ";", &save); t && k < 4; t = strtok_r(NULL, ";", &save))
		part[k++] = t;
	if (k != 4 || strtok_r(NULL, ";", &save))
		return -1;
	for (int i = 0; i < 4; i++) {
		char *comma = strchr(part[i], ',');

		if ((i < 3) != (comma != NULL) || !int_list(part[i], ',', &n, &prod) || n != (i < 3 ? 2 : 1))
			return -1;
		hosts *= i < 3 ? strtol(part[i], NULL, 10) : prod;
	}
	*ok = strtol(part[0], NULL, 10) == 1 || strtol(part[2], NULL, 10) >= strtol(part[0], NULL, 10);
	return hosts;
}

static const char *read_topology(xmlNode *n, struct dl_cluster *c)
{
	static const char *const topologies[] = { "FLAT", "TORUS", "FAT_TREE", "DRAGONFLY", NULL };
	static const char *const formats[] = {
		NULL, "\"d1,d2,...\"", "\"levels;downs;ups;parallel links\" (e.g. \"2;4,4;1,2;1,2\")",
		"\"groups,links;chassis,links;routers,links;nodes\" (e.g. \"2,1;2,1;2,1;2\")",
	};
	const char *t = attr(n, "topology"), *params = attr(n, "topo_parameters");
	bool routable = true;
	char count[64];
	long hosts;
	int k;

	if (!t || strcmp(t, "FLAT") == 0) {
		if (params)
			return "topo_parameters: only a TORUS, FAT_TREE or DRAGONFLY takes them";
		return NULL;
	}
	if (!one_of(t, topologies))
		return say("topology '%s' is not FLAT, TORUS, FAT_TREE or DRAGONFLY%s", t, "");
	for (k = 0; strcmp(topologies[k], t); k++)
		;
	c->topology = (enum dl_cluster_topology)k;
	if (attr(n, "bb_bw") || attr(n, "bb_lat") || attr(n, "bb_sharing_policy"))
		return say("topology %s: a backbone (bb_bw, bb_lat) belongs to a FLAT cluster%s", t, "");
	if (!params)
		return say("topology %s needs topo_parameters %s", t, formats[k]);
	hosts = k == 1 ? torus_hosts(params) : k == 2 ? fat_tree_hosts(params) :
		dragonfly_hosts(params, &routable);
	if (hosts < 0)
		return say("topo_parameters '%s' are not %s", params, formats[k]);
	if (!routable)
		return say("topo_parameters '%s': SimGrid 3.32 routes a dragonfly only with at least as many routers per chassis as groups%s",
			   params, "");
	if (hosts != c->nhosts) {
		snprintf(count, sizeof(count), "%ld hosts, the radical names %ld", hosts, c->nhosts);
		return say("topo_parameters '%s' place %s", params, count);
	}
	return NULL;
}

/* A SimGrid quantity attribute, if present, must parse. */
static const char *check_unit(xmlNode *n, const char *name,
			      const char *(*parse)(const char *, double *))
{
	const char *v = attr(n, name), *why;
	double x;

	if (!v || !(why = parse(v, &x)))
		return NULL;
	snprintf(why_buf, sizeof(why_buf), "%s '%s': %s", name, v, why);
	return why_buf;
}

const char *dl_cluster_read(xmlNode *n, struct dl_cluster *c)
{
	static const char *const sharing[] = { "SHARED", "SPLITDUPLEX", "FATPIPE", NULL };
	static const char *const bb_sharing[] = { "SHARED", "FATPIPE", NULL };
	static const char *const required[] = { "id", "prefix", "suffix", "radical", "speed", "bw", "lat", NULL };
	static const char *const bandwidths[] = { "bw", "bb_bw", "loopback_bw", "limiter_link", NULL };
	static const char *const times[] = { "lat", "bb_lat", "loopback_lat", NULL };
	const char *why, *v;
	long cores;

	memset(c, 0, sizeof(*c));
	for (const char *const *k = required; *k; k++)
		if (!attr(n, *k))
			return say("<cluster> needs attribute %s%s", *k, "");
	c->id = attr(n, "id");
	c->prefix = attr(n, "prefix");
	c->suffix = attr(n, "suffix");
	if ((why = read_radical(attr(n, "radical"), c)))
		return why;
	if ((why = dl_parse_sg_speed(attr(n, "speed"), &c->speed)))
		return say("speed '%s': %s", attr(n, "speed"), why);
	if ((v = attr(n, "core")) && dl_parse_int(v, 1, 1 << 20, &cores))
		return say("core '%s': not an integer from 1%s", v, "");
	for (const char *const *k = bandwidths; *k; k++)
		if ((why = check_unit(n, *k, dl_parse_sg_bandwidth)))
			return why;
	for (const char *const *k = times; *k; k++)
		if ((why = check_unit(n, *k, dl_parse_sg_time)))
			return why;
	if ((v = attr(n, "sharing_policy")) && !one_of(v, sharing))
		return say("sharing_policy '%s' is not SHARED, SPLITDUPLEX or FATPIPE%s", v, "");
	if ((v = attr(n, "bb_sharing_policy")) && !one_of(v, bb_sharing))
		return say("bb_sharing_policy '%s' is not SHARED or FATPIPE%s", v, "");
	if ((attr(n, "bb_lat") || attr(n, "bb_sharing_policy")) && !attr(n, "bb_bw"))
		return "a backbone needs bb_bw";
	if ((why = read_topology(n, c)))
		return why;
	if (c->topology != DL_FLAT)
		c->router[0] = '\0';	/* SimGrid 3.32 makes none */
	else if ((v = attr(n, "router_id")) && *v)
		snprintf(c->router, sizeof(c->router), "%s", v);
	else
		snprintf(c->router, sizeof(c->router), "%s%s_router%s", c->prefix, c->id, c->suffix);
	return NULL;
}

void dl_cluster_free(struct dl_cluster *c)
{
	free(c->number);
	c->number = NULL;
	c->nhosts = 0;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool dl_cluster_link_name(const char *id, enum dl_cluster_topology topology, const char *name)
{
	static const char *const dragonfly[] = {
		"black_link_", "blue_link_", "green_link_", "local_link_", NULL,
	};
	size_t len = strlen(id);

	if (strncmp(name, id, len) == 0 && (starts(name + len, "_link_") || !strcmp(name + len, "_backbone")))
		return true;
	if (topology == DL_FAT_TREE)
		return starts(name, "link_from_");
	for (const char *const *k = dragonfly; topology == DL_DRAGONFLY && *k; k++)
		if (starts(name, *k))
			return true;
	return false;
}
