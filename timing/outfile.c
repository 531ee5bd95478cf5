/* timing/outfile.c — temporary-file-and-rename writing with every write,
 * flush and close error reported (see outfile.h). */
#include "timing/outfile.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool io_error(GError **error, const char *path, const char *what, int e)
{
    g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "cannot %s %s: %s", what,
                path, g_strerror(e));
    return false;
}

bool out_file_open(out_file *o, const char *path, GError **error)
{
    memset(o, 0, sizeof *o);
    struct stat st;
    bool in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    if (in_place) {
        o->f = fopen(path, "w");
        if (!o->f)
            return io_error(error, path, "write", errno);
        o->path = g_strdup(path);
        return true;
    }
    char *tmp = g_strdup_printf("%s.tmp-XXXXXX", path);
    int fd = g_mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        g_free(tmp);
        return io_error(error, path, "write", e);
    }
    /* mkstemp makes 0600 files; a result file gets the usual umask mode */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        int e = errno;
        close(fd);
        g_unlink(tmp);
        g_free(tmp);
        return io_error(error, path, "write", e);
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int e = errno;
        close(fd);
        g_unlink(tmp);
        g_free(tmp);
        return io_error(error, path, "write", e);
    }
    o->path = g_strdup(path);
    o->tmp = tmp;
    return true;
}

static void out_file_clear(out_file *o)
{
    g_free(o->path);
    g_free(o->tmp);
    memset(o, 0, sizeof *o);
}

bool out_file_close(out_file *o, GError **error)
{
    if (!o->f)
        return io_error(error, o->path ? o->path : "(unnamed)", "write", EBADF);
    int e = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    if (fclose(o->f) != 0 && !e)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (!e && o->tmp && g_rename(o->tmp, o->path) != 0)
        e = errno;
    if (e) {
        if (o->tmp)
            g_unlink(o->tmp);
        io_error(error, o->path, "write", e);
        out_file_clear(o);
        return false;
    }
    out_file_clear(o);
    return true;
}

void out_file_abort(out_file *o)
{
    if (!o->f)
        return;
    fclose(o->f);
    if (o->tmp)
        g_unlink(o->tmp);
    out_file_clear(o);
}

bool out_file_write_all(const char *path, const void *data, size_t len, GError **error)
{
    out_file o;
    if (!out_file_open(&o, path, error))
        return false;
    if (len && fwrite(data, 1, len, o.f) != len) {
        int e = errno ? errno : EIO;
        char *p = g_strdup(path);
        out_file_abort(&o);
        io_error(error, p, "write", e);
        g_free(p);
        return false;
    }
    return out_file_close(&o, error);
}
