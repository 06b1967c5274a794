/* modes/tablefile.c: the table file of --hash-file (docs/command-line.md): a search's table and
 * history kept in a file between one-shot calls: a header, the table's buckets, then the
 * search's history (the engine's table_bucket_size and table_history_size bytes). The file is
 * read whole into memory of the call's own at the start and written back whole at the end: in
 * place with POSIX (pread, pwrite), elsewhere through a temporary file renamed over it. A
 * mapping of the file was tried and dropped: every first write to one of its pages is a page
 * fault that copies or dirties a page of the file, and on a busy virtual machine those made
 * the search five to ten times slower. Calls at once share the file (table_file_merge); an
 * entry torn between two writers fails its key check, and a move from the table is checked
 * legal. Whatever the file holds, the header is checked before use, the engine clamps the
 * history to its ranges, and a file that is not ours is never written. */
#include "system.h"
#include "tablefile.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if HAVE_POSIX
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#endif

static const char TABLE_FILE_MAGIC[8] = { 'B', 'o', 'x', 'e', 'r', 'T', 'T', '\n' };

/* prototypes */
static void table_file_use(TableFile *f, Search *s);
static int table_file_valid(const TableFileHeader *h, size_t file_size);
static int table_file_open(TableFile *f, const char *path, uint64_t bucket_count, char *warning, size_t size);
static int table_file_read(TableFile *f, const char *path, uint64_t bucket_count, char *warning, size_t size);
static void table_file_release(TableFile *f, char *warning, size_t size);
static void table_file_abandon(TableFile *f);
static int table_file_copy_back(TableFile *f);
static void table_file_warn(char *warning, size_t size, const char *path, const char *reason, int cold);
#if HAVE_POSIX
static int table_file_create(TableFile *f, const char *path, uint64_t bucket_count, const char *note, char *warning, size_t size);
static int table_file_merge(TableFile *f);
static void table_file_write_in_place(TableFile *f, char *warning, size_t size);
#endif

/* Makes the table file at path s's table and history, creating it with a table of about
 * megabytes (a power of two of buckets) when it does not exist or holds an older table of ours.
 * Returns 1, or 0 with s untouched and a reason in warning (empty when the file simply cannot
 * serve, which never happens quietly: every 0 sets one). */
int table_file_attach(TableFile *f, const char *path, size_t megabytes, Search *s, char *warning, size_t size)
{
    uint64_t count = 1;
    int ok;
    warning[0] = '\0';
    memset(f, 0, sizeof *f);
    while (count * 2 * table_bucket_size() <= megabytes * 1024 * 1024)
        count *= 2;
    if (strlen(path) >= sizeof f->path) {
        table_file_warn(warning, size, path, "is too long a path", 1);
        return 0;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    ok = HAVE_POSIX ? table_file_open(f, path, count, warning, size) : table_file_read(f, path, count, warning, size);
    if (ok && f->in_place && (f->written = calloc((size_t)(count + 7) / 8 + 1, 1)) == NULL) {
        /* without its marks of what it stored, the call could not keep other calls' buckets */
        table_file_abandon(f);
        table_file_warn(warning, size, path, "does not fit in memory", 1);
        return 0;
    }
    if (ok)
        table_file_use(f, s);
    return ok;
}

/* Gives s the table and history of the file f holds. */
static void table_file_use(TableFile *f, Search *s)
{
    TableFileHeader *h = (TableFileHeader *)f->base;
    unsigned char *buckets = f->base + sizeof *h;
    search_use_table(s, buckets, h->bucket_count, (int)h->age, buckets + h->bucket_count * table_bucket_size(), f->written);
}

/* Gives the file s's history and the age of its next search, and lets it go, written back; s
 * is left without a table. What went wrong with the write back is in warning. */
void table_file_detach(TableFile *f, Search *s, char *warning, size_t size)
{
    TableFileHeader *h = (TableFileHeader *)f->base;
    warning[0] = '\0';
    if (!f->base)
        return;
    h->age = (uint32_t)search_release_table(s, f->base + sizeof *h + h->bucket_count * table_bucket_size());
    table_file_release(f, warning, size);
}

/* The size of a table file whose table has bucket_count buckets. */
size_t table_file_size(uint64_t bucket_count)
{
    return sizeof(TableFileHeader) + (size_t)bucket_count * table_bucket_size() + table_history_size();
}

/* Fills the header of a new table file of bucket_count buckets. */
void table_file_header(TableFileHeader *h, uint64_t bucket_count)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, TABLE_FILE_MAGIC, sizeof h->magic);
    h->version = table_format();
    h->endian = TABLE_FILE_ENDIAN;
    h->signature = eval_signature();
    h->bucket_count = bucket_count;
    h->bucket_size = (uint32_t)table_bucket_size();
    h->history_size = (uint32_t)table_history_size();
}

