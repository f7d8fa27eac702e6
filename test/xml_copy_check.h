/* SPDX-License-Identifier: MIT */
/*
 * What the copy of a platform SimGrid reads must be (machine/xmlscan.c,
 * dl_xml_drop_props): shared by the unit test and the fuzz target.
 */
#ifndef DL_TEST_XML_COPY_CHECK_H
#define DL_TEST_XML_COPY_CHECK_H

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdbool.h>
#include <string.h>

#include "machine/xmlscan.h"

static inline long xc_lines(const char *s, size_t n)
{
	long c = 0;

	for (size_t i = 0; i < n; i++)
		c += s[i] == '\n';
	return c;
}

/* Elements under and after n: all of them, or dlasim's props only. */
static inline long xc_elements(xmlNode *n, bool ours)
{
	long c = 0;

	for (; n; n = n->next) {
		xmlChar *id;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		id = xmlGetProp(n, BAD_CAST "id");
		c += !ours || (strcmp((const char *)n->name, "prop") == 0 && id &&
			       strncmp((const char *)id, "dlasim.", 7) == 0);
		xmlFree(id);
		c += xc_elements(n->children, ours);
	}
	return c;
}

/* Drop dlasim's props from xml[0..len) (in place; *ours: how many there
 * were): does the copy parse, keep every line, and lack those props and
 * nothing else? */
static inline bool xc_drop_is_faithful(char *xml, size_t len, long *ours)
{
	long lines = xc_lines(xml, len), all;
	xmlDoc *a = xmlReadMemory(xml, (int)len, "a.xml", NULL, XML_PARSE_NONET), *b = NULL;
	size_t n;
	bool ok = false;

	if (!a)
		return false;
	*ours = xc_elements(xmlDocGetRootElement(a), true);
	all = xc_elements(xmlDocGetRootElement(a), false);
	n = dl_xml_drop_props(xml, len, "dlasim.");
	b = xmlReadMemory(xml, (int)n, "b.xml", NULL, XML_PARSE_NONET);
	if (b && xc_lines(xml, n) == lines && xc_elements(xmlDocGetRootElement(b), true) == 0 &&
	    xc_elements(xmlDocGetRootElement(b), false) == all - *ours)
		ok = true;
	xmlFreeDoc(a);
	xmlFreeDoc(b);
	return ok;
}

#endif
