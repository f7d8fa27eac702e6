/* SPDX-License-Identifier: MIT */
/* Attribute values of Chakra nodes: a number from any numeric member of
 * AttributeProto's one-of (Chakra's tools write several). */
#ifndef MC_CHAKRA_ATTR_H
#define MC_CHAKRA_ATTR_H

#include <stdbool.h>

#include "chakra_et.pb-c.h"

typedef DlasimChakra__Node pb_node;
typedef DlasimChakra__AttributeProto pb_attr;

/* Attribute `name` of node n, or NULL. */
const pb_attr *mc_et_find_attr(const pb_node *n, const char *name);

/* Its value as a number: false if it holds no number. */
bool mc_et_attr_value(const pb_attr *a, double *v);

/* Attribute `name` of node n as a number: false if absent or no number. */
bool mc_et_attr_number(const pb_node *n, const char *name, double *v);

#endif
