/* config_lookup.c — configurations by name: the installed ones, then the
 * source tree's, so that "cdat trace.4 4x4" works from any directory. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "config_lookup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/diag.h"
#include "install_dirs.h"

/* The installed configurations relative to the running program (bin/cdat ->
 * share/dsmtrace/configs), so an installation can be moved, or staged with
 * DESTDIR, and still find its own; "" when /proc/self/exe cannot be read. */
static void installed_dir(char *buf, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    buf[0] = '\0';
    if (n <= 0) return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return;
    *slash = '\0';
    snprintf(buf, size, "%s/../share/dsmtrace/configs", exe);
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

char *config_lookup(const char *name)
{
    if (strchr(name, '/') || ends_with(name, ".ini") || !name[0] || access(name, F_OK) == 0)
        return xstrdup(name);
    char inst[4200];
    installed_dir(inst, sizeof inst);
    const char *dirs[2] = { inst, DSM_SOURCE_DIR "/configs" };
    for (int i = 0; i < 2; i++) {
        if (!dirs[i][0]) continue;
        size_t size = strlen(dirs[i]) + strlen(name) + 6;
        char *path = xmalloc(size);
        snprintf(path, size, "%s/%s.ini", dirs[i], name);
        if (is_file(path)) {
            char *real = realpath(path, NULL);  /* the report names it without "bin/.." */
            if (real) {
                free(path);
                return real;
            }
            return path;
        }
        free(path);
    }
    return xstrdup(name);
}

char *config_lookup_dirs(void)
{
    char inst[4200];
    installed_dir(inst, sizeof inst);
    char *real = inst[0] ? realpath(inst, NULL) : NULL;
    const char *shown = real ? real : inst;
    size_t size = strlen(shown) + sizeof DSM_SOURCE_DIR + 32;
    char *s = xmalloc(size);
    snprintf(s, size, "%s%s%s", shown, shown[0] ? " or " : "", DSM_SOURCE_DIR "/configs");
    free(real);
    return s;
}
