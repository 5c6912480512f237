/* rt_onthefly.c — TRACE_FILE_TYPE=to_ciat / to_cdat (docs/collector.md §7.1):
 * the run is analysed as it ends, without trace files of its own.
 *
 * Each thread's records go to a spill file of a private temporary directory,
 * written by the thread that flushes them, as a trace file would be: no
 * thread ever waits for the analysis, so no lock the program holds can meet a
 * pipe the analyser has stopped draining. The analysers size everything by
 * the number of traces P, known only when the program ends; then the spill
 * files are named as a trace set, the analyser runs on them with its outputs
 * beside TRACE_FILE_NAME, and the directory is removed. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt.h"

#ifndef RT_BINDIR
#define RT_BINDIR ""
#endif
#ifndef RT_CONFIGDIRS
#define RT_CONFIGDIRS ""
#endif

extern char **environ;

enum { PATH_MAX_RT = 4096, MAX_OPTION_WORDS = 256 };

static const char *tool;                /* "ciat" or "cdat"; NULL: not on the fly */
static char tool_path[PATH_MAX_RT];
static const char *config;              /* cdat's machine */
static bool keep;                       /* SMAIT_KEEP_TRACES: keep NAME.P.t as well */
static char config_path[PATH_MAX_RT];   /* a configuration given by name, found */
static char spill_dir[PATH_MAX_RT];

bool rt_otf_active(void) { return tool != NULL; }

/* dir/name when it is an executable file. */
static bool try_tool(const char *dir, size_t len, const char *name)
{
    if (len == 0 || len + strlen(name) + 2 > sizeof tool_path)
        return false;
    snprintf(tool_path, sizeof tool_path, "%.*s/%s", (int)len, dir, name);
    struct stat st;
    return stat(tool_path, &st) == 0 && S_ISREG(st.st_mode) && access(tool_path, X_OK) == 0;
}

/* SMAIT_ANALYSER_DIR, else the tools built with this runtime, else PATH. */
static void find_tool(void)
{
    const char *d = getenv("SMAIT_ANALYSER_DIR");
    if (d && *d) {
        if (try_tool(d, strlen(d), tool))
            return;
        rt_fatal("SMAIT_ANALYSER_DIR=%s: no executable %s there", d, tool);
    }
    if (try_tool(RT_BINDIR, strlen(RT_BINDIR), tool))
        return;
    const char *p = getenv("PATH");
    while (p && *p) {
        size_t n = strcspn(p, ":");
        if (try_tool(p, n, tool))
            return;
        p += n + (p[n] == ':');
    }
    rt_fatal("TRACE_FILE_TYPE=to_%s: cannot find %s (set SMAIT_ANALYSER_DIR to its directory, or put it on PATH)",
             tool, tool);
}

/* A CONFIGURATION_FILE_NAME that is no file: a bare name (no '/', no
 * ".ini") is looked for as NAME.ini in RT_CONFIGDIRS, as cdat looks for it
 * among the configurations it knows (docs/collector.md §7.1). */
static void find_config(void)
{
    int err = errno;
    const char *dirs = RT_CONFIGDIRS;
    if (err == ENOENT && !strchr(config, '/') && !strstr(config, ".ini") && *dirs) {
        char list[PATH_MAX_RT];         /* the directories, "A or B" */
        size_t at = 0;
        for (const char *d = dirs; *d;) {
            size_t n = strcspn(d, ":");
            snprintf(config_path, sizeof config_path, "%.*s/%s.ini", (int)n, d, config);
            if (n && access(config_path, R_OK) == 0) {
                config = config_path;
                return;
            }
            if (at < sizeof list)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%.*s", at ? " or " : "", (int)n, d);
            d += n + (d[n] == ':');
        }
        rt_fatal("CONFIGURATION_FILE_NAME=%s: no such configuration file, nor %s.ini in %s", config, config, list);
    }
    rt_fatal("CONFIGURATION_FILE_NAME=%s: %s", config, strerror(err));
}

