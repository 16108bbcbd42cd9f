/* The time limit's last resort: a thread that runs outside Python's lock.
 *
 * The command line's watchdog (core.limits.watchdog) is a Python thread, so it cannot run
 * while a native call keeps Python's lock: a 3 s call that held it delayed a 0.5 s watchdog
 * to 3.0 s. This thread needs no lock. At its time it writes the answer it was last given to
 * a file descriptor and ends the process with _exit and that answer's code, unless Python has
 * claimed the answer: then it waits until Python says it has answered and ends the process
 * with Python's code (the clean-up still running is cut short, as by a kill -9, which every
 * lane and CBC watcher already survives).
 *
 * arm(at, fd)          start the thread; `at` on time.monotonic()'s clock (CLOCK_MONOTONIC)
 * answer(text, code)   the answer to write if it fires (ignored once it has fired)
 * claim() -> bool      Python is about to answer; False when this thread already has
 * answered(code)       Python has printed its answer and flushed it; `code` is its exit code
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { ARMED, CLAIMED, ANSWERED, FIRED };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int state = ARMED;
static int started = 0;
static int out_fd = 1;
static struct timespec when;
static char *text = NULL;
static size_t text_len = 0;
static int text_code = 4;
static int answered_code = 0;

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return; /* a closed pipe: nothing more can be said */
        }
        p += w;
        n -= (size_t)w;
    }
}

static void *run(void *unused)
{
    (void)unused;
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, NULL) == EINTR)
        ;
    for (;;) {
        pthread_mutex_lock(&lock);
        if (state == ARMED) {
            state = FIRED; /* from here `text` is never replaced */
            pthread_mutex_unlock(&lock);
            if (text != NULL)
                write_all(out_fd, text, text_len);
            _exit(text_code);
        }
        if (state == ANSWERED)
            _exit(answered_code);
        pthread_mutex_unlock(&lock);
        struct timespec pause = {0, 20 * 1000 * 1000}; /* Python is printing its answer */
        nanosleep(&pause, NULL);
    }
    return NULL;
}

static PyObject *arm(PyObject *self, PyObject *args)
{
    double at;
    int fd;
    if (!PyArg_ParseTuple(args, "di", &at, &fd))
        return NULL;
    if (started) {
        PyErr_SetString(PyExc_RuntimeError, "the last resort is armed once per process");
        return NULL;
    }
    when.tv_sec = (time_t)at;
    when.tv_nsec = (long)((at - (double)when.tv_sec) * 1e9);
    out_fd = fd;
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int err = pthread_create(&thread, &attr, run, NULL);
    pthread_attr_destroy(&attr);
    if (err != 0) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    started = 1;
    Py_RETURN_NONE;
}

static PyObject *answer(PyObject *self, PyObject *args)
{
    const char *data;
    Py_ssize_t len;
    int code;
    if (!PyArg_ParseTuple(args, "y#i", &data, &len, &code))
        return NULL;
    char *copy = malloc(len > 0 ? (size_t)len : 1);
    if (copy == NULL)
        return PyErr_NoMemory();
    memcpy(copy, data, (size_t)len);
    pthread_mutex_lock(&lock);
    if (state == FIRED) {
        pthread_mutex_unlock(&lock);
        free(copy);
        Py_RETURN_NONE;
    }
    char *old = text;
    text = copy;
    text_len = (size_t)len;
    text_code = code;
    pthread_mutex_unlock(&lock);
    free(old);
    Py_RETURN_NONE;
}

static PyObject *claim(PyObject *self, PyObject *unused)
{
    pthread_mutex_lock(&lock);
    int ok = state != FIRED;
    if (state == ARMED)
        state = CLAIMED;
    pthread_mutex_unlock(&lock);
    return PyBool_FromLong(ok);
}

static PyObject *answered(PyObject *self, PyObject *args)
{
    int code;
    if (!PyArg_ParseTuple(args, "i", &code))
        return NULL;
    pthread_mutex_lock(&lock);
    if (state != FIRED) {
        state = ANSWERED;
        answered_code = code;
    }
    pthread_mutex_unlock(&lock);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"arm", arm, METH_VARARGS, "arm(at, fd): start the thread that fires at `at`"},
    {"answer", answer, METH_VARARGS, "answer(text, code): what to write, and the exit code"},
    {"claim", claim, METH_NOARGS, "claim() -> bool: Python answers; False if already fired"},
    {"answered", answered, METH_VARARGS, "answered(code): Python's answer is out"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_deadline", NULL, -1, methods};

PyMODINIT_FUNC PyInit__deadline(void) { return PyModule_Create(&module); }
