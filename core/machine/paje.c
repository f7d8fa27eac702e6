/* SPDX-License-Identifier: MIT */
#include "paje.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "lib/diag.h"

static bool is_elem(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static const char *attr(xmlNode *n, const char *name)
{
	xmlAttr *a = xmlHasProp(n, (const xmlChar *)name);

	return a && a->children ? (const char *)a->children->content : NULL;
}

static bool split_link(const struct dl_platform *p, const char *id)
{
	int i = id ? dl_strmap_get(&p->link_ids, id) : -1;

	return i >= 0 && p->links[i].sharing == DL_SPLITDUPLEX;
}

static bool is_route(const xmlNode *n)
{
	return is_elem(n, "route") || is_elem(n, "zoneRoute") || is_elem(n, "ASroute");
}

/* Does route n cross a split-duplex link and hold in both directions? */
static bool needs_reverse(const struct dl_platform *p, xmlNode *n)
{
	const char *sym = attr(n, "symmetrical");

	if (sym && (strcmp(sym, "NO") == 0 || strcmp(sym, "no") == 0))
		return false;
	for (xmlNode *c = n->children; c; c = c->next)
		if (is_elem(c, "link_ctn") && split_link(p, attr(c, "id")))
			return true;
	return false;
}

static void swap_attrs(xmlNode *n, const char *a, const char *b)
{
	char *va = attr(n, a) ? strdup(attr(n, a)) : NULL;
	char *vb = attr(n, b) ? strdup(attr(n, b)) : NULL;

	if (vb)
		xmlSetProp(n, (const xmlChar *)a, (const xmlChar *)vb);
	if (va)
		xmlSetProp(n, (const xmlChar *)b, (const xmlChar *)va);
	free(va);
	free(vb);
}

/* The reverse of route n as SimGrid derives it: ends swapped, links in
 * reverse order, each split-duplex link in its other direction. */
static int add_reverse(xmlNode *n)
{
	xmlNode *r = xmlCopyNode(n, 2), *c;

	if (!r)
		return -1;
	swap_attrs(r, "src", "dst");
	swap_attrs(r, "gw_src", "gw_dst");
	for (c = n->children; c; c = c->next) {
		xmlNode *l;
		const char *dir;

		if (!is_elem(c, "link_ctn"))
			continue;
		if (!(l = xmlCopyNode(c, 1)))
			goto fail;
		dir = attr(l, "direction");
		if (dir)
			xmlSetProp(l, (const xmlChar *)"direction",
				   (const xmlChar *)(strcmp(dir, "UP") == 0 ? "DOWN" : "UP"));
		if (r->children)
			xmlAddPrevSibling(r->children, l);
		else
			xmlAddChild(r, l);
	}
	xmlSetProp(n, (const xmlChar *)"symmetrical", (const xmlChar *)"NO");
	xmlSetProp(r, (const xmlChar *)"symmetrical", (const xmlChar *)"NO");
	if (xmlAddNextSibling(n, r))
		return 0;
fail:
	xmlFreeNode(r);
	return -1;
}

/* <link id=X SPLITDUPLEX> -> <link id=X_UP> <link id=X_DOWN>, both shared. */
static int split_declaration(xmlNode *n)
{
	char name[1024];
	xmlNode *down;

	xmlUnsetProp(n, (const xmlChar *)"sharing_policy");
	if (!(down = xmlCopyNode(n, 1)))
		return -1;
	snprintf(name, sizeof(name), "%s_DOWN", attr(n, "id"));
	xmlSetProp(down, (const xmlChar *)"id", (const xmlChar *)name);
	snprintf(name, sizeof(name), "%s_UP", attr(n, "id"));
	xmlSetProp(n, (const xmlChar *)"id", (const xmlChar *)name);
	if (xmlAddNextSibling(n, down))
		return 0;
	xmlFreeNode(down);
	return -1;
}

/* <link_ctn id=X direction=D> -> <link_ctn id=X_D>. */
static void rename_use(xmlNode *n)
{
	char name[1024];

	snprintf(name, sizeof(name), "%s_%s", attr(n, "id"), attr(n, "direction"));
	xmlSetProp(n, (const xmlChar *)"id", (const xmlChar *)name);
	xmlUnsetProp(n, (const xmlChar *)"direction");
}

static int rewrite(const struct dl_platform *p, xmlNode *n)
{
	for (xmlNode *c = n->children, *next; c; c = next) {
		next = c->next;
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (is_route(c) && needs_reverse(p, c)) {
			if (add_reverse(c))
				return -1;
			next = c->next;	/* the reverse, renamed in its turn */
		}
		if (is_elem(c, "link") && split_link(p, attr(c, "id"))) {
			if (split_declaration(c))
				return -1;
			next = c->next->next;	/* past the new X_DOWN */
			continue;
		}
		if (is_elem(c, "link_ctn") && split_link(p, attr(c, "id")) && attr(c, "direction")) {
			rename_use(c);
			continue;
		}
		if (rewrite(p, c))
			return -1;
	}
	return 0;
}

/* SimGrid's trace has one container per host, zone, router and link, by
 * name, and aborts on a name used twice. */
static int check_names(const struct dl_platform *p)
{
	for (int i = 0; i < p->nlinks; i++)
		if (dl_strmap_get(&p->np_ids, p->links[i].name) >= 0)
			return dl_err("%s:%d: --trace: link '%s' has the name of a host, router or zone; SimGrid's trace needs every name once",
				      p->file, p->links[i].line, p->links[i].name);
	return 0;
}

int dl_paje_platform(const struct dl_platform *p, const char *xml, size_t xml_len, char *path,
		     size_t len)
{
	const char *dir = getenv("TMPDIR");
	xmlDoc *doc;
	int fd, ret = -1;
	FILE *f;

	if (check_names(p))
		return -1;
	doc = xmlReadMemory(xml, (int)xml_len, p->file, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
	if (!doc)
		return dl_err("%s: cannot read the platform again for the trace", p->file);
	snprintf(path, len, "%s/dlasim-trace.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		dl_err("cannot create a platform file in %s: %s", dir && *dir ? dir : "/tmp",
		       strerror(errno));
		goto out;
	}
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		goto fail;
	}
	if (rewrite(p, xmlDocGetRootElement(doc)) || xmlDocDump(f, doc) < 0) {
		fclose(f);
		goto fail;
	}
	if (fclose(f) == 0) {
		ret = 0;
		goto out;
	}
fail:
	unlink(path);
	dl_err("%s: cannot write the platform copy for the trace", p->file);
out:
	xmlFreeDoc(doc);
	return ret;
}
