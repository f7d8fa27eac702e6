/* SPDX-License-Identifier: MIT */
/* Attribute values of Chakra nodes (docs/chakra.md, "The format"). */
#include "chakra_attr.h"

#include <string.h>

const pb_attr *mc_et_find_attr(const pb_node *n, const char *name)
{
	for (size_t i = 0; i < n->n_attr; i++)
		if (n->attr[i]->name && strcmp(n->attr[i]->name, name) == 0)
			return n->attr[i];
	return NULL;
}

/* A number from any numeric member of the one-of; false if none. */
bool mc_et_attr_value(const pb_attr *a, double *v)
{
	switch (a->value_case) {
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_DOUBLE_VAL: *v = a->double_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_FLOAT_VAL: *v = a->float_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_INT32_VAL: *v = a->int32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_INT64_VAL: *v = (double)a->int64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_UINT32_VAL: *v = a->uint32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_UINT64_VAL: *v = (double)a->uint64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_SINT32_VAL: *v = a->sint32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_SINT64_VAL: *v = (double)a->sint64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_FIXED32_VAL: *v = a->fixed32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_FIXED64_VAL: *v = (double)a->fixed64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_SFIXED32_VAL: *v = a->sfixed32_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_SFIXED64_VAL: *v = (double)a->sfixed64_val; return true;
	case DLASIM_CHAKRA__ATTRIBUTE_PROTO__VALUE_BOOL_VAL: *v = a->bool_val; return true;
	default: return false;
	}
}

bool mc_et_attr_number(const pb_node *n, const char *name, double *v)
{
	const pb_attr *a = mc_et_find_attr(n, name);

	return a && mc_et_attr_value(a, v);
}
