/* cardbot shim — loading one strategy plugin and checking it can be trusted to be called.
 *
 * Checks, in order (as SQLite's loadext and nginx's module signature do): the file loads with
 * every symbol resolved now (RTLD_NOW, so a missing symbol fails here and not mid-game); it
 * exports cb_plugin_entry; the entry returns a table; the table's ABI major is ours; the table
 * is at least as large as the members this shim calls; the functions we cannot do without are
 * there. A refused plugin is dlclose'd again.
 *
 * Loading new bytes at an old path. dlopen() finds an object by its name first: while a
 * config that loaded PATH is alive (a reload keeps the old one until its last table has
 * switched), dlopen(PATH) returns that old object even when a new build has been renamed over
 * PATH, and the new code would never run. So each load reads the file through one descriptor
 * (its fstat is the identity recorded, its bytes are hashed) and asks dlopen with RTLD_NOLOAD
 * whether the name is taken. When it is, the object behind it is compared with the file (the
 * dev/inode of its mapping in /proc/self/maps): the same file is simply shared; another one
 * means the bytes are copied into a memfd and loaded as /proc/self/fd/N — a name nobody else
 * uses, so old and new code are live side by side until the old config goes. Such a copy
 * loses nothing a plugin relies on (the plugins' only dependency, libcardbot.so.1, is found
 * already loaded by its soname), but $ORIGIN in a plugin's own RUNPATH then names
 * /proc/self/fd: a plugin that needs a private library next to it must be deployed under a
 * new file name instead. The normal case — a first load — is a plain dlopen of the path.
 * Where /proc/self/maps cannot vouch for the object (no /proc; or an overlay file system,
 * whose mappings show the lower file's device), a taken name counts as other bytes: the cost
 * is a private copy where sharing would have done, never old code for a new file.
 *
 * Under process isolation the host never maps a plugin (a constructor that crashes, or a
 * library that spawns threads at load, must not touch the host): shim_plugin_read only reads
 * the file — identity, SHA-256 and a sealed memfd copy of those very bytes — and every worker
 * loads it after fork (shim_plugin_open_worker), with the same checks. Since there is no
 * dynamic linker in the host to tell which names are taken, the shim keeps that record itself
 * (shim_names), so a reload decides "the path or a private copy" exactly as in-process and
 * cb_seat_info reports the same. A worker loads by the path (so $ORIGIN in the plugin's
 * RUNPATH works) while the file there is still the one the conf read; after a deploy it loads
 * the conf's copy, so an old config's restarted worker never runs a newer build by accident.
 */
#include "shim_int.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The members this shim calls: everything up to decide_play. */
#define BOT_MIN_SIZE (offsetof(cb_bot, decide_play) + sizeof(((cb_bot *)0)->decide_play))
/* dlopen of a private copy whose /proc/self/fd name a lingering object (one its plugin made
 * undeletable) still holds: retried under other descriptor numbers this many times. */
#define COPY_TRIES 4

static void id_of_stat(const struct stat *st, shim_file_id *id)
{
    id->dev = (uint64_t)st->st_dev;
    id->ino = (uint64_t)st->st_ino;
    id->size = (int64_t)st->st_size;
    id->mtime_sec = (int64_t)st->st_mtim.tv_sec;
    id->mtime_nsec = (int64_t)st->st_mtim.tv_nsec;
}

int shim_file_id_of(const char *path, shim_file_id *id)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    id_of_stat(&st, id);
    return 0;
}

bool shim_file_id_equal(const shim_file_id *a, const shim_file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_sec == b->mtime_sec && a->mtime_nsec == b->mtime_nsec;
}

__attribute__((format(printf, 4, 5)))
static shim_plugin *refuse(void *dl, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    if (dl)
        dlclose(dl);
    return NULL;
}