/* Returns 1 if h heads a table file this build can use whose size is file_size, 0 if it is a
 * table file of ours it cannot use (another version, evaluation or size), -1 if it is not
 * ours at all. */
static int table_file_valid(const TableFileHeader *h, size_t file_size)
{
    uint64_t count = h->bucket_count;
    if (memcmp(h->magic, TABLE_FILE_MAGIC, sizeof h->magic) != 0)
        return -1;
    return h->version == table_format() && h->endian == TABLE_FILE_ENDIAN && h->signature == eval_signature()
           && h->bucket_size == table_bucket_size() && h->history_size == table_history_size() && count > 0
           && (count & (count - 1)) == 0 && count <= (SIZE_MAX - sizeof(TableFileHeader)) / table_bucket_size() / 2
           && table_file_size(count) == file_size;
}

/* Reads the table file at path whole (POSIX), keeping it open for the write back, creating it
 * with bucket_count buckets when it is missing, empty, or an older or damaged table of ours (a
 * file that is not ours is never touched). Returns 1, or 0 with a warning. */
static int table_file_open(TableFile *f, const char *path, uint64_t bucket_count, char *warning, size_t size)
{
#if HAVE_POSIX
    TableFileHeader h;
    struct stat st;
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC), valid;
    void *base;
    if (fd < 0 && errno == ENOENT)
        return table_file_create(f, path, bucket_count, "", warning, size);
    if (fd < 0) {
        table_file_warn(warning, size, path, errno == ELOOP ? "is a symbolic link, which is never followed" : strerror(errno), 1);
        return 0;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        table_file_warn(warning, size, path, "is not a regular file", 1);
        return 0;
    }
    if (st.st_size == 0) {
        close(fd);
        return table_file_create(f, path, bucket_count, "", warning, size);
    }
    memset(&h, 0, sizeof h);
    valid = pread(fd, &h, sizeof h, 0) > 0 ? table_file_valid(&h, (size_t)st.st_size) : -1;
    if (valid <= 0) {
        close(fd);
        if (valid < 0) {
            table_file_warn(warning, size, path, "is not a Boxer table file, so it is left as it is", 1);
            return 0;
        }
        return table_file_create(f, path, bucket_count, "held a table of another build or size, now replaced by an empty one",
                                 warning, size);
    }
    base = table_memory((size_t)st.st_size);
    if (!base || pread(fd, base, (size_t)st.st_size, 0) != (ssize_t)st.st_size) {
        table_file_warn(warning, size, path, base ? "could not be read whole" : "does not fit in memory", 1);
        table_memory_free(base, (size_t)st.st_size);
        close(fd);
        return 0;
    }
    f->base = base;
    f->size = (size_t)st.st_size;
    f->in_place = 1;
    f->fd = fd;
    return 1;
#else
    (void)f;
    (void)path;
    (void)bucket_count;
    snprintf(warning, size, "hash file: this build cannot open files in place");
    return 0;
#endif
}

#if HAVE_POSIX
/* Creates the table file at path with bucket_count empty buckets and keeps it open with an
 * empty table in memory (POSIX): written under a temporary name beside it, then renamed over
 * it, so that no call ever sees it half made. note, when not empty, becomes the warning of a
 * success. Returns 1, or 0 with a warning. */
