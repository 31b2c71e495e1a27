# A job handed from the search's main thread to its helper thread, and back.
#
# Invariants:
# - `job` is NULL (the helper is idle) or the job the helper is doing; only the main thread
#   sets it non-NULL (post), only the helper clears it (finish). So the main thread may
#   reuse a job's memory once it has read job == NULL.
# - Neither side spins for long: a waiter polls SPIN_ROUNDS times (a job often starts or
#   ends within microseconds), then sleeps on a condition variable. A waiting thread then
#   costs nothing, so a second thread on a busy machine cannot make a search much slower.
# - job and quit are written under `lock` (so no wake-up is lost) and read atomically
#   outside it.
# - init before the helper thread starts, destroy after it is joined.

cdef extern from "<pthread.h>" nogil:
    ctypedef struct pthread_mutex_t:
        pass
    ctypedef struct pthread_cond_t:
        pass
    int pthread_mutex_init(pthread_mutex_t* mutex, const void* attr)
    int pthread_mutex_destroy(pthread_mutex_t* mutex)
    int pthread_mutex_lock(pthread_mutex_t* mutex)
    int pthread_mutex_unlock(pthread_mutex_t* mutex)
    int pthread_cond_init(pthread_cond_t* cond, const void* attr)
    int pthread_cond_destroy(pthread_cond_t* cond)
    int pthread_cond_wait(pthread_cond_t* cond, pthread_mutex_t* mutex)
    int pthread_cond_signal(pthread_cond_t* cond)

cdef extern from *:
    """
    #define nimmt_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
    #define nimmt_load(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
    #define nimmt_store(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
    #if defined(__x86_64__) || defined(__i386__)
    #define nimmt_relax() __builtin_ia32_pause()
    #else
    #define nimmt_relax() ((void)0)
    #endif
    """
    int fetch_add "nimmt_fetch_add" (int*, int) nogil
    int atomic_load "nimmt_load" (int*) nogil
    void atomic_store "nimmt_store" (int*, int) nogil
    void* load_ptr "nimmt_load" (void**) nogil
    void store_ptr "nimmt_store" (void**, void*) nogil
    void relax "nimmt_relax" () nogil

cdef enum:
    SPIN_ROUNDS = 2000     # polls before sleeping: a few microseconds

cdef struct Handoff:
    void* job              # NULL: idle
    int quit               # the search is over: the helper ends
    pthread_mutex_t lock
    pthread_cond_t posted  # job set, or quit
    pthread_cond_t done    # job cleared


cdef inline void handoff_init(Handoff* h) noexcept nogil:
    h.job = NULL
    h.quit = 0
    pthread_mutex_init(&h.lock, NULL)
    pthread_cond_init(&h.posted, NULL)
    pthread_cond_init(&h.done, NULL)


cdef inline void handoff_destroy(Handoff* h) noexcept nogil:
    pthread_cond_destroy(&h.done)
    pthread_cond_destroy(&h.posted)
    pthread_mutex_destroy(&h.lock)


cdef inline bint is_idle(Handoff* h) noexcept nogil:
    return load_ptr(&h.job) == NULL


cdef inline void post(Handoff* h, void* job) noexcept nogil:
    """Main thread: hand `job` to the idle helper."""
    pthread_mutex_lock(&h.lock)
    store_ptr(&h.job, job)
    pthread_cond_signal(&h.posted)
    pthread_mutex_unlock(&h.lock)


cdef inline void* next_job(Handoff* h) noexcept nogil:
    """Helper: the next job, NULL when told to quit."""
    cdef int n
    cdef void* job
    for n in range(SPIN_ROUNDS):
        if atomic_load(&h.quit):
            return NULL
        job = load_ptr(&h.job)
        if job != NULL:
            return job
        relax()
    pthread_mutex_lock(&h.lock)
    while h.job == NULL and not h.quit:
        pthread_cond_wait(&h.posted, &h.lock)
    job = NULL if h.quit else h.job
    pthread_mutex_unlock(&h.lock)
    return job


cdef inline void finish(Handoff* h) noexcept nogil:
    """Helper: the job is done."""
    pthread_mutex_lock(&h.lock)
    store_ptr(&h.job, NULL)
    pthread_cond_signal(&h.done)
    pthread_mutex_unlock(&h.lock)


cdef inline void wait_done(Handoff* h) noexcept nogil:
    """Main thread: wait until the helper has finished its job."""
    cdef int n
    for n in range(SPIN_ROUNDS):
        if load_ptr(&h.job) == NULL:
            return
        relax()
    pthread_mutex_lock(&h.lock)
    while h.job != NULL:
        pthread_cond_wait(&h.done, &h.lock)
    pthread_mutex_unlock(&h.lock)


cdef inline void tell_quit(Handoff* h) noexcept nogil:
    """Main thread, the helper idle: end the helper's loop."""
    pthread_mutex_lock(&h.lock)
    atomic_store(&h.quit, 1)
    pthread_cond_signal(&h.posted)
    pthread_mutex_unlock(&h.lock)