/* dlerror()'s text without the leading "NAME: " glibc repeats. */
static const char *dl_message(const char *name)
{
    const char *e = dlerror();
    if (!e)
        return "unknown error";
    size_t n = strlen(name);
    if (strncmp(e, name, n) == 0 && e[n] == ':' && e[n + 1] == ' ')
        e += n + 2;
    return e;
}

/* Is the object dl mapped from the file id? 1 yes, 0 no, -1 cannot tell (no /proc). Its
 * dynamic section lies in a mapping of its file; /proc/self/maps names that file's device
 * and inode. */
static int object_is_file(void *dl, const shim_file_id *id)
{
    struct link_map *lm = NULL;
    if (dlinfo(dl, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_ld)
        return -1;
    uintptr_t addr = (uintptr_t)lm->l_ld;
    FILE *fp = fopen("/proc/self/maps", "re");
    if (!fp)
        return -1;
    int res = -1;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, fp) > 0) {
        unsigned long lo, hi, off, ino;
        unsigned maj, min;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu", &lo, &hi, perms, &off, &maj, &min, &ino) != 7)
            continue;
        if (addr < lo || addr >= hi)
            continue;
        res = maj == major((dev_t)id->dev) && min == minor((dev_t)id->dev) && ino == id->ino;
        break;
    }
    free(line);
    fclose(fp);
    return res;
}

/* Read all of fd, hashing it into sha (hex) and, when to >= 0, copying it there. 0 or errno. */
static int read_file(int fd, int to, char sha[65])
{
    GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
    enum { CHUNK = 1 << 16 };
    unsigned char *buf = g_malloc(CHUNK);
    int rc = 0;
    for (;;) {
        ssize_t n = read(fd, buf, CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = errno;
            break;
        }
        if (n == 0)
            break;
        g_checksum_update(ck, buf, (gssize)n);
        for (ssize_t done = 0; to >= 0 && done < n;) {
            ssize_t w = write(to, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                rc = w < 0 ? errno : EIO;
                break;
            }
            done += w;
        }
        if (rc)
            break;
    }
    g_strlcpy(sha, g_checksum_get_string(ck), 65);
    g_free(buf);
    g_checksum_free(ck);
    return rc;
}

/* dlopen the memfd copy under a /proc/self/fd name that really is this copy. On success the
 * handle, *memfd possibly moved to another number. NULL with dlerror's text in msg. */
static void *open_copy(int *memfd, char *msg, size_t msglen)
{
    struct stat st;
    shim_file_id cid;
    if (fstat(*memfd, &st) != 0) {
        snprintf(msg, msglen, "fstat of its copy: %s", strerror(errno));
        return NULL;
    }
    id_of_stat(&st, &cid);
    for (int k = 0; k < COPY_TRIES; k++) {
        char name[40];
        snprintf(name, sizeof name, "/proc/self/fd/%d", *memfd);
        dlerror();
        void *dl = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (!dl) {
            snprintf(msg, msglen, "%s", dl_message(name));
            return NULL;
        }
        if (object_is_file(dl, &cid) != 0)
            return dl; /* our copy (or no /proc to tell: the fresh name is ours in practice) */
        /* the name belongs to an object that outlived its descriptor: take another number */
        dlclose(dl);
        int nfd = fcntl(*memfd, F_DUPFD_CLOEXEC, *memfd + 1);
        if (nfd < 0)
            break;
        close(*memfd);
        *memfd = nfd;
    }
    snprintf(msg, msglen, "no free /proc/self/fd name for its copy");
    return NULL;
}

