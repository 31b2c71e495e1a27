# A job handed from the search's main thread to its helper thread, and back.
#
# Invariants:
# - `state` is IDLE (no job), POSTED (a job waits for the helper) or RUNNING (the helper is
#   doing it). Only the main thread goes IDLE -> POSTED (post) and POSTED -> IDLE (withdraw:
#   the helper never started it, the main thread did the work alone); only the helper goes
#   POSTED -> RUNNING (a compare-and-swap decides the race with withdraw) and RUNNING -> IDLE
#   (finish). So the main thread may reuse a job's memory once the state is IDLE again.
# - Neither side spins for long: a waiter polls SPIN_ROUNDS times (a job often starts or
#   ends within microseconds), then sleeps on a condition variable. A waiting thread then
#   costs nothing, and the main thread never waits for a helper that has not started, so a
#   second thread on a busy machine cannot make a search much slower.
# - state, job and quit are written under `lock` or by compare-and-swap (so no wake-up is
#   lost), and read atomically outside it.
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
    static inline int nimmt_cas(int* p, int expected, int desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST,
                                           __ATOMIC_SEQ_CST);
    }
    #if defined(__x86_64__) || defined(__i386__)
    #define nimmt_relax() __builtin_ia32_pause()
    #else
    #define nimmt_relax() ((void)0)
    #endif
    """
    int fetch_add "nimmt_fetch_add" (int*, int) nogil
    int atomic_load "nimmt_load" (int*) nogil
    void atomic_store "nimmt_store" (int*, int) nogil
    bint compare_and_swap "nimmt_cas" (int* p, int expected, int desired) nogil
    void* load_ptr "nimmt_load" (void**) nogil
    void store_ptr "nimmt_store" (void**, void*) nogil
    void relax "nimmt_relax" () nogil

cdef enum:
    SPIN_ROUNDS = 2000     # polls before sleeping: a few microseconds
    IDLE = 0
    POSTED = 1
    RUNNING = 2

cdef struct Handoff:
    int state              # IDLE, POSTED or RUNNING
    void* job              # the job posted or running
    int quit               # the search is over: the helper ends
    pthread_mutex_t lock
    pthread_cond_t posted  # a job posted, or quit
    pthread_cond_t done    # a job finished


cdef inline void handoff_init(Handoff* h) noexcept nogil:
    h.state = IDLE
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
    return atomic_load(&h.state) == IDLE


cdef inline void post(Handoff* h, void* job) noexcept nogil:
    """Main thread: hand `job` to the idle helper."""
    pthread_mutex_lock(&h.lock)
    store_ptr(&h.job, job)
    atomic_store(&h.state, POSTED)
    pthread_cond_signal(&h.posted)
    pthread_mutex_unlock(&h.lock)


cdef inline void* next_job(Handoff* h) noexcept nogil:
    """Helper: the next job (now RUNNING), NULL when told to quit."""
    cdef int n
    for n in range(SPIN_ROUNDS):
        if atomic_load(&h.quit):
            return NULL
        if atomic_load(&h.state) == POSTED and compare_and_swap(&h.state, POSTED, RUNNING):
            return load_ptr(&h.job)
        relax()
    pthread_mutex_lock(&h.lock)
    while not h.quit and not compare_and_swap(&h.state, POSTED, RUNNING):
        pthread_cond_wait(&h.posted, &h.lock)
    pthread_mutex_unlock(&h.lock)
    return NULL if h.quit else load_ptr(&h.job)


cdef inline void finish(Handoff* h) noexcept nogil:
    """Helper: the job is done."""
    pthread_mutex_lock(&h.lock)
    atomic_store(&h.state, IDLE)
    pthread_cond_signal(&h.done)
    pthread_mutex_unlock(&h.lock)


cdef inline bint wait_done(Handoff* h) noexcept nogil:
    """Main thread, its own share of the job done: withdraw the job if the helper has not
    started it (False), else wait until the helper has finished it (True)."""
    cdef int n
    if compare_and_swap(&h.state, POSTED, IDLE):
        return False
    for n in range(SPIN_ROUNDS):
        if atomic_load(&h.state) == IDLE:
            return True
        relax()
    pthread_mutex_lock(&h.lock)
    while h.state != IDLE:
        pthread_cond_wait(&h.done, &h.lock)
    pthread_mutex_unlock(&h.lock)
    return True


cdef inline void tell_quit(Handoff* h) noexcept nogil:
    """Main thread, the helper idle: end the helper's loop."""
    pthread_mutex_lock(&h.lock)
    atomic_store(&h.quit, 1)
    pthread_cond_signal(&h.posted)
    pthread_mutex_unlock(&h.lock)
