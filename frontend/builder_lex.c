/* frontend/builder_lex.c — what the flex scanner calls: positions, errors,
 * directive and integer tokens, .section bodies. */
#include "frontend/builder_internal.h"
#include "frontend/ptx.tab.h"
#include "frontend/parser.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ lexer */

void builder_advance(ptx_builder *b, PTX_YYLTYPE *loc, const char *text, int len)
{
    loc->first_line = b->line;
    loc->first_column = b->col + 1;
    for (int i = 0; i < len; i++) {
        if (text[i] == '\n') {
            b->line++;
            b->col = 0;
        } else {
            b->col++;
        }
    }
    loc->last_line = b->line;
    loc->last_column = b->col;
}

void builder_error(ptx_builder *b, const PTX_YYLTYPE *loc, const char *fmt, ...)
{
    if (b->error)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    /* bison's location of an end of file met before any token is 0:0 */
    if (loc && loc->first_line <= 0)
        loc = NULL;
    b->error = g_string_new(NULL);
    g_string_printf(b->error, "%s:%d:%d: error: %s", b->m->source_name,
                    loc ? loc->first_line : b->line,
                    loc ? loc->first_column : b->col + 1, msg);
    g_free(msg);
    ptx_message_shorten(b->error);
}

int builder_lex_error(ptx_builder *b, PTX_YYLTYPE *loc, const char *msg)
{
    builder_error(b, loc, "%s", msg);
    return LEXERROR;
}

int builder_bad_char(ptx_builder *b, PTX_YYLTYPE *loc, unsigned char c)
{
    if (c >= 0x20 && c < 0x7f)
        builder_error(b, loc, "unexpected character '%c'", c);
    else
        builder_error(b, loc, "unexpected byte 0x%02x (is this a PTX text file?)", c);
    return LEXERROR;
}

static const struct {
    const char *name;
    int token;
    int value;
} directive_table[] = {
    {"version", DIR_VERSION, 0},
    {"target", DIR_TARGET, 0},
    {"address_size", DIR_ADDRSIZE, 0},
    {"entry", DIR_ENTRY, 0},
    {"func", DIR_FUNC, 0},
    {"file", DIR_FILE, 0},
    {"loc", DIR_LOC, 0},
    {"pragma", DIR_PRAGMA, 0},
    {"callprototype", DIR_CALLPROTOTYPE, 0},
    {"calltargets", DIR_CALLTARGETS, 0},
    {"branchtargets", DIR_BRANCHTARGETS, 0},
    {"noreturn", DIR_NORETURN, 0},
    {"align", DIR_ALIGN, 0},
    {"ptr", DIR_PTR, 0},
    {"alias", DIR_ALIAS, 0},
    {"visible", DIR_LINK, PTX_LINK_VISIBLE},
    {"extern", DIR_LINK, PTX_LINK_EXTERN},
    {"weak", DIR_LINK, PTX_LINK_WEAK},
    {"common", DIR_LINK, PTX_LINK_COMMON},
    {"reg", DIR_SPACE, PTX_SPACE_REG},
    {"sreg", DIR_SPACE, PTX_SPACE_SREG},
    {"const", DIR_SPACE, PTX_SPACE_CONST},
    {"global", DIR_SPACE, PTX_SPACE_GLOBAL},
    {"local", DIR_SPACE, PTX_SPACE_LOCAL},
    {"param", DIR_SPACE, PTX_SPACE_PARAM},
    {"shared", DIR_SPACE, PTX_SPACE_SHARED},
    {"tex", DIR_SPACE, PTX_SPACE_TEX},
    {"v2", DIR_VEC, 2},
    {"v4", DIR_VEC, 4},
    {"v8", DIR_VEC, 8},
    {"maxntid", DIR_PERF, 0},
    {"reqntid", DIR_PERF, 0},
    {"minnctapersm", DIR_PERF, 0},
    {"maxnctapersm", DIR_PERF, 0},
    {"maxnreg", DIR_PERF, 0},
    {"maxclusterrank", DIR_PERF, 0},
    {"explicitcluster", DIR_PERF, 0},
    {"reqnctapercluster", DIR_PERF, 0},
    {"blocksareclusters", DIR_PERF, 0},
    {"abi_preserve", DIR_PERF, 0},
    {"abi_preserve_control", DIR_PERF, 0},
};

int builder_directive(ptx_builder *b, PTX_YYSTYPE *val, PTX_YYLTYPE *loc,
                      const char *text, int len)
{
    const char *s = text + 1;
    unsigned n = (unsigned)len - 1;
    for (size_t i = 0; i < G_N_ELEMENTS(directive_table); i++) {
        const char *d = directive_table[i].name;
        /* first letter first: this runs for every directive token */
        if (d[0] == s[0] && strncmp(d, s, n) == 0 && d[n] == '\0') {
            if (directive_table[i].token == DIR_PERF) {
                val->str.s = text;
                val->str.len = (unsigned)len;
            } else {
                val->i = directive_table[i].value;
            }
            return directive_table[i].token;
        }
    }
    ptx_type t = ptx_type_from_name(s, n);
    if (t != PTX_T_NONE) {
        val->i = (int)t;
        return DIR_TYPE;
    }
    /* a well-formed .section is one lexer token; this one lacks NAME { */
    if (n == 7 && memcmp(s, "section", 7) == 0)
        builder_error(b, loc, "malformed .section: expected '.section NAME {'");
    else
        builder_error(b, loc, "unknown directive '%.*s'", len, text);
    return LEXERROR;
}

int builder_int(ptx_builder *b, PTX_YYSTYPE *val, PTX_YYLTYPE *loc,
                const char *text, int len, int base)
{
    char buf[80];
    int n = len;
    if (n > 0 && text[n - 1] == 'U')
        n--;
    const char *digits = text;
    if (base == 16 || base == 2) {
        digits += 2;
        n -= 2;
    }
    if (n <= 0 || n >= (int)sizeof buf) {
        builder_error(b, loc, "integer literal '%.*s' out of range", len, text);
        return LEXERROR;
    }
    memcpy(buf, digits, (size_t)n);
    buf[n] = '\0';
    errno = 0;
    val->u = strtoull(buf, NULL, base);
    if (errno == ERANGE) {
        builder_error(b, loc, "integer literal '%.*s' out of range", len, text);
        return LEXERROR;
    }
    return INTLIT;
}

void builder_section_begin(ptx_builder *b, const char *text, int len)
{
    if (!b->section)
        b->section = g_string_new(NULL);
    g_string_truncate(b->section, 0);
    g_string_append_len(b->section, text, len);
    b->section_depth = 1;
}

void builder_section_text(ptx_builder *b, const char *text, int len)
{
    g_string_append_len(b->section, text, len);
}