/* The checked cb_bot of a loaded object, or NULL with the message (dl stays open). */
static const cb_bot *entry_of(void *dl, const char *path, char *err, size_t errlen)
{
    /* dlsym returns the address as void *; POSIX guarantees it converts to a function pointer */
    void *sym = dlsym(dl, CB_PLUGIN_ENTRY);
    if (!sym) {
        refuse(NULL, err, errlen, "%s: no entry point %s", path, CB_PLUGIN_ENTRY);
        return NULL;
    }
    cb_plugin_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry);
    const cb_bot *bot = entry();
    if (!bot) {
        refuse(NULL, err, errlen, "%s: %s returned NULL", path, CB_PLUGIN_ENTRY);
        return NULL;
    }
    /* abi_version and struct_size are the first two members in every ABI: safe to read */
    if (CB_ABI_MAJOR_OF(bot->abi_version) != CB_ABI_MAJOR) {
        refuse(NULL, err, errlen, "%s: built for ABI %u.%u, this shim speaks %d.x", path,
               (unsigned)CB_ABI_MAJOR_OF(bot->abi_version), (unsigned)(bot->abi_version & 0xFFFFu),
               CB_ABI_MAJOR);
        return NULL;
    }
    if (bot->struct_size < BOT_MIN_SIZE) {
        refuse(NULL, err, errlen,
               "%s: its cb_bot is %u bytes, this shim needs at least %zu (not binary compatible)",
               path, (unsigned)bot->struct_size, (size_t)BOT_MIN_SIZE);
        return NULL;
    }
    const char *missing = !bot->create ? "create" : !bot->destroy ? "destroy"
                        : !bot->decide_play ? "decide_play" : NULL;
    if (missing) {
        refuse(NULL, err, errlen, "%s: cb_bot has no %s function", path, missing);
        return NULL;
    }
    /* decide_bid may be NULL (a PDK-only plugin without 包庄): such a bid counts as failed */
    return bot;
}

static shim_plugin *plugin_load(const char *path, unsigned gen, char *err, size_t errlen);
static void loader_lock(shim_names *n);
static void loader_unlock(shim_names *n);

shim_plugin *shim_plugin_load(const char *path, unsigned gen, shim_names *names, char *err,
                              size_t errlen)
{
    /* every dlopen / dlclose of the load under the loader lock: no worker forks meanwhile */
    loader_lock(names);
    shim_plugin *p = plugin_load(path, gen, err, errlen);
    loader_unlock(names);
    if (p)
        p->names = names;
    return p;
}

/* The plugin file opened for reading, with its stat: a regular file (a directory or a device
 * is refused by name, before dlopen could say something less clear). The descriptor, or -1
 * with err set. */
static int open_plugin_file(const char *path, struct stat *st, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        refuse(NULL, err, errlen, "cannot load %s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        int e = errno;
        close(fd);
        refuse(NULL, err, errlen, "cannot load %s: %s", path, strerror(e));
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        refuse(NULL, err, errlen, "cannot load %s: %s", path,
               S_ISDIR(st->st_mode) ? "a directory" : "not a regular file");
        return -1;
    }
    return fd;
}

static shim_plugin *plugin_load(const char *path, unsigned gen, char *err, size_t errlen)
{
    struct stat st;
    int fd = open_plugin_file(path, &st, err, errlen);
    if (fd < 0)
        return NULL;
    shim_file_id id;
    id_of_stat(&st, &id);

    /* the name taken by another file -> a private copy; by this file -> share it */
    dlerror();
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    bool copy = false;
    if (dl && object_is_file(dl, &id) != 1) {
        dlclose(dl);
        dl = NULL;
        copy = true;
    }
    int memfd = -1;
    if (copy) {
        char mname[64];
        snprintf(mname, sizeof mname, "cbplug:%s", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
        memfd = memfd_create(mname, MFD_CLOEXEC);
        if (memfd < 0) {
            int e = errno;
            close(fd);
            return refuse(NULL, err, errlen, "cannot load %s: it changed since it was loaded, and "
                          "its private copy cannot be made (memfd_create: %s)", path, strerror(e));
        }
    }
    char sha[65];
    int rc = read_file(fd, memfd, sha);
    close(fd);
    if (rc != 0) {
        if (dl)
            dlclose(dl);
        if (memfd >= 0)
            close(memfd);
        return refuse(NULL, err, errlen, "cannot load %s: %s", path, strerror(rc));
    }
    if (copy) {
        char msg[512];
        dl = open_copy(&memfd, msg, sizeof msg);
        if (!dl) {
            close(memfd);
            return refuse(NULL, err, errlen, "cannot load %s (a private copy: the file changed "
                          "since it was loaded): %s", path, msg);
        }
    } else if (!dl) {
        dlerror(); /* clear a stale message */
        dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!dl)
            return refuse(NULL, err, errlen, "cannot load %s: %s", path, dl_message(path));
    }

    /* from here on a refusal must close the copy too */
    const cb_bot *bot = entry_of(dl, path, err, errlen);
    if (!bot) {
        dlclose(dl);
        if (memfd >= 0)
            close(memfd);
        return NULL;
    }
    shim_plugin *res = g_new0(shim_plugin, 1);
    atomic_init(&res->refs, 1);
    res->path = g_strdup(path);
    res->id = id;
    memcpy(res->sha256, sha, sizeof res->sha256);
    res->gen = gen;
    res->private_copy = copy;
    res->memfd = memfd;
    res->dl = dl;
    res->bot = bot;
    shim_plugin_describe(res, bot->name, bot->version, bot->abi_version, bot->decide_bid != NULL);
    return res;
}

