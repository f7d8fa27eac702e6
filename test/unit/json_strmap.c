/* SPDX-License-Identifier: MIT */
/* The JSON writer's escaping and nesting, the string map. */
#include <stdlib.h>

#include "check.h"

#include "kernel/json.h"
#include "kernel/strmap.h"

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

static void string_map(void)
{
	struct dl_strmap m;
	char keys[1000][16];

	dl_strmap_init(&m);
	CHECK(dl_strmap_get(&m, "absent") == -1);
	for (int i = 0; i < 1000; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%d", i);
		CHECK(dl_strmap_put(&m, keys[i], i) == 0);
	}
	for (int i = 0; i < 1000; i++)
		CHECK(dl_strmap_get(&m, keys[i]) == i);
	CHECK(dl_strmap_put(&m, keys[7], 70) == 0);
	CHECK(dl_strmap_get(&m, "k7") == 70);
	CHECK(m.len == 1000);
	dl_strmap_free(&m);
}

int main(void)
{
	RUN(json_document);
	RUN(string_map);
	CHECK_EXIT();
}
