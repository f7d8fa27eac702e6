/* SPDX-License-Identifier: MIT */
/* The JSON writer's escaping and nesting. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "results/json.h"
#include "results/jsonread.h"

static void json_document(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct dl_json j;

	dl_json_init(&j, f);
	dl_json_object_begin(&j, NULL);
	dl_json_str(&j, "name", "a \"quoted\"\\ line\n");
	dl_json_num(&j, "t_s", 0.5);
	dl_json_num(&j, "inf", 1.0 / 0.0);
	dl_json_array_begin(&j, "list");
	dl_json_int(&j, NULL, 1);
	dl_json_bool(&j, NULL, true);
	dl_json_array_end(&j);
	dl_json_object_end(&j);
	fclose(f);
	CHECK_STR(text, "{\n  \"name\": \"a \\\"quoted\\\"\\\\ line\\n\",\n  \"t_s\": 0.5,\n"
			"  \"inf\": null,\n  \"list\": [\n    1,\n    true\n  ]\n}\n");
	free(text);
}

/* Numbers read back are the numbers written: 0.1 + 0.2 needs 17 digits
 * (0.30000000000000004), 0.1 only one; a result redrawn from its JSON
 * draws the very values of the run. */
static void json_numbers_round_trip(void)
{
	static const double v[] = { 0.1, 0.1 + 0.2, 1.0 / 3, 3754426431.9992213, 1e-300, -2.5e17 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct dl_json j;
	struct dl_jv doc;

	dl_json_init(&j, f);
	dl_json_array_begin(&j, NULL);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		dl_json_num(&j, NULL, v[i]);
	dl_json_array_end(&j);
	fclose(f);
	CHECK(strstr(text, " 0.1,\n") != NULL);
	CHECK(strstr(text, "0.30000000000000004") != NULL);
	CHECK(dl_jv_parse(&doc, text, "mem") == 0);
	CHECK(doc.type == DL_JV_ARR && doc.n == (int)(sizeof(v) / sizeof(v[0])));
	for (int i = 0; i < doc.n; i++)
		CHECK(dl_jv_num(&doc.item[i]) == v[i]);
	dl_jv_free(&doc);
	free(text);
}

/* The reader's tree: members in order, null and strings, nesting. */
static void json_read_tree(void)
{
	struct dl_jv doc;

	CHECK(dl_jv_parse(&doc, "{\"a\": [1, {\"b\": null}], \"s\": \"x\\ty\", \"t\": true}", "m") == 0);
	CHECK(doc.type == DL_JV_OBJ && doc.n == 3);
	CHECK(dl_jv_get(&doc, "a")->n == 2);
	CHECK(dl_jv_get(&doc, "a")->item[1].item[0].type == DL_JV_NULL);
	CHECK(isnan(dl_jv_num(dl_jv_get(&dl_jv_get(&doc, "a")->item[1], "b"))));
	CHECK_STR(dl_jv_str(dl_jv_get(&doc, "s")), "x\ty");
	CHECK(dl_jv_get(&doc, "t")->type == DL_JV_BOOL && dl_jv_get(&doc, "nope") == NULL);
	dl_jv_free(&doc);
	CHECK(dl_jv_parse(&doc, "{\"a\": [1,}", "m") == -1);
	dl_jv_free(&doc);
}

int main(void)
{
	RUN(json_document);
	RUN(json_numbers_round_trip);
	RUN(json_read_tree);
	CHECK_EXIT();
}
