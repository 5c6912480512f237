/* out_file.c — temporaries, an all-or-nothing commit, cleanup on failure. */
#include "out_file.h"
#include "../base/diag.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

/* stdio buffer of every plain output (glibc ignores the size when setvbuf
 * gets no buffer of its own and keeps 4 KiB). */
enum { OUT_BUFFER = 1 << 17 };

struct out_file {
    char *path;         /* final name */
    char *tmp;          /* temporary name; NULL for standard output */
    char *old;          /* during the commit: a link to the earlier target, or NULL */
    FILE *fp;           /* plain output */
    gzFile gz;          /* gzip output */
    ZSTD_CCtx *zc;      /* zstd output: compressed into fp */
    unsigned char *zbuf;
    size_t zcap;
    char *vbuf;         /* fp's buffer */
    bool held;          /* out_file_open_stdout: fp is a memory stream */
    char *mem;          /* held: the text (fp's memory) */
    size_t memlen;
    bool had_target;    /* during the commit: the target existed but could not be linked */
    bool renamed;       /* during the commit */
    out_file *next;     /* list of open files in the order opened, for cleanup */
};

static out_file *open_files;
static volatile sig_atomic_t handlers_installed;

/* Remove every temporary still open, and nothing else: no stream is closed
 * and nothing freed, so it is safe while other threads still write into them
 * and in a signal handler. */
static void unlink_all(void)
{
    for (out_file *f = open_files; f; f = f->next)
        if (f->tmp)
            unlink(f->tmp);
}

/* The cleanup hook of a fatal error (base/diag.h): before the process ends,
 * the temporaries unlinked (other threads may still write into them); before
 * a trap unwinds the run, every output closed and freed as well. */
static void on_fatal(diag_cleanup how)
{
    if (how == DIAG_CLEANUP_UNWIND) out_file_abort_all();
    else unlink_all();
}