static int table_file_create(TableFile *f, const char *path, uint64_t bucket_count, const char *note, char *warning,
                             size_t size)
{
    char tmp[sizeof f->path + 32];
    TableFileHeader h;
    size_t total = table_file_size(bucket_count);
    unsigned char *base = NULL;
    int fd, error;
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        table_file_warn(warning, size, path, strerror(errno), 1);
        return 0;
    }
    table_file_header(&h, bucket_count);
    /* the whole file's room is taken now: a full disk fails here, not in the middle of a search;
     * a file size limit (ulimit -f) fails too, and must not end the process with SIGXFSZ */
    signal(SIGXFSZ, SIG_IGN);
    error = posix_fallocate(fd, 0, (off_t)total);
    if (error == 0 && pwrite(fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
        error = errno ? errno : EIO;
    if (error == 0 && (base = table_memory(total)) == NULL)
        error = ENOMEM;
    if (error == 0 && rename(tmp, path) != 0)
        error = errno;
    if (error != 0) {
        close(fd);
        table_memory_free(base, total);
        unlink(tmp);
        table_file_warn(warning, size, path, strerror(error), 1);
        return 0;
    }
    memcpy(base, &h, sizeof h);
    f->base = base;
    f->size = total;
    f->in_place = 1;
    f->fd = fd;
    if (note[0])
        table_file_warn(warning, size, path, note, 0);
    return 1;
}

/* Before a table written in place goes back: the buckets this call did not store into are
 * taken from the file as it is now, so that the entries of calls that ran at the same time
 * (another game's, sharing the file) stay; those this call wrote win. The few milliseconds
 * between this read and the write back are left to chance. Returns 1, or 0 when the file could
 * not be read back (then writing it would overwrite the others' buckets). */
static int table_file_merge(TableFile *f)
{
    const TableFileHeader *h = (const TableFileHeader *)f->base;
    size_t bytes = (size_t)h->bucket_count * table_bucket_size(), i, bucket = table_bucket_size();
    unsigned char *mine = f->base + sizeof *h, *now = table_memory(bytes);
    int ok = now && pread(f->fd, now, bytes, sizeof *h) == (ssize_t)bytes;
    for (i = 0; ok && i < h->bucket_count; i++)
        if (!(f->written[i >> 3] & (1u << (i & 7))))
            memcpy(mine + i * bucket, now + i * bucket, bucket);
    table_memory_free(now, bytes);
    return ok;
}

/* Writes the table back in place (merged with what other calls wrote meanwhile) and closes the
 * file; what went wrong is in warning. */
static void table_file_write_in_place(TableFile *f, char *warning, size_t size)
{
    char reason[200];
    ssize_t written = -1;
    int merged = table_file_merge(f), error = 0;
    if (merged) {
        written = pwrite(f->fd, f->base, f->size, 0);
        error = written < 0 ? errno : 0;
    }
    if (close(f->fd) != 0 && written == (ssize_t)f->size)
        snprintf(reason, sizeof reason, "could not be closed after it was written back (%s)", strerror(errno));
    else if (!merged)
        snprintf(reason, sizeof reason, "was not written back, to keep the entries of other calls that share it "
                                        "(memory is short, or it could not be read again); it is as it was");
    else if (written <= 0)
        snprintf(reason, sizeof reason, "could not be written back (%s); it is as it was", strerror(error ? error : EIO));
    else if (written < (ssize_t)f->size)
        snprintf(reason, sizeof reason, "was written back only in part (%ld of %lu bytes); its entries stay checked "
                                        "before use", (long)written, (unsigned long)f->size);
    else
        return;
    table_file_warn(warning, size, f->path, reason, 0);
}
#endif

/* Reads the table file at path whole (without POSIX), or starts an empty table of bucket_count
 * buckets when there is none yet or it holds an older or damaged table of ours; it is written
 * back at table_file_detach. C99 cannot tell a regular file from a device, so anything that
 * opens and is not a table of ours, an empty file included (/dev/null reads as one), is left
 * alone. Returns 1, or 0 with a warning. */
static int table_file_read(TableFile *f, const char *path, uint64_t bucket_count, char *warning, size_t size)
{
    TableFileHeader h;
    FILE *in = fopen(path, "rb");
    long length = -1;
    int valid = 0;
    if (in && fseek(in, 0, SEEK_END) == 0)
        length = ftell(in);
    if (in && length > 0 && fseek(in, 0, SEEK_SET) == 0 && fread(&h, sizeof h, 1, in) == 1)
        valid = table_file_valid(&h, (size_t)length);
    else if (in)
        valid = -1;
    if (valid < 0) {
        fclose(in);
        table_file_warn(warning, size, path, "is not a Boxer table file, so it is left as it is", 1);
        return 0;
    }
    f->size = valid ? (size_t)length : table_file_size(bucket_count);
    f->base = table_memory(f->size);
    f->in_place = 0;
    if (f->base && valid && (fseek(in, 0, SEEK_SET) != 0 || fread(f->base, 1, f->size, in) != f->size)) {
        table_memory_free(f->base, f->size);
        f->base = NULL;
    }
    if (in)
        fclose(in);
    if (!f->base) {
        table_file_warn(warning, size, path, "cannot be read", 1);
        return 0;
    }
    if (!valid)
        table_file_header((TableFileHeader *)f->base, bucket_count);
    if (!valid && length > 0)
        table_file_warn(warning, size, path, "held a table of another build or size, now replaced by an empty one", 0);
    return 1;
}

/* Lets the table file go: written back in place (POSIX) or through a temporary file renamed
 * over it, and freed; what went wrong is in warning. */
static void table_file_release(TableFile *f, char *warning, size_t size)
{
    if (f->in_place) {
#if HAVE_POSIX
        table_file_write_in_place(f, warning, size);
#endif
    } else if (!table_file_copy_back(f)) {
        table_file_warn(warning, size, f->path, "could not be written; it is as it was", 0);
    }
    free(f->written);
    f->written = NULL;
    table_memory_free(f->base, f->size);
    f->base = NULL;
}

/* Lets the table file go unwritten: closed, and its memory freed. */
static void table_file_abandon(TableFile *f)
{
#if HAVE_POSIX
    if (f->in_place)
        close(f->fd);
#endif
    table_memory_free(f->base, f->size);
    f->base = NULL;
}

/* Writes the table into a temporary file beside the table file and renames it over it (C99's
 * way, where there is no writing in place); returns 1, or 0 with the file as it was. */
static int table_file_copy_back(TableFile *f)
{
    char tmp[sizeof f->path + 16];
    FILE *out;
    int ok;
    /* a name of its own for each process (its stack's address differs where addresses are
     * randomized, the clock elsewhere), so that calls at once do not write one file */
    snprintf(tmp, sizeof tmp, "%s.%lx.tmp", f->path, (unsigned long)((uintptr_t)&out ^ (uintptr_t)clock()) & 0xFFFFFFUL);
#ifdef SIGXFSZ
    signal(SIGXFSZ, SIG_IGN); /* a file size limit fails the write, not the process */
#endif
    out = fopen(tmp, "wb");
    ok = out && fwrite(f->base, 1, f->size, out) == f->size;
    ok = out && fclose(out) == 0 && ok;
    /* rename replaces the file where the system allows it; elsewhere the old one goes first */
    if (ok && rename(tmp, f->path) != 0)
        ok = remove(f->path) == 0 && rename(tmp, f->path) == 0;
    if (!ok)
        remove(tmp);
    return ok;
}

/* Writes "hash file 'PATH': REASON" into warning, and "; searching without it" when the call
 * searches cold (the path cut to 200 bytes). */
static void table_file_warn(char *warning, size_t size, const char *path, const char *reason, int cold)
{
    snprintf(warning, size, "hash file '%.200s': %s%s", path, reason, cold ? "; searching without it" : "");
}
