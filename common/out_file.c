/* out_file.c — temp-file-and-rename output files with cleanup on failure. */
#include "out_file.h"
#include "diag.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct out_file {
    char *path;         /* final name */
    char *tmp;          /* temporary name; NULL for standard output */
    FILE *fp;           /* plain output */
    gzFile gz;          /* gzip output */
    out_file *next;     /* list of open files, for cleanup */
};

static out_file *open_files;
static volatile sig_atomic_t handlers_installed;

static void unlink_all_temps(void)
{
    for (out_file *f = open_files; f; f = f->next)
        if (f->tmp)
            unlink(f->tmp);
}

static void on_signal(int sig)
{
    unlink_all_temps();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* mkstemp creates 0600 files; outputs should get the usual 0666 & ~umask. */
static mode_t umask_value(void)
{
    mode_t m = umask(0);
    umask(m);
    return m;
}

static void unlist(out_file *f)
{
    for (out_file **p = &open_files; *p; p = &(*p)->next)
        if (*p == f) {
            *p = f->next;
            return;
        }
}

out_file *out_file_open(const char *path, bool gzip)
{
    /* Renaming over a device, FIFO or socket would replace it (as root,
     * /dev/null itself): such a name is refused before any work. */
    struct stat st;
    if (strcmp(path, "-") != 0 && lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
        diag_data_error(path, DIAG_NO_OFFSET, "exists and is not a regular file (%s); it is not replaced",
                        S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
                        S_ISSOCK(st.st_mode) ? "a socket" : "a device");
    out_file *f = xcalloc(1, sizeof *f);
    f->path = xstrdup(path);
    int fd;
    if (strcmp(path, "-") == 0) {
        fd = dup(STDOUT_FILENO);
    } else {
        install_handlers();
        size_t n = strlen(path);
        f->tmp = xmalloc(n + 16);
        snprintf(f->tmp, n + 16, "%s.tmp.XXXXXX", path);
        fd = mkstemp(f->tmp);
        if (fd < 0) {
            int e = errno;
            free(f->tmp);
            f->tmp = NULL;
            diag_data_error(path, DIAG_NO_OFFSET, "cannot create output file: %s", strerror(e));
        }
        fchmod(fd, 0666 & ~umask_value());
    }
    f->next = open_files;
    open_files = f;
    if (gzip) {
        f->gz = gzdopen(fd, "wb6");
        if (!f->gz) diag_fatal(EXIT_INTERNAL, path, DIAG_NO_OFFSET, "cannot start gzip output");
        gzbuffer(f->gz, 1 << 17);
    } else {
        f->fp = fdopen(fd, "w");
        if (!f->fp) diag_fatal(EXIT_INTERNAL, path, DIAG_NO_OFFSET, "cannot open output stream");
        setvbuf(f->fp, NULL, _IOFBF, 1 << 17);
    }
    return f;
}

FILE *out_file_stream(out_file *f) { return f->fp; }
const char *out_file_path(const out_file *f) { return f->path; }

/* Chunks at least this big go straight to the file, not through stdio's
 * buffer (one copy less: the traces of cdat write in 64 KiB chunks). */
enum { OUT_DIRECT = 1 << 15 };

void out_file_write(out_file *f, const void *buf, size_t n)
{
    if (f->fp && n >= OUT_DIRECT) {
        if (fflush(f->fp) != 0)
            diag_data_error(f->path, DIAG_NO_OFFSET, "write failed: %s", strerror(errno));
        const char *p = buf;
        while (n) {
            ssize_t w = write(fileno(f->fp), p, n);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) diag_data_error(f->path, DIAG_NO_OFFSET, "write failed: %s", strerror(w < 0 ? errno : EIO));
            p += w;
            n -= (size_t)w;
        }
    } else if (f->fp) {
        if (fwrite(buf, 1, n, f->fp) != n)
            diag_data_error(f->path, DIAG_NO_OFFSET, "write failed: %s", strerror(errno));
    } else if (n && gzwrite(f->gz, buf, (unsigned)n) != (int)n) {
        diag_data_error(f->path, DIAG_NO_OFFSET, "compressed write failed");
    }
}

void out_file_printf(out_file *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (f->fp) {
        vfprintf(f->fp, fmt, ap);
    } else {
        char small[512];
        va_list aq;
        va_copy(aq, ap);
        int n = vsnprintf(small, sizeof small, fmt, aq);
        va_end(aq);
        if (n < (int)sizeof small) {
            out_file_write(f, small, (size_t)n);
        } else {
            char *big = xmalloc((size_t)n + 1);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            out_file_write(f, big, (size_t)n);
            free(big);
        }
    }
    va_end(ap);
}

static void release(out_file *f)
{
    unlist(f);
    free(f->path);
    free(f->tmp);
    free(f);
}

void out_file_commit(out_file *f)
{
    int bad = 0;
    if (f->fp) {
        bad = ferror(f->fp) | fflush(f->fp);
        bad |= fclose(f->fp);
    } else {
        bad = gzclose(f->gz) != Z_OK;
    }
    f->fp = NULL;
    f->gz = NULL;
    if (bad) {
        int e = errno;
        if (f->tmp) unlink(f->tmp);
        diag_data_error(f->path, DIAG_NO_OFFSET, "write failed: %s", strerror(e));
    }
    if (f->tmp && rename(f->tmp, f->path) != 0) {
        int e = errno;
        unlink(f->tmp);
        diag_data_error(f->path, DIAG_NO_OFFSET, "cannot rename output into place: %s", strerror(e));
    }
    release(f);
}

void out_file_abort(out_file *f)
{
    if (f->fp) fclose(f->fp);
    if (f->gz) gzclose(f->gz);
    if (f->tmp) unlink(f->tmp);
    release(f);
}

void out_file_abort_all(void)
{
    while (open_files)
        out_file_abort(open_files);
}
