/* tools/json_flat.c — a small recursive-descent JSON reader that flattens
 * objects and arrays into dotted paths (see json_flat.h). */
#include "tools/json_flat.h"

#include <string.h>

typedef struct jr {
    const char *s;
    size_t i;
    GHashTable *out;
    GPtrArray *order;
    GError **error;
    unsigned depth;
} jr;

static bool fail(jr *r, const char *what)
{
    g_set_error(r->error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "offset %zu: %s", r->i, what);
    return false;
}

static void skip_ws(jr *r)
{
    while (r->s[r->i] == ' ' || r->s[r->i] == '\n' || r->s[r->i] == '\t' || r->s[r->i] == '\r')
        r->i++;
}

static void emit(jr *r, const char *path, char *value)
{
    if (g_hash_table_contains(r->out, path)) {
        g_hash_table_insert(r->out, g_strdup(path), value); /* keeps the old key */
        return;
    }
    char *k = g_strdup(path);
    if (r->order)
        g_ptr_array_add(r->order, k);
    g_hash_table_insert(r->out, k, value);
}

/* A string literal at r->i (the opening quote); the unescaped text. */
static char *read_string(jr *r)
{
    GString *b = g_string_new(NULL);
    r->i++;
    for (;;) {
        char c = r->s[r->i];
        if (c == '\0') {
            fail(r, "unterminated string");
            g_string_free(b, TRUE);
            return NULL;
        }
        r->i++;
        if (c == '"')
            break;
        if (c != '\\') {
            g_string_append_c(b, c);
            continue;
        }
        char e = r->s[r->i++];
        switch (e) {
        case 'n': g_string_append_c(b, '\n'); break;
        case 't': g_string_append_c(b, '\t'); break;
        case 'r': g_string_append_c(b, '\r'); break;
        case 'b': g_string_append_c(b, '\b'); break;
        case 'f': g_string_append_c(b, '\f'); break;
        case 'u': {
            char hex[5] = {0};
            for (int k = 0; k < 4; k++) {
                if (!g_ascii_isxdigit(r->s[r->i])) {
                    fail(r, "bad \\u escape");
                    g_string_free(b, TRUE);
                    return NULL;
                }
                hex[k] = r->s[r->i++];
            }
            g_string_append_unichar(b, (gunichar)strtoul(hex, NULL, 16));
            break;
        }
        case '\0':
            fail(r, "unterminated escape");
            g_string_free(b, TRUE);
            return NULL;
        default: g_string_append_c(b, e); break;
        }
    }
    return g_string_free(b, FALSE);
}

static bool read_value(jr *r, GString *path);

static bool read_members(jr *r, GString *path, bool object)
{
    char close = object ? '}' : ']';
    size_t base = path->len;
    r->i++;
    skip_ws(r);
    if (r->s[r->i] == close) {
        r->i++;
        return true;
    }
    for (unsigned n = 0;; n++) {
        skip_ws(r);
        g_string_truncate(path, base);
        if (base)
            g_string_append_c(path, '.');
        if (object) {
            if (r->s[r->i] != '"')
                return fail(r, "expected a member name");
            char *key = read_string(r);
            if (!key)
                return false;
            g_string_append(path, key);
            g_free(key);
            skip_ws(r);
            if (r->s[r->i++] != ':')
                return fail(r, "expected ':'");
        } else {
            g_string_append_printf(path, "%u", n);
        }
        if (!read_value(r, path))
            return false;
        skip_ws(r);
        char c = r->s[r->i++];
        if (c == close)
            break;
        if (c != ',')
            return fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    g_string_truncate(path, base);
    return true;
}

static bool read_value(jr *r, GString *path)
{
    skip_ws(r);
    char c = r->s[r->i];
    if (c == '{' || c == '[') {
        if (++r->depth > 64)
            return fail(r, "nesting too deep");
        bool ok = read_members(r, path, c == '{');
        r->depth--;
        return ok;
    }
    if (c == '"') {
        char *v = read_string(r);
        if (!v)
            return false;
        emit(r, path->str, v);
        return true;
    }
    size_t start = r->i;
    while (r->s[r->i] && strchr("+-.0123456789eEtruefalsn", r->s[r->i]))
        r->i++;
    if (r->i == start)
        return fail(r, "expected a value");
    emit(r, path->str, g_strndup(r->s + start, r->i - start));
    return true;
}

GHashTable *json_flat_table(void)
{
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

bool json_flatten(const char *text, GHashTable *out, GPtrArray *order, GError **error)
{
    jr r = {text, 0, out, order, error, 0};
    GString *path = g_string_new(NULL);
    bool ok = read_value(&r, path);
    g_string_free(path, TRUE);
    if (ok) {
        skip_ws(&r);
        if (r.s[r.i])
            ok = fail(&r, "trailing text after the document");
    }
    return ok;
}

void json_append_string(GString *out, const char *s)
{
    g_string_append_c(out, '"');
    for (const char *p = s ? s : ""; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\')
            g_string_append_printf(out, "\\%c", c);
        else if (c < 0x20)
            g_string_append_printf(out, "\\u%04x", c);
        else
            g_string_append_c(out, (char)c);
    }
    g_string_append_c(out, '"');
}
