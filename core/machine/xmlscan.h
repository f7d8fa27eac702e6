/* SPDX-License-Identifier: MIT */
/*
 * The bytes of a platform file as SimGrid's own XML reader (a FleXML
 * scanner, not libxml2) will see them.  libxml2 accepts XML that SimGrid
 * stops on, or reads differently: text, CDATA and references between
 * elements, an internal DTD subset (and with it entity expansion), a
 * byte-order mark, other encodings, references and line breaks inside
 * attribute values (libxml2 decodes or normalizes them, so names would no
 * longer match SimGrid's).  dl_xml_scan() finds the first of those.
 */
#ifndef DL_XMLSCAN_H
#define DL_XMLSCAN_H

#include <stdbool.h>
#include <stddef.h>

/* NULL if `buf` has none of those, else what is wrong, with its line. */
const char *dl_xml_scan(const char *buf, size_t len, int *line);

/*
 * Remove from `buf` (which dl_xml_scan() and libxml2 accepted) the <prop>
 * elements whose id starts with `prefix`, in place, keeping every line
 * break so that the lines left keep their numbers; the new length.  Props
 * in comments stay, and so does a <prop ...> with anything but blanks
 * before its </prop>.
 */
size_t dl_xml_drop_props(char *buf, size_t len, const char *prefix);

/*
 * The start tags of `buf` (which dl_xml_scan() and libxml2 accepted), in
 * document order: the index of the first '<' of the next start tag at or
 * after `i` (comments, processing instructions, the DOCTYPE and end tags
 * skipped), *end just past its '>'; `len` when there is none.
 */
size_t dl_xml_next_start_tag(const char *buf, size_t len, size_t i, size_t *end);
/* Is the start tag buf[start..end) a <name ...> (or <name/>)? */
bool dl_xml_tag_is(const char *buf, size_t start, size_t end, const char *name);

#endif