static void on_signal(int sig)
{
    unlink_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
enum { NSIGNALS = sizeof cleanup_signals / sizeof cleanup_signals[0] };

static void install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    for (size_t i = 0; i < NSIGNALS; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

/* mkstemp creates 0600 files; outputs should get the usual 0666 & ~umask. */
static mode_t umask_value(void)
{
    mode_t m = umask(0);
    umask(m);
    return m;
}

static void list_append(out_file *f)
{
    diag_on_fatal(on_fatal);
    out_file **p = &open_files;
    while (*p) p = &(*p)->next;
    *p = f;                     /* complete before the signal handler can see it */
}

static void unlist(out_file *f)
{
    for (out_file **p = &open_files; *p; p = &(*p)->next)
        if (*p == f) {
            *p = f->next;
            return;
        }
}

/* ---- temporaries of killed runs ----------------------------------------------------- */

/* 8 hex digits of the host name and the pid namespace: process numbers in a
 * temporary's name mean something only where this tag is the same. */
static char host_tag[9];

static uint32_t fnv1a(uint32_t h, const char *s)
{
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static const char *tag(void)
{
    if (host_tag[0]) return host_tag;
    char buf[512];
    uint32_t h = 2166136261u;
    if (gethostname(buf, sizeof buf) != 0) buf[0] = '\0';
    buf[sizeof buf - 1] = '\0';
    h = fnv1a(h, buf);
    ssize_t n = readlink("/proc/self/ns/pid", buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = '\0';
        h = fnv1a(fnv1a(h, "/"), buf);
    }
    snprintf(host_tag, sizeof host_tag, "%08x", (unsigned)h);
    return host_tag;
}

/* The process that made NAME when NAME is one of our temporaries
 * ("<x>.tmp.<pid>.<tag>.XXXXXX", a backup with ".old" after it) with this
 * host's tag; otherwise 0. */
static long temp_owner(const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".old") == 0) n -= 4;
    if (n < 7 || name[n - 7] != '.') return 0;
    for (size_t i = n - 6; i < n; i++)
        if (!isalnum((unsigned char)name[i])) return 0;
    n -= 7;
    if (n < 9 || name[n - 9] != '.' || memcmp(name + n - 8, tag(), 8) != 0) return 0;
    n -= 9;
    size_t end = n;
    while (n > 0 && isdigit((unsigned char)name[n - 1])) n--;
    if (n == end || end - n > 9 || n < 6 || memcmp(name + n - 5, ".tmp.", 5) != 0) return 0;
    return strtol(name + n, NULL, 10);
}

/* Directories already cleaned in this run. */
static struct cleaned { dev_t dev; ino_t ino; } *cleaned;
static size_t ncleaned, cleaned_cap;

/* Remove the temporaries a killed run left in dir: ours (temp_owner), regular
 * files, of a process that no longer exists. Best effort: an unreadable
 * directory is left alone. */
static void clean_stale(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0) return;
    for (size_t i = 0; i < ncleaned; i++)
        if (cleaned[i].dev == st.st_dev && cleaned[i].ino == st.st_ino) return;
    cleaned_cap = xgrow((void **)&cleaned, cleaned_cap, ncleaned + 1, sizeof *cleaned);
    cleaned[ncleaned++] = (struct cleaned){ st.st_dev, st.st_ino };
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = temp_owner(e->d_name);
        if (pid <= 0 || pid == (long)getpid()) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;   /* alive, or not ours to ask */
        struct stat fs;
        if (fstatat(dirfd(d), e->d_name, &fs, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(fs.st_mode))
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

/* The directory part of path ("." when none); caller frees. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return xstrdup(".");
    if (slash == path) return xstrdup("/");
    size_t n = (size_t)(slash - path);
    char *d = xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = '\0';
    return d;
}

/* "<dir>/<base>.tmp.<pid>.<tag>.XXXXXX", the base cut short if the name (with
 * a backup's ".old") would not fit in NAME_MAX. */
static char *temp_template(const char *path)
{
    char suffix[64];
    snprintf(suffix, sizeof suffix, ".tmp.%ld.%s.XXXXXX", (long)getpid(), tag());
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t base = strlen(path) - dirlen, room = NAME_MAX - strlen(suffix) - 4;
    if (base > room) base = room;
    size_t n = dirlen + base + strlen(suffix) + 1;
    char *t = xmalloc(n);
    memcpy(t, path, dirlen + base);
    memcpy(t + dirlen + base, suffix, strlen(suffix) + 1);
    return t;
}

/* ---- opening and writing ------------------------------------------------------------ */

static void start_stream(out_file *f, int fd)
{
    f->fp = fdopen(fd, "w");
    if (!f->fp) diag_fatal(EXIT_INTERNAL, f->path, DIAG_NO_OFFSET, "cannot open output stream");
    f->vbuf = xmalloc(OUT_BUFFER);
    setvbuf(f->fp, f->vbuf, _IOFBF, OUT_BUFFER);
}

out_file *out_file_open(const char *path, bool gzip)
{
    return out_file_open_format(path, gzip ? OUT_GZIP : OUT_PLAIN);
}

/* Level 3 (zstd's default) with the content checksum, so that a reader tells
 * a damaged file from a good one. */
static void start_zstd(out_file *f)
{
    f->zc = ZSTD_createCCtx();
    if (!f->zc) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory");
    if (ZSTD_isError(ZSTD_CCtx_setParameter(f->zc, ZSTD_c_compressionLevel, 3)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(f->zc, ZSTD_c_checksumFlag, 1)))
        diag_fatal(EXIT_INTERNAL, f->path, DIAG_NO_OFFSET, "cannot start zstd output");
    f->zcap = ZSTD_CStreamOutSize();
    f->zbuf = xmalloc(f->zcap);
}

out_file *out_file_open_format(const char *path, out_format format)
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
        list_append(f);
    } else {
        install_handlers();
        char *dir = dir_of(path);
        clean_stale(dir);
        free(dir);
        f->tmp = temp_template(path);
        /* Listed before mkstemp names and makes it: a signal at any moment
         * removes whatever of it exists (a name not made yet is no file). */
        list_append(f);
        fd = mkstemp(f->tmp);
        if (fd < 0) {
            int e = errno;
            unlist(f);
            free(f->tmp);
            f->tmp = NULL;
            diag_data_error(path, DIAG_NO_OFFSET, "cannot create output file: %s", strerror(e));
        }
        fchmod(fd, 0666 & ~umask_value());
    }
    if (format == OUT_GZIP) {
        f->gz = gzdopen(fd, "wb6");
        if (!f->gz) diag_fatal(EXIT_INTERNAL, path, DIAG_NO_OFFSET, "cannot start gzip output");
        gzbuffer(f->gz, OUT_BUFFER);
    } else {
        start_stream(f, fd);
        if (format == OUT_ZSTD) start_zstd(f);
    }
    return f;
}

