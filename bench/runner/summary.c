/* The summary make bench ends on: the targets missed, in a short table of their own, then every
 * target (bench_target's records in targets.jsonl) with its verdict, then every suite with its
 * exit status, time and load average; the same as Markdown in summary.md, with the machine,
 * the compiler and the charts. */
#include "bench.h"
#include "jsonl.h"
#include "machine.h"
#include "runner.h"
#include <math.h>
#include <string.h>

typedef struct tally {
    int targets, passed, suites, failed_suites;
    const jl_record *run;                  /* the run record: mode and date */
    const char *load_start, *load_end;     /* the first suite's, the last suite's */
} tally;

static int is_target(const jl_record *r)
{
    return jl_str(r, "target") != NULL;
}

static int passed(const jl_record *r)
{
    return jl_is(r, "pass", "true");
}

static const char *str_or(const jl_record *r, const char *key, const char *fallback)
{
    const char *v = jl_str(r, key);
    return v ? v : fallback;
}

/* "0.968x" and "<= 1.05x" (64 bytes each) */
static void figures(const jl_record *r, char *measured, char *bound)
{
    const char *unit = str_or(r, "unit", "");
    double m = jl_num(r, "measured");
    bench_format(measured, 64, m < 0.0 ? NAN : m, unit);
    snprintf(bound, 64, "%.2s ", str_or(r, "direction", "<="));
    bench_format_bound(bound + strlen(bound), 60, jl_num(r, "bound"), unit);
}

static tally count(const jl_file *f)
{
    tally t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < f->n; ++i) {
        const jl_record *r = &f->r[i];
        if (is_target(r)) {
            t.targets++;
            t.passed += passed(r);
        } else if (jl_str(r, "suite_run")) {
            t.suites++;
            t.failed_suites += !jl_is(r, "exit", "0");
            if (!t.load_start)
                t.load_start = str_or(r, "load_start", "n/a");
            t.load_end = str_or(r, "load_end", "n/a");
        } else if (jl_str(r, "run")) {
            t.run = r;
        }
    }
    return t;
}

/* The suite's targets: PASS and MISS counts for program "bench_<suite>". */
static void suite_counts(const jl_file *f, const char *program, int *pass, int *miss)
{
    *pass = *miss = 0;
    for (int i = 0; i < f->n; ++i) {
        const char *suite = jl_str(&f->r[i], "suite");
        if (is_target(&f->r[i]) && suite && strncmp(program, "bench_", 6) == 0 &&
            strcmp(program + 6, suite) == 0) {
            *pass += passed(&f->r[i]);
            *miss += !passed(&f->r[i]);
        }
    }
}

/* A target shown in a table: every target, or only the misses. */
static int shown(const jl_record *r, int misses_only)
{
    return is_target(r) && !(misses_only && passed(r));
}

static int name_width(const jl_file *f, int misses_only)
{
    int w = 6;
    for (int i = 0; i < f->n; ++i)
        if (shown(&f->r[i], misses_only)) {
            int n = (int)strlen(jl_str(&f->r[i], "target"));
            w = n > w ? n : w;
        }
    return w;
}

/* One line per target: verdict (not in the table of the misses alone), suite, name, measured,
 * bound; a Markdown row when md. */
static void targets_table(FILE *out, const jl_file *f, int md, int misses_only)
{
    char measured[64], bound[64];
    const char *verdict = misses_only ? "" : md ? "| verdict " : "verdict ";
    int w = name_width(f, misses_only);
    if (md)
        fprintf(out, "%s| suite | target | measured | bound |\n%s|---|---|---:|---|\n", verdict,
                misses_only ? "" : "|---");
    else
        fprintf(out, "%s%-10s %-*s  %12s  %s\n", verdict, "suite", w, "target", "measured",
                "bound");
    for (int i = 0; i < f->n; ++i) {
        const jl_record *r = &f->r[i];
        if (!shown(r, misses_only))
            continue;
        figures(r, measured, bound);
        if (!misses_only)
            fprintf(out, md ? "| %s " : "%-7s ",
                    passed(r) ? "PASS" : md ? "**MISS**" : "MISS");
        if (md)
            fprintf(out, "| %s | %s | %s | %s |\n", str_or(r, "suite", "?"), jl_str(r, "target"),
                    measured, bound);
        else
            fprintf(out, "%-10s %-*s  %12s  %s\n", str_or(r, "suite", "?"), w,
                    jl_str(r, "target"), measured, bound);
    }
}

/* One line per suite program: exit status, time, its PASS and MISS, the load at its start and
 * end; a Markdown row when md. */