void rt_otf_read_env(const char *type)
{
    tool = type + 3;
    if (!strcmp(tool, "cdat")) {
        config = getenv("CONFIGURATION_FILE_NAME");
        if (!config || !*config)
            rt_fatal("TRACE_FILE_TYPE=to_cdat needs CONFIGURATION_FILE_NAME, the machine's configuration file");
        if (access(config, R_OK) != 0)
            find_config();
    }
    /* zstd by default: a run too big to store as plain traces spills about
     * 2-5 % of their size (docs/collector.md §7.1). */
    const char *sp = getenv("SMAIT_SPILL");
    if (!sp || !strcmp(sp, "compressed"))
        rt_type = RT_TYPE_COMPRESSED;
    else if (!strcmp(sp, "normal"))
        rt_type = RT_TYPE_NORMAL;
    else
        rt_fatal("SMAIT_SPILL=%s: unknown spill type (compressed or normal)", sp);
    keep = getenv("SMAIT_KEEP_TRACES") != NULL;
    find_tool();
}

/* The directory part of name ("." for none). */
static void dir_of(const char *name, char *out, size_t n)
{
    const char *slash = strrchr(name, '/');
    if (!slash)
        snprintf(out, n, ".");
    else if (slash == name)
        snprintf(out, n, "/");
    else
        snprintf(out, n, "%.*s", (int)(slash - name), name);
}

static const char *base_of(const char *name)
{
    const char *slash = strrchr(name, '/');
    return slash ? slash + 1 : name;
}

/* After the re-execution (rt_exec.c), so that only the run that goes on
 * makes a directory. Kept traces are renamed, so they spill beside their
 * final names. */
