/* Reading the benchmark JSON lines back: one flat object a line (string, number and boolean
 * values, no nesting), which is all the suites write. */
#ifndef BENCH_RUNNER_JSONL_H
#define BENCH_RUNNER_JSONL_H

#define JL_MAX_FIELDS 32

typedef struct jl_record {
    char *line; /* the line, cut up in place: keys and values point into it */
    int n;
    const char *key[JL_MAX_FIELDS];
    const char *value[JL_MAX_FIELDS]; /* a string unquoted and unescaped; else the token */
} jl_record;

typedef struct jl_file {
    int n;
    jl_record *r;
} jl_file;

/* Reads every line of path that parses as a flat object (others are skipped). A missing file
 * reads as no records. Returns 0 when memory ran out (f then holds what was read). */
int jl_read(jl_file *f, const char *path);
void jl_free(jl_file *f);

const char *jl_str(const jl_record *r, const char *key); /* NULL when absent */
double jl_num(const jl_record *r, const char *key);      /* NaN when absent or not a number */
int jl_is(const jl_record *r, const char *key, const char *value); /* the value is exactly that */

/* The largest value of key over the records where `filter` holds (NaN when none). */
typedef int (*jl_filter)(const jl_record *r);
double jl_max(const jl_file *f, jl_filter filter, const char *key);

#endif
