#define _POSIX_C_SOURCE 200809L
#include "jsonl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *skip_space(char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        ++p;
    return p;
}

/* A string at p (after its opening quote): unescaped in place, its end cut. Returns the
 * character after the closing quote, or NULL. */
static char *cut_string(char *p)
{
    char *out = p;
    while (*p && *p != '"') {
        if (*p == '\\' && p[1]) {
            ++p;
            *out++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
            ++p;
        } else {
            *out++ = *p++;
        }
    }
    if (*p != '"')
        return NULL;
    *out = '\0';
    return p + 1;
}

/* Splits r->line into keys and values; 0 when it is not a flat object. */
static int parse(jl_record *r)
{
    char *p = skip_space(r->line);
    if (*p++ != '{')
        return 0;
    r->n = 0;
    if (*(p = skip_space(p)) == '}')
        return 1;
    for (;;) {
        if (*p++ != '"' || r->n == JL_MAX_FIELDS)
            return 0;
        r->key[r->n] = p;
        if (!(p = cut_string(p)))
            return 0;
        p = skip_space(p);
        if (*p++ != ':')
            return 0;
        p = skip_space(p);
        char *end;
        if (*p == '"') {
            r->value[r->n] = p + 1;
            if (!(end = cut_string(p + 1)))
                return 0;
        } else {
            r->value[r->n] = p;
            end = p + strcspn(p, ",} \t\r\n");
        }
        char *q = skip_space(end);
        char delimiter = *q;
        if (delimiter != ',' && delimiter != '}')
            return 0;
        *end = '\0'; /* may overwrite the delimiter, kept above */
        r->n++;
        if (delimiter == '}')
            return 1;
        p = skip_space(q + 1);
    }
}

int jl_read(jl_file *f, const char *path)
{
    f->n = 0;
    f->r = NULL;
    FILE *in = fopen(path, "r");
    if (!in)
        return 1;
    int cap = 0, ok = 1;
    char *line = NULL;
    size_t line_cap = 0;
    while (getline(&line, &line_cap, in) > 0) {
        if (f->n == cap) {
            int grown = cap ? 2 * cap : 256;
            jl_record *r = (jl_record *)realloc(f->r, (size_t)grown * sizeof *r);
            if (!r) {
                ok = 0;
                break;
            }
            f->r = r;
            cap = grown;
        }
        jl_record *r = &f->r[f->n];
        if (!(r->line = strdup(line))) {
            ok = 0;
            break;
        }
        if (parse(r))
            f->n++;
        else
            free(r->line);
    }
    free(line);
    fclose(in);
    return ok;
}

void jl_free(jl_file *f)
{
    for (int i = 0; i < f->n; ++i)
        free(f->r[i].line);
    free(f->r);
    f->r = NULL;
    f->n = 0;
}

const char *jl_str(const jl_record *r, const char *key)
{
    for (int i = 0; i < r->n; ++i)
        if (strcmp(r->key[i], key) == 0)
            return r->value[i];
    return NULL;
}

double jl_num(const jl_record *r, const char *key)
{
    const char *v = jl_str(r, key);
    char *end;
    double x = v ? strtod(v, &end) : 0.0;
    return v && end != v && *end == '\0' ? x : (double)NAN;
}

int jl_is(const jl_record *r, const char *key, const char *value)
{
    const char *v = jl_str(r, key);
    return v && strcmp(v, value) == 0;
}

double jl_max(const jl_file *f, jl_filter filter, const char *key)
{
    double m = NAN;
    for (int i = 0; i < f->n; ++i) {
        double v = jl_num(&f->r[i], key);
        if (filter(&f->r[i]) && v == v && !(v <= m))
            m = v;
    }
    return m;
}