out_file *out_file_open_stdout(void)
{
    /* A closed standard output fails now, not after the files are in place. */
    if (fcntl(STDOUT_FILENO, F_GETFL) < 0)
        diag_data_error("standard output", DIAG_NO_OFFSET, "cannot write: %s", strerror(errno));
    out_file *f = xcalloc(1, sizeof *f);
    f->path = xstrdup("standard output");
    f->held = true;
    f->fp = open_memstream(&f->mem, &f->memlen);
    if (!f->fp) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory (standard output)");
    list_append(f);
    return f;
}

FILE *out_file_stream(out_file *f) { return f->zc ? NULL : f->fp; }
const char *out_file_path(const out_file *f) { return f->path; }

static noreturn void write_failed(const out_file *f, int e)
{
    diag_data_error(f->path, DIAG_NO_OFFSET, "write failed: %s", strerror(e));
}

/* Chunks at least this big go straight to the file, not through stdio's
 * buffer (one copy less: the traces of cdat write in 64 KiB chunks). */
enum { OUT_DIRECT = 1 << 15 };

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = EIO;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Compress n bytes into fp; end closes the frame. 0, or the errno of a
 * failed write (EIO when zstd itself fails, which only a bug can cause). */
static int zstd_write(out_file *f, const void *buf, size_t n, bool end)
{
    ZSTD_inBuffer in = { buf, n, 0 };
    size_t left;
    do {
        ZSTD_outBuffer out = { f->zbuf, f->zcap, 0 };
        left = ZSTD_compressStream2(f->zc, &out, &in, end ? ZSTD_e_end : ZSTD_e_continue);
        if (ZSTD_isError(left)) return EIO;
        if (out.pos && fwrite(f->zbuf, 1, out.pos, f->fp) != out.pos) return errno ? errno : EIO;
    } while (end ? left != 0 : in.pos < in.size);
    return 0;
}

void out_file_write(out_file *f, const void *buf, size_t n)
{
    if (f->zc) {
        int e = n ? zstd_write(f, buf, n, false) : 0;
        if (e) write_failed(f, e);
    } else if (f->fp && !f->held && n >= OUT_DIRECT) {
        if (fflush(f->fp) != 0 || !write_all(fileno(f->fp), buf, n)) write_failed(f, errno);
    } else if (f->fp) {
        if (fwrite(buf, 1, n, f->fp) != n) write_failed(f, errno);
    } else if (n && gzwrite(f->gz, buf, (unsigned)n) != (int)n) {
        diag_data_error(f->path, DIAG_NO_OFFSET, "compressed write failed");
    }
}

