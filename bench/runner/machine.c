#define _POSIX_C_SOURCE 200809L
#include "machine.h"
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static void copy(char *out, size_t size, const char *s)
{
    snprintf(out, size, "%s", s);
}

static void trim_newline(char *s)
{
    s[strcspn(s, "\r\n")] = '\0';
}

static void cpu_model(char *out, size_t size)
{
    copy(out, size, "n/a");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        const char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            trim_newline(line);
            copy(out, size, colon + 1 + strspn(colon + 1, " \t"));
            break;
        }
    }
    if (f)
        fclose(f);
}

void machine_read(machine *m)
{
    cpu_model(m->cpu, sizeof m->cpu);
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(m->system, sizeof m->system, "%s %s %s", u.sysname, u.release, u.machine);
    else
        copy(m->system, sizeof m->system, "n/a");
    m->cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (m->cores < 0)
        m->cores = 0;
    copy(m->compiler, sizeof m->compiler, DOD_BENCH_COMPILER);
}

void load_average(char *out, size_t size)
{
    double a[3];
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf %lf %lf", &a[0], &a[1], &a[2]) == 3)
        snprintf(out, size, "%.2f %.2f %.2f", a[0], a[1], a[2]);
    else
        copy(out, size, "n/a");
    if (f)
        fclose(f);
}

void date_now(char *out, size_t size)
{
    time_t t = time(NULL);
    struct tm local;
    if (!localtime_r(&t, &local) || !strftime(out, size, "%Y-%m-%d %H:%M %z", &local))
        copy(out, size, "n/a");
}