void shim_plugin_describe(shim_plugin *p, const char *name, const char *version,
                          uint32_t abi_version, bool has_bid)
{
    if (p->described)
        return;
    p->name = g_strdup(name ? name : "");
    p->version = g_strdup(version ? version : "");
    p->abi_version = abi_version;
    p->has_bid = has_bid;
    p->described = true;
}

/* ---- process isolation: the host reads, the worker loads ---- */

struct shim_names {
    pthread_mutex_t lock;
    GHashTable *held; /* path -> GPtrArray of the live records loaded from it (not copies) */
    pthread_rwlock_t loader; /* forks shared, dlopen / dlclose alone (shim_int.h) */
};

shim_names *shim_names_new(void)
{
    shim_names *n = g_new0(shim_names, 1);
    pthread_mutex_init(&n->lock, NULL);
    n->held = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
    /* writers first: a steady stream of worker starts must not keep a reload waiting */
    pthread_rwlockattr_t at;
    pthread_rwlockattr_init(&at);
    pthread_rwlockattr_setkind_np(&at, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&n->loader, &at);
    pthread_rwlockattr_destroy(&at);
    return n;
}

void shim_names_free(shim_names *n)
{
    if (!n)
        return;
    g_hash_table_destroy(n->held);
    pthread_rwlock_destroy(&n->loader);
    pthread_mutex_destroy(&n->lock);
    g_free(n);
}

void shim_names_fork_begin(shim_names *n)
{
    if (n)
        pthread_rwlock_rdlock(&n->loader);
}

void shim_names_fork_end(shim_names *n)
{
    if (n)
        pthread_rwlock_unlock(&n->loader);
}

static void loader_lock(shim_names *n)
{
    if (n)
        pthread_rwlock_wrlock(&n->loader);
}

static void loader_unlock(shim_names *n)
{
    if (n)
        pthread_rwlock_unlock(&n->loader);
}

/* Is path's name taken by a live record of other bytes? If not, p (loaded from the path)
 * registers itself as one holding it. */
static bool names_take(shim_names *n, shim_plugin *p)
{
    pthread_mutex_lock(&n->lock);
    GPtrArray *a = g_hash_table_lookup(n->held, p->path);
    bool other = false;
    for (guint i = 0; a && i < a->len && !other; i++)
        other = !shim_file_id_equal(&((const shim_plugin *)g_ptr_array_index(a, i))->id, &p->id);
    if (!other) {
        if (!a) {
            a = g_ptr_array_new();
            g_hash_table_insert(n->held, g_strdup(p->path), a);
        }
        g_ptr_array_add(a, p);
        p->registered = true;
    }
    pthread_mutex_unlock(&n->lock);
    return !other;
}

