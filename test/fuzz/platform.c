/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the platform reader (kernel/platform.c, xmlscan.c),
 * everything it checks before SimGrid would see the file, and the copy
 * SimGrid then reads: dlasim's properties gone, the rest as it was (same
 * elements, same lines), or the target aborts. */
#include "fuzz.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "kernel/platform.h"
#include "kernel/xmlscan.h"

static long elements(xmlNode *n, bool ours)
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
		c += elements(n->children, ours);
	}
	return c;
}

static long lines(const char *s, size_t n)
{
	long c = 0;

	for (size_t i = 0; i < n; i++)
		c += s[i] == '\n';
	return c;
}

static void check_copy(char *xml, size_t len)
{
	long n_lines = lines(xml, len);
	xmlDoc *a = xmlReadMemory(xml, (int)len, "a.xml", NULL, XML_PARSE_NONET), *b;
	size_t n = dl_xml_drop_props(xml, len, "dlasim.");

	b = xmlReadMemory(xml, (int)n, "b.xml", NULL, XML_PARSE_NONET);
	if (!a || !b || lines(xml, n) != n_lines || elements(xmlDocGetRootElement(b), true) ||
	    elements(xmlDocGetRootElement(b), false) !=
		    elements(xmlDocGetRootElement(a), false) - elements(xmlDocGetRootElement(a), true))
		abort();
	xmlFreeDoc(a);
	xmlFreeDoc(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dl_platform *p;
	char path[64], *xml;
	size_t len;
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (dl_platform_read_bytes(&p, path, &xml, &len) == 0) {
		dl_platform_require_rings(p);
		dl_platform_free(p);
		check_copy(xml, len);
		free(xml);
	}
	close(fd);
	return 0;
}