void out_file_printf(out_file *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (f->fp && !f->zc) {
        if (vfprintf(f->fp, fmt, ap) < 0) write_failed(f, errno);
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
    free(f->old);
    free(f->vbuf);
    free(f->mem);
    free(f->zbuf);
    ZSTD_freeCCtx(f->zc);
    free(f);
}

/* Close the stream: 0, or the errno of the first failure. */
static int close_stream(out_file *f)
{
    int e = 0;
    if (f->zc && f->fp) {       /* the end of the frame */
        e = zstd_write(f, NULL, 0, true);
        ZSTD_freeCCtx(f->zc);
        f->zc = NULL;
    }
    if (f->fp) {
        if (ferror(f->fp) && !e) e = EIO;
        if (fflush(f->fp) != 0 && !e) e = errno;
        if (fclose(f->fp) != 0 && !e) e = errno;
    } else if (f->gz) {
        int z = gzclose(f->gz);
        if (z != Z_OK) e = z == Z_ERRNO ? errno : EIO;
    }
    f->fp = NULL;
    f->gz = NULL;
    return e;
}

/* ---- the commit ------------------------------------------------------------------- */

/* Standard output as it was before a held text was written to it (a regular
 * file only): its length, to cut it back to. */
typedef struct stdout_mark {
    bool regular, written;
    off_t length;
} stdout_mark;

static void stdout_undo(stdout_mark *m)
{
    if (!m->written) return;
    if (ftruncate(STDOUT_FILENO, m->length) == 0) lseek(STDOUT_FILENO, m->length, SEEK_SET);
    m->written = false;
}

/* Write a held text to standard output; a regular file is marked first. */
static bool stdout_put(out_file *h, stdout_mark *m)
{
    fflush(stdout);
    if (m->regular) {
        struct stat st;
        int fl = fcntl(STDOUT_FILENO, F_GETFL);
        off_t at = fl >= 0 && (fl & O_APPEND) ? (fstat(STDOUT_FILENO, &st) == 0 ? st.st_size : -1)
                                             : lseek(STDOUT_FILENO, 0, SEEK_CUR);
        m->length = at;
        m->written = at >= 0;
    }
    return write_all(STDOUT_FILENO, h->mem, h->memlen);
}

/* The output directories, locked (flock) in (device, inode) order so two
 * runs never wait on each other crosswise. Best effort: a directory that
 * cannot be opened or locked (no read permission, NFS) is not locked. */
typedef struct dir_lock { int fd; dev_t dev; ino_t ino; } dir_lock;

static int lock_cmp(const void *a, const void *b)
{
    const dir_lock *x = a, *y = b;
    if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
    return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static size_t lock_dirs(out_file **v, size_t n, dir_lock *locks)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!v[i]->tmp) continue;
        char *dir = dir_of(v[i]->path);
        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        free(dir);
        struct stat st;
        if (fd < 0) continue;
        if (fstat(fd, &st) != 0) {
            close(fd);
            continue;
        }
        bool seen = false;
        for (size_t j = 0; j < k; j++) seen |= locks[j].dev == st.st_dev && locks[j].ino == st.st_ino;
        if (seen) close(fd);
        else locks[k++] = (dir_lock){ fd, st.st_dev, st.st_ino };
    }
    qsort(locks, k, sizeof *locks, lock_cmp);
    for (size_t j = 0; j < k; j++)
        while (flock(locks[j].fd, LOCK_EX) != 0 && errno == EINTR) {}
    return k;
}

static void unlock_dirs(dir_lock *locks, size_t k)
{
    for (size_t j = 0; j < k; j++) close(locks[j].fd);
}

/* Put the earlier targets back: renamed outputs give way to their backups
 * or disappear when there was no earlier file (one that could not be linked
 * is gone already: its replacement stays); backups are removed. */
static void roll_back(out_file **v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out_file *f = v[i];
        if (f->renamed) {
            if (f->old) rename(f->old, f->path);
            else if (!f->had_target) unlink(f->path);
            f->renamed = false;
        } else if (f->old) {
            unlink(f->old);
        }
        free(f->old);
        f->old = NULL;
    }
}

/* link() cannot make a backup on this file system (or of this target): the
 * commit goes on without one for that file. */
static bool no_links(int e)
{
    return e == EPERM || e == EOPNOTSUPP || e == ENOSYS || e == EMLINK || e == EXDEV;
}

