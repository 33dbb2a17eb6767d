/* Test plugin "escape": at every decision it tries to get out of its worker, then answers like
 * "lowest" (bids 0). The attempts, in order:
 *   cmdline  open /proc/HOST/cmdline (HOST: the worker's parent, read in create())
 *   passwd   open /etc/passwd
 *   fork     fork() (a child that got through exits at once)
 *   exec     execve of a path that does not exist (without a sandbox: ENOENT, the kernel
 *            looked; with one: EPERM, it never got that far)
 *   socket   socket(AF_INET, SOCK_STREAM)
 *   connect  connect() of a socket made in create(), to a Unix path that does not exist
 * and reports each one's errno: explain "escape: cmdline=EPERM passwd=0 ..." (0 = the call
 * succeeded), simulations = attempts made (6), nodes = attempts NOT refused with EPERM (what
 * a sandbox let through). For the tests of [shim] sandbox = on (isolation = process). No
 * parameters. */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tplug.h"

typedef struct escape {
    pid_t host;
    int sock; /* made before any sandbox, connected (or not) in decisions */
} escape;

static void *create(const cb_param *params, int n, char *err, size_t errlen)
{
    if (n > 0) {
        tplug_unknown("escape", &params[0], err, errlen);
        return NULL;
    }
    escape *e = malloc(sizeof *e);
    if (!e)
        return NULL;
    e->host = getppid();
    e->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    return e;
}

static void destroy(void *inst)
{
    escape *e = inst;
    if (e->sock >= 0)
        close(e->sock);
    free(e);
}

static const char *err_name(int e)
{
    switch (e) {
    case 0: return "0";
    case EPERM: return "EPERM";
    case EACCES: return "EACCES";
    case ENOENT: return "ENOENT";
    case ENOSYS: return "ENOSYS";
    case ECONNREFUSED: return "ECONNREFUSED";
    default: return "other";
    }
}

static int try_open(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    close(fd);
    return 0;
}

static void attempts(escape *e, cb_decision *out)
{
    int res[6];
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)e->host);
    res[0] = try_open(path);
    res[1] = try_open("/etc/passwd");
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    res[2] = pid < 0 ? errno : 0;
    if (pid > 0)
        waitpid(pid, NULL, 0);
    char *const argv[] = { "cardbot-escape", NULL };
    execve("/nonexistent/cardbot-escape", argv, argv + 1);
    res[3] = errno; /* execve returned: it failed */
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    res[4] = s < 0 ? errno : 0;
    if (s >= 0)
        close(s);
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    snprintf(sa.sun_path, sizeof sa.sun_path, "/nonexistent/cardbot-escape.sock");
    res[5] = e->sock < 0 ? EBADF : connect(e->sock, (const struct sockaddr *)&sa, sizeof sa) != 0 ? errno : 0;
    static const char *const what[6] = { "cmdline", "passwd", "fork", "exec", "socket", "connect" };
    int len = snprintf(out->explain, sizeof out->explain, "escape:");
    uint64_t through = 0;
    for (int i = 0; i < 6; i++) {
        through += res[i] != EPERM;
        if (len >= 0 && (size_t)len < sizeof out->explain)
            len += snprintf(out->explain + len, sizeof out->explain - (size_t)len, " %s=%s", what[i],
                            err_name(res[i]));
    }
    out->simulations = 6;
    out->nodes = through;
}

static int decide_bid(void *inst, const cb_view *v, cb_decision *out)
{
    (void)v;
    attempts(inst, out);
    out->bid = 0;
    return 0;
}

static int decide_play(void *inst, const cb_view *v, cb_decision *out)
{
    attempts(inst, out);
    return tplug_lowest(v, &out->cards);
}

static const cb_bot bot = {
    CB_ABI_VERSION, sizeof(cb_bot), "escape", "1.0", create, destroy, decide_bid, decide_play,
};
TPLUG_ENTRY(bot)
