/* SPDX-License-Identifier: MIT */
/* The JSON writer's escaping and nesting. */
#include <stdlib.h>

#include "check.h"

#include "results/json.h"

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

int main(void)
{
	RUN(json_document);
	CHECK_EXIT();
}