static void suites_table(FILE *out, const jl_file *f, int md)
{
    if (md)
        fprintf(out, "| program | exit | time | PASS | MISS | load at start | load at end |\n"
                     "|---|---:|---:|---:|---:|---|---|\n");
    else
        fprintf(out, "%-18s %-6s %8s %5s %5s  %s\n", "suite", "exit", "time", "PASS", "MISS",
                "load average (1, 5, 15 min) at start -> end");
    for (int i = 0; i < f->n; ++i) {
        const jl_record *r = &f->r[i];
        const char *program = jl_str(r, "suite_run");
        int pass, miss;
        if (!program)
            continue;
        suite_counts(f, program, &pass, &miss);
        const char *status = str_or(r, "exit", "?"), *start = str_or(r, "load_start", "n/a"),
                   *end = str_or(r, "load_end", "n/a");
        if (md)
            fprintf(out, "| %s | %s | %.1f s | %d | %d | %s | %s |\n", program, status,
                    jl_num(r, "seconds"), pass, miss, start, end);
        else
            fprintf(out, "%-18s %-6s %6.1f s %5d %5d  %s -> %s\n", program, status,
                    jl_num(r, "seconds"), pass, miss, start, end);
    }
}

static const char *run_field(const tally *t, const char *key)
{
    return t->run ? str_or(t->run, key, "n/a") : "n/a";
}

/* The misses alone, before every target: a line that says there are none, or their table
 * followed by an empty line. */
static void misses(FILE *out, const jl_file *f, const tally *t, int md)
{
    int n = t->targets - t->passed;
    if (n == 0) {
        fprintf(out, "No MISS: every one of the %d targets met its bound.\n\n", t->targets);
        return;
    }
    fprintf(out, "%d MISS of %d targets:\n%s", n, t->targets, md ? "\n" : "");
    targets_table(out, f, md, 1);
    fprintf(out, "\n");
}

static void print_terminal(const jl_file *f, const tally *t, const machine *m,
                           const char *summary_md)
{
    printf("\n== summary: %s run of %s; %s, %ld cores; %s\n", run_field(t, "run"),
           run_field(t, "date"), m->cpu, m->cores, m->compiler);
    misses(stdout, f, t, 0);
    printf("Every target:\n");
    targets_table(stdout, f, 0, 0);
    printf("\n");
    suites_table(stdout, f, 0);
    printf("\n%d targets: %d PASS, %d MISS%s; ", t->targets, t->passed, t->targets - t->passed,
           t->targets > t->passed ? " (alone in the first table)" : "");
    if (t->failed_suites)
        printf("%d of %d suites FAILED (a wrong result or a crash: see above).\n",
               t->failed_suites, t->suites);
    else
        printf("all %d suites ran to the end.\n", t->suites);
    printf("A MISS is a timing bound this run did not meet: figures differ on another machine or "
           "a busy one.\nThe summary with the machine and the charts: %s\n", summary_md);
}

static void write_markdown(FILE *md, const jl_file *f, const tally *t, const machine *m,
                           const chart_list *charts)
{
    const char *mode = run_field(t, "run");
    fprintf(md, "# dod benchmark summary\n\n`make bench`, %s run%s, %s.\n\n", mode,
            strcmp(mode, "quick") == 0 ? " (`DOD_BENCH_QUICK=1`: smaller sizes, fewer runs)" : "",
            run_field(t, "date"));
    fprintf(md, "| | |\n|---|---|\n| machine | %s, %ld cores (%s) |\n| compiler | %s |\n",
            m->cpu, m->cores, m->system, m->compiler);
    fprintf(md, "| load average (1, 5, 15 min) | %s at the start, %s at the end |\n",
            t->load_start ? t->load_start : "n/a", t->load_end ? t->load_end : "n/a");
    fprintf(md, "| targets | %d: %d PASS, %d MISS |\n| suites | %d, %d failed |\n\n", t->targets,
            t->passed, t->targets - t->passed, t->suites, t->failed_suites);
    fprintf(md, "A run on another machine, or on this one while it is busy, gives other "
                "figures. Every suite runs baseline and contenders alternately in one process, "
                "so the ratios hold better than the absolute times. A MISS is a timing bound "
                "this run did not meet; the figures behind every target are in "
                "`bench/results/*.jsonl`.\n\n## Misses\n\n");
    misses(md, f, t, 1);
    fprintf(md, "## Suites\n\n");
    suites_table(md, f, 1);
    fprintf(md, "\n## Targets\n\n");
    targets_table(md, f, 1, 0);
    fprintf(md, "\n## Charts\n\n");
    if (charts->skipped[0])
        fprintf(md, "None: %s.\n", charts->skipped);
    for (int i = 0; i < charts->n; ++i)
        fprintf(md, "![%s](%s)\n\n", charts->file[i], charts->file[i]);
}

int summary_report(const char *results_dir, const chart_list *charts)
{
    char path[1024], md_path[1024];
    results_path(path, sizeof path, results_dir, "targets.jsonl");
    results_path(md_path, sizeof md_path, results_dir, "summary.md");
    jl_file f;
    if (!jl_read(&f, path))
        fprintf(stderr, "bench_runner: out of memory reading %s\n", path);
    tally t = count(&f);
    machine m;
    machine_read(&m);
    FILE *md = fopen(md_path, "w");
    int written = 0;
    if (md) {
        write_markdown(md, &f, &t, &m, charts);
        written = fclose(md) == 0;
    }
    print_terminal(&f, &t, &m, written ? shown_path(md_path) : "not written (cannot write it)");
    int failed = t.failed_suites;
    jl_free(&f);
    return failed;
}