void rt_otf_start(const char *trace_name)
{
    char where[PATH_MAX_RT];
    /* The outputs' directory is checked now, not after the whole run. */
    dir_of(trace_name, where, sizeof where);
    if (access(where, W_OK | X_OK) != 0)
        rt_fatal("TRACE_FILE_NAME=%s: cannot write the analysis into %s: %s", trace_name, where, strerror(errno));
    const char *d = getenv("SMAIT_SPILL_DIR");
    if (d && *d)
        snprintf(where, sizeof where, "%s", d);
    else if (keep)
        dir_of(trace_name, where, sizeof where);
    else
        snprintf(where, sizeof where, "%s", getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (strlen(where) > 3000)
        rt_fatal("%s: spill directory name too long", where);
    snprintf(spill_dir, sizeof spill_dir, "%s/smait-spill.XXXXXX", where);
    if (!mkdtemp(spill_dir))
        rt_fatal("%s: cannot create the spill directory: %s", where, strerror(errno));
}

void rt_otf_partial(const char *trace_name, int slot, char *out, size_t n)
{
    snprintf(out, n, "%s/%s.%d.partial", spill_dir, base_of(trace_name), slot);
}

static void remove_spill(int P, const char *trace_name)
{
    char p[PATH_MAX_RT + 300];
    for (int i = 0; i < P; i++) {
        snprintf(p, sizeof p, "%s/%s.%d.%d", spill_dir, base_of(trace_name), P, i);
        unlink(p);
        rt_otf_partial(trace_name, i, p, sizeof p);
        unlink(p);
    }
    rmdir(spill_dir);
}

/* Run the analyser on the spill files, named as the set NAME.P; its standard
 * output goes to standard error, so the program's own output is unchanged.
 * Returns its exit status (3 when it could not run or died by a signal). */
/* The directory the analyser writes into: DIR, or the last -o of the
 * options (-o DIR, --output-dir DIR, --output-dir=DIR, -output_dir DIR). */
static const char *outputs_dir(char *const *words, int n, const char *dir)
{
    for (int i = 0; i < n; i++) {
        const char *w = words[i];
        if (!strncmp(w, "--output-dir=", 13))
            dir = w + 13;
        else if ((!strcmp(w, "-o") || !strcmp(w, "--output-dir") || !strcmp(w, "-output_dir")) && i + 1 < n)
            dir = words[++i];
    }
    return dir;
}

static int run_tool(int P, const char *trace_name, const char *out_dir, char *wrote, size_t wrote_n)
{
    char prefix[PATH_MAX_RT + 300];
    snprintf(prefix, sizeof prefix, "%s/%s.%d", spill_dir, base_of(trace_name), P);
    const char *opts = getenv("SMAIT_ANALYSER_OPTIONS");
    char *words = strdup(opts ? opts : "");
    char *argv[MAX_OPTION_WORDS + 8];
    int n = 0;
    argv[n++] = (char *)tool;
    argv[n++] = "-o";
    argv[n++] = (char *)out_dir;
    for (char *save = NULL, *w = words ? strtok_r(words, " \t\n", &save) : NULL; w;
         w = strtok_r(NULL, " \t\n", &save)) {
        if (n >= MAX_OPTION_WORDS)
            rt_fatal("SMAIT_ANALYSER_OPTIONS has more than %d words", MAX_OPTION_WORDS - 3);
        argv[n++] = w;
    }
    snprintf(wrote, wrote_n, "%s/%s.%d.%s", outputs_dir(argv + 3, n - 3, out_dir), base_of(trace_name), P,
             config ? "cdat_report" : "ciat_report");
    argv[n++] = prefix;
    if (config)
        argv[n++] = (char *)config;
    argv[n] = NULL;
    fflush(NULL);
    /* The program may ignore SIGCHLD or reap every child in a handler; the
     * analyser's status is ours to wait for. */
    signal(SIGCHLD, SIG_DFL);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, 2, 1);
    pid_t pid;
    int err = posix_spawn(&pid, tool_path, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    free(words);
    if (err) {
        fprintf(stderr, "smait: cannot run %s: %s\n", tool_path, strerror(err));
        return 3;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "smait: waiting for %s: %s\n", tool, strerror(errno));
            return 3;
        }
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    fprintf(stderr, "smait: %s died of signal %d\n", tool, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return 3;
}

void rt_otf_abandon(int P, const char *trace_name)
{
    remove_spill(P, trace_name);
}

void rt_otf_finish(int P, const char *trace_name, uint64_t records, bool quiet)
{
    char from[PATH_MAX_RT + 300], to[PATH_MAX_RT + 300], out_dir[PATH_MAX_RT];
    for (int i = 0; i < P; i++) {
        rt_otf_partial(trace_name, i, from, sizeof from);
        snprintf(to, sizeof to, "%s/%s.%d.%d", spill_dir, base_of(trace_name), P, i);
        if (rename(from, to) != 0) {
            int err = errno;
            remove_spill(P, trace_name);
            rt_fatal("%s: cannot rename to %s: %s", from, to, strerror(err));
        }
    }
    dir_of(trace_name, out_dir, sizeof out_dir);
    if (!quiet)
        fprintf(stderr, "smait: %d thread%s, %llu records: running %s\n", P, P == 1 ? "" : "s",
                (unsigned long long)records, tool);
    char wrote[2 * PATH_MAX_RT];
    int status = run_tool(P, trace_name, out_dir, wrote, sizeof wrote);
    if (status == 0 && keep)
        for (int i = 0; i < P; i++) {
            snprintf(from, sizeof from, "%s/%s.%d.%d", spill_dir, base_of(trace_name), P, i);
            snprintf(to, sizeof to, "%s.%d.%d", trace_name, P, i);
            if (rename(from, to) != 0) {
                fprintf(stderr, "smait: %s: cannot keep the trace as %s: %s\n", from, to, strerror(errno));
                status = 2;
                break;
            }
        }
    remove_spill(P, trace_name);
    if (status != 0) {
        fprintf(stderr, "smait: the on-the-fly analysis failed: %s exited with status %d (its message is above);"
                " the run fails with that status\n", tool, status);
        _exit(status);
    }
    if (!quiet) {
        fprintf(stderr, "smait: %s wrote %s\n", tool, wrote);
        if (keep)
            fprintf(stderr, "        traces kept as %s.%d.0 … %s.%d.%d\n", trace_name, P, trace_name, P, P - 1);
    }
}