static void commit_files(out_file **v, size_t n)
{
    /* 1. Every temporary complete, or nothing happens. */
    out_file *held = NULL;
    for (size_t i = 0; i < n; i++) {
        int e = close_stream(v[i]);
        if (v[i]->held) {
            if (e) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory (standard output): %s",
                              strerror(e));
            held = v[i];
        } else if (e) {
            write_failed(v[i], e);
        }
    }

    /* 2. The renames, with signals held back so the set never goes half way. */
    sigset_t block, saved;
    sigemptyset(&block);
    for (size_t i = 0; i < NSIGNALS; i++) sigaddset(&block, cleanup_signals[i]);
    sigprocmask(SIG_BLOCK, &block, &saved);
    dir_lock *locks = xmalloc((n ? n : 1) * sizeof *locks);
    size_t nlocks = lock_dirs(v, n, locks);
    stdout_mark mark = { false, false, 0 };
    struct stat st;
    mark.regular = held && fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode);
    const out_file *bad = NULL;
    const char *what = NULL;
    int e = 0;
    if (mark.regular && !stdout_put(held, &mark)) {
        bad = held;
        what = "write failed";
        e = errno;
    }
    for (size_t i = 0; i < n && !bad; i++) {
        out_file *f = v[i];
        if (!f->tmp) continue;
        size_t k = strlen(f->tmp);
        f->old = xmalloc(k + 5);
        memcpy(f->old, f->tmp, k);
        memcpy(f->old + k, ".old", 5);
        if (link(f->path, f->old) == 0) continue;
        e = errno;
        free(f->old);
        f->old = NULL;
        if (e == ENOENT) continue;
        f->had_target = true;
        if (no_links(e)) continue;
        bad = f;
        what = "cannot keep the earlier file while replacing it";
    }
    for (size_t i = 0; i < n && !bad; i++) {
        out_file *f = v[i];
        if (!f->tmp) continue;
        if (rename(f->tmp, f->path) == 0) {
            f->renamed = true;
            continue;
        }
        e = errno;
        bad = f;
        what = "cannot rename output into place";
    }
    if (bad) {
        roll_back(v, n);
        stdout_undo(&mark);
    } else {
        for (size_t i = 0; i < n; i++)
            if (v[i]->old) unlink(v[i]->old);
    }
    unlock_dirs(locks, nlocks);
    free(locks);
    if (bad) diag_data_error(bad->path, DIAG_NO_OFFSET, "%s: %s", what, strerror(e));
    sigprocmask(SIG_SETMASK, &saved, NULL);

    /* 3. Standard output that cannot be taken back: once the files are there. */
    char *text = NULL;
    size_t len = 0;
    if (held && !mark.regular) {
        text = held->mem;
        len = held->memlen;
        held->mem = NULL;
    }
    for (size_t i = 0; i < n; i++) release(v[i]);
    if (text) {
        fflush(stdout);
        bool ok = write_all(STDOUT_FILENO, text, len);
        e = errno;
        free(text);
        if (!ok) diag_data_error("standard output", DIAG_NO_OFFSET, "write failed: %s", strerror(e));
    }
}

void out_file_commit(out_file *f)
{
    commit_files(&f, 1);
}

void out_file_commit_all(void)
{
    /* At file scope: a failed commit exits, and LeakSanitizer must find it. */
    static out_file **v;
    size_t n = 0;
    for (out_file *f = open_files; f; f = f->next) n++;
    v = xmalloc((n ? n : 1) * sizeof *v);
    n = 0;
    for (out_file *f = open_files; f; f = f->next) v[n++] = f;
    commit_files(v, n);
    free(v);
    v = NULL;
}

void out_file_abort(out_file *f)
{
    close_stream(f);
    if (f->tmp) unlink(f->tmp);
    release(f);
}

void out_file_abort_all(void)
{
    while (open_files)
        out_file_abort(open_files);
}

void out_file_xml_text(out_file *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '&') out_file_write(f, "&amp;", 5);
        else if (*s == '<') out_file_write(f, "&lt;", 4);
        else if (*s == '>') out_file_write(f, "&gt;", 4);
        else if ((unsigned char)*s < 0x20) out_file_write(f, " ", 1);
        else out_file_write(f, s, 1);
    }
}
