/* SPDX-License-Identifier: MIT */
/*
 * The annotated copy of a SimGrid platform (`dlasim platform adopt`): the
 * file's own bytes, with the roles and the ring dlasim took them to mean
 * written out as properties for a user to edit (docs/platforms.md,
 * "SimGrid platforms as written").
 */
#include "platform_adopt.h"

#include <stdbool.h>

#include <stdio.h>
#include <string.h>

#include "lib/diag.h"
#include "platform.h"
#include "xmlscan.h"

/* A ring lists its members separated by blanks or commas. */
static bool ring_member_name(const char *name)
{
	return *name && !strpbrk(name, " \t\r\n,\"<&");
}

static int check_names(const struct dl_platform *p)
{
	for (int r = 0; p->ring_implied && r < p->ndevices; r++) {
		const char *name = p->hosts[p->devices[r]].name;

		if (!ring_member_name(name))
			return dl_err("%s: device '%s': a name with blanks, commas or quotes cannot be written in dlasim.ring.0",
				      p->file, name);
	}
	return 0;
}

static void write_ring(const struct dl_platform *p, FILE *f)
{
	fputs("\n  <prop id=\"dlasim.ring.0\" value=\"", f);
	for (int r = 0; r < p->ndevices; r++)
		fprintf(f, "%s%s", r ? " " : "", p->hosts[p->devices[r]].name);
	fputs("\"/>", f);
}

/*
 * The start tag b[start..end) of element `name` with the properties it
 * gets: an empty element <x .../> is opened and closed around them.
 */
static void write_with_props(const struct dl_platform *p, const char *b, size_t start,
			     size_t end, const char *name, bool role, bool ring, FILE *f)
{
	bool empty = b[end - 2] == '/';
	size_t open_end = empty ? end - 2 : end - 1;

	fwrite(b + start, 1, open_end - start, f);
	fputc('>', f);
	if (role)
		fputs("<prop id=\"dlasim.role\" value=\"device\"/>", f);
	if (ring)
		write_ring(p, f);
	if (empty)
		fprintf(f, "</%s>", name);
}

int dl_platform_write_adopted(const struct dl_platform *p, const char *b, size_t n, FILE *f)
{
	bool root_done = false;
	size_t i = 0, copied = 0, end;

	if (check_names(p))
		return -1;
	for (;;) {
		size_t start = dl_xml_next_start_tag(b, n, i, &end);
		bool host, cluster, zone, role, ring;

		if (start >= n)
			break;
		i = end;
		host = dl_xml_tag_is(b, start, end, "host");
		cluster = dl_xml_tag_is(b, start, end, "cluster");
		zone = dl_xml_tag_is(b, start, end, "zone");
		/* the root's properties come first in it: the ring goes there */
		ring = p->ring_implied && !root_done && (zone || cluster);
		root_done |= zone || cluster;
		role = p->roles_implied && (host || cluster);
		if (!role && !ring)
			continue;
		fwrite(b + copied, 1, start - copied, f);
		write_with_props(p, b, start, end, host ? "host" : cluster ? "cluster" : "zone",
				 role, ring, f);
		copied = end;
	}
	fwrite(b + copied, 1, n - copied, f);
	return 0;
}
