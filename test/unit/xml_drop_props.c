/* SPDX-License-Identifier: MIT */
/*
 * The copy of a platform SimGrid reads (machine/xmlscan.c,
 * dl_xml_drop_props): dlasim's properties go, everything else stays, and
 * every line keeps its number.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#include "../xml_copy_check.h"

/* `in` with its props of id prefix "dlasim." dropped, as a string. */
static char *dropped(const char *in)
{
	size_t n = strlen(in);
	char *b = malloc(n + 1);

	memcpy(b, in, n + 1);
	b[dl_xml_drop_props(b, n, "dlasim.")] = '\0';
	return b;
}

static void check_drop(const char *in, const char *want)
{
	char *got = dropped(in);

	CHECK_STR(got, want);
	free(got);
}

static void empty_elements_dropped_with_indentation(void)
{
	check_drop("<host id=\"d0\" speed=\"1f\">\n"
		   "  <prop id=\"dlasim.role\" value=\"device\"/>\n"
		   "  <prop id=\"wattage_per_state\" value=\"100:200\"/>\n"
		   "</host>\n",
		   "<host id=\"d0\" speed=\"1f\">\n"
		   "\n"
		   "  <prop id=\"wattage_per_state\" value=\"100:200\"/>\n"
		   "</host>\n");
	/* two on one line, and one after a tag on its line */
	check_drop("<zone id=\"z\" routing=\"Full\"><prop id=\"dlasim.a\" value=\"1\"/> "
		   "<prop id=\"dlasim.b\" value=\"2\"/>\n</zone>",
		   "<zone id=\"z\" routing=\"Full\">\n</zone>");
}

static void attribute_forms(void)
{
	/* value first, single quotes, line breaks between attributes (kept) */
	check_drop("<link id=\"l\" bandwidth=\"1Bps\">\n"
		   "  <prop\n    value='3'\n    id='dlasim.lanes' />\n"
		   "</link>",
		   "<link id=\"l\" bandwidth=\"1Bps\">\n\n\n\n</link>");
	/* a '>' inside a value does not end the tag */
	check_drop("<a><prop value=\"x>y\" id=\"dlasim.k\"/></a>", "<a></a>");
	/* spaces around '=' */
	check_drop("<a><prop id = \"dlasim.k\" value=\"1\"/></a>", "<a></a>");
}

static void start_and_end_tags(void)
{
	check_drop("<a>\n <prop id=\"dlasim.k\" value=\"1\">\n </prop>\n</a>", "<a>\n\n\n</a>");
	/* anything but blanks before the end tag: kept whole */
	check_drop("<a><prop id=\"dlasim.k\" value=\"1\"><!-- c --></prop></a>",
		   "<a><prop id=\"dlasim.k\" value=\"1\"><!-- c --></prop></a>");
}

static void what_stays(void)
{
	static const char *const kept[] = {
		"<a><prop id=\"dlasimx\" value=\"1\"/></a>",		/* not the prefix */
		"<a><prop id=\"dlasim\" value=\"1\"/></a>",
		"<a><prop id=\"x.dlasim.k\" value=\"1\"/></a>",
		"<a><prop value=\"dlasim.k\"/></a>",			/* only the id counts */
		"<a><props id=\"dlasim.k\"/></a>",			/* another element */
		"<a><property id=\"dlasim.k\" value=\"1\"/></a>",
		"<a><!-- <prop id=\"dlasim.k\" value=\"1\"/> --></a>",	/* in a comment */
		"<?pi <prop id=\"dlasim.k\" value=\"1\"/> ?><a/>",	/* in a processing instruction */
		"<a><prop id=\"DLASIM.k\" value=\"1\"/></a>",		/* names are case-sensitive */
	};

	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		check_drop(kept[i], kept[i]);
	check_drop("", "");
	check_drop("<", "<");
}

/* Nothing past the length is read (the sanitizer build would see it). */
static void exact_length(void)
{
	static const char *const ends[] = { "<", "<a", "<!", "<?x", "<prop", "<prop id=\"dlasim.k\"" };

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t n = strlen(ends[i]);
		char *b = malloc(n);

		memcpy(b, ends[i], n);
		CHECK(dl_xml_drop_props(b, n, "dlasim.") == n);
		free(b);
	}
}

/* The shipped platforms, as they are on disk. */
static void shipped_platforms(void)
{
	glob_t g;
	long all = 0;

	CHECK(glob("platforms/*.xml", 0, NULL, &g) == 0 && g.gl_pathc > 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "rb");
		char *text = NULL;
		size_t len = 0;
		long ours = 0;

		CHECK(f && getdelim(&text, &len, '\0', f) > 0);
		if (text && !xc_drop_is_faithful(text, strlen(text), &ours)) {
			printf("    %s: the copy is not the file without dlasim's props\n",
			       g.gl_pathv[i]);
			CHECK(false);
		}
		all += ours;
		free(text);
		if (f)
			fclose(f);
	}
	CHECK(all > 0);
	globfree(&g);
}

/* Line numbers: every element left is on the line it was on. */
static void lines_kept(void)
{
	const char *in = "<platform version=\"4.1\">\n"
			 "<zone id=\"z\" routing=\"Full\">\n"
			 "  <prop id=\"dlasim.ring.0\" value=\"a b\"/>\n"
			 "  <host id=\"a\" speed=\"1f\">\n"
			 "    <prop id=\"dlasim.role\"\n          value=\"device\"/>\n"
			 "  </host>\n"
			 "  <host id=\"b\" speed=\"1f\"/>\n"
			 "</zone>\n"
			 "</platform>\n";
	char *out = dropped(in);
	xmlDoc *d = xmlReadMemory(out, (int)strlen(out), "x.xml", NULL, XML_PARSE_NONET);

	CHECK(xc_lines(out, strlen(out)) == xc_lines(in, strlen(in)));
	CHECK(d != NULL);
	if (d) {
		xmlNode *zone = xmlDocGetRootElement(d)->children;
		xmlNode *h;

		while (zone && zone->type != XML_ELEMENT_NODE)
			zone = zone->next;
		CHECK(zone && xmlGetLineNo(zone) == 2);
		for (h = zone ? zone->children : NULL; h; h = h->next)
			if (h->type == XML_ELEMENT_NODE)
				CHECK(xmlGetLineNo(h) == (h->children ? 4 : 8));
		xmlFreeDoc(d);
	}
	free(out);
}

int main(void)
{
	RUN(empty_elements_dropped_with_indentation);
	RUN(attribute_forms);
	RUN(start_and_end_tags);
	RUN(what_stays);
	RUN(exact_length);
	RUN(shipped_platforms);
	RUN(lines_kept);
	CHECK_EXIT();
}
