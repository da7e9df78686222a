#ifndef NARRATE_CLIBXML2_SHIM_H
#define NARRATE_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so encoding.h includes ICU's <unicode/ucnv.h>, whose enums
 * clash with the ICU copy inside Foundation (_FoundationICU) in any module that imports both.
 * Without the macro, encoding.h leaves out only the two ICU converter fields at the end of
 * xmlCharEncodingHandler; Swift never reads that struct's fields, only passes pointers to it. */
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/encoding.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#endif