static void names_drop(shim_names *n, shim_plugin *p)
{
    pthread_mutex_lock(&n->lock);
    GPtrArray *a = g_hash_table_lookup(n->held, p->path);
    if (a) {
        g_ptr_array_remove_fast(a, p);
        if (a->len == 0)
            g_hash_table_remove(n->held, p->path);
    }
    pthread_mutex_unlock(&n->lock);
}

shim_plugin *shim_plugin_read(const char *path, unsigned gen, shim_names *names, char *err,
                              size_t errlen)
{
    struct stat st;
    int fd = open_plugin_file(path, &st, err, errlen);
    if (fd < 0)
        return NULL;
    /* the copy every worker of this conf may load: sealed, so nothing (a plugin in another
     * worker that kept the descriptor, say) can change the bytes the conf hashed */
    char mname[64];
    snprintf(mname, sizeof mname, "cbplug:%s", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
    int memfd = memfd_create(mname, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (memfd < 0) {
        int e = errno;
        close(fd);
        return refuse(NULL, err, errlen, "cannot load %s: its copy for the workers cannot be made "
                      "(memfd_create: %s)", path, strerror(e));
    }
    shim_plugin *p = g_new0(shim_plugin, 1);
    atomic_init(&p->refs, 1);
    id_of_stat(&st, &p->id);
    int rc = read_file(fd, memfd, p->sha256);
    close(fd);
    if (rc == 0 && fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)
        rc = errno;
    if (rc != 0) {
        close(memfd);
        g_free(p);
        return refuse(NULL, err, errlen, "cannot load %s: %s", path, strerror(rc));
    }
    p->path = g_strdup(path);
    p->gen = gen;
    p->isolated = true;
    p->memfd = memfd;
    p->names = names;
    p->private_copy = names && !names_take(names, p);
    return p;
}

__attribute__((format(printf, 3, 4)))
static const cb_bot *worker_refuse(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return NULL;
}

const cb_bot *shim_plugin_open_worker(const shim_plugin *p, int copy_fd, char *err, size_t errlen)
{
    /* by the path while it still names the bytes the conf read, as the host would load them */
    bool copy = p->private_copy;
    shim_file_id now;
    if (!copy && (shim_file_id_of(p->path, &now) != 0 || !shim_file_id_equal(&now, &p->id)))
        copy = true;
    void *dl = NULL;
    if (!copy) {
        dlerror();
        dl = dlopen(p->path, RTLD_NOW | RTLD_LOCAL);
        if (!dl)
            return worker_refuse(err, errlen, "cannot load %s: %s", p->path, dl_message(p->path));
        /* other bytes under that name: the host has them loaded itself (an in-process shim
         * beside this one), or a deploy renamed a file over the path since the stat */
        if (object_is_file(dl, &p->id) == 0) {
            dlclose(dl);
            dl = NULL;
            copy = true;
        }
    }
    if (copy) {
        char msg[512];
        int fd = copy_fd;
        dl = open_copy(&fd, msg, sizeof msg);
        if (!dl)
            return worker_refuse(err, errlen, "cannot load %s (its copy: the file changed since "
                                 "the config read it): %s", p->path, msg);
    }
    const cb_bot *bot = entry_of(dl, p->path, err, errlen);
    if (!bot)
        dlclose(dl);
    return bot;
}

shim_plugin *shim_plugin_ref(shim_plugin *p)
{
    atomic_fetch_add_explicit(&p->refs, 1, memory_order_relaxed);
    return p;
}

void shim_plugin_unref(shim_plugin *p)
{
    if (!p || atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) != 1)
        return;
    if (p->registered)
        names_drop(p->names, p);
    if (p->dl) {
        loader_lock(p->names);
        dlclose(p->dl);
        loader_unlock(p->names);
    }
    if (p->memfd >= 0)
        close(p->memfd); /* after dlclose: the name stays ours while the object may live */
    g_free(p->name);
    g_free(p->version);
    g_free(p->path);
    g_free(p);
}
