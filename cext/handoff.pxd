# A job handed by one worker of a search (the main thread or a helper) to an idle helper
# thread of the pool, and back.
#
# Invariants:
# - A helper's `state` goes IDLE -> CLAIMED -> POSTED -> RUNNING -> DONE -> IDLE, or
#   POSTED -> IDLE (withdrawn). Any worker may claim an IDLE helper, by compare-and-swap:
#   one claim wins; from then on the claimer owns the job until it sets IDLE again. The
#   claimer writes the job and posts it (POSTED); the helper takes it by compare-and-swap
#   (RUNNING), which decides the race with the claimer's withdraw (POSTED -> IDLE: the
#   helper never started, the claimer did the work alone). The helper says DONE; only then
#   may the claimer read what the job left (the helper touches it no more), and it sets IDLE
#   after: no other worker can claim the helper, and overwrite the job, before.
# - Neither side spins for long: a waiter polls SPIN_ROUNDS times, yielding the core each
#   time to any other runnable thread (a job often starts or ends within microseconds), then
#   sleeps on a condition variable. On a busy machine a waiting thread gives its core away
#   at once, and a claimer never waits for a helper that has not started, so more threads
#   than free cores cannot make a search much slower.
# - state and quit are written under `lock` or by compare-and-swap (so no wake-up is lost),
#   and read atomically outside it.
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

cdef extern from "<sched.h>" nogil:
    int sched_yield()

cdef extern from *:
    """
    #define nimmt_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
    #define nimmt_load(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
    #define nimmt_store(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
    static inline int nimmt_cas(int* p, int expected, int desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST,
                                           __ATOMIC_SEQ_CST);
    }
    """
    int fetch_add "nimmt_fetch_add" (int*, int) nogil
    int atomic_load "nimmt_load" (int*) nogil
    void atomic_store "nimmt_store" (int*, int) nogil
    bint compare_and_swap "nimmt_cas" (int* p, int expected, int desired) nogil
    void* load_ptr "nimmt_load" (void**) nogil
    void store_ptr "nimmt_store" (void**, void*) nogil

cdef enum:
    SPIN_ROUNDS = 200      # polls (each a yield) before sleeping: microseconds on a free core
    IDLE = 0
    CLAIMED = 1
    POSTED = 2
    RUNNING = 3
    DONE = 4

cdef struct Handoff:
    int state              # IDLE, CLAIMED, POSTED, RUNNING or DONE
    int quit               # the search is over: the helper ends
    pthread_mutex_t lock
    pthread_cond_t posted  # a job posted, or quit
    pthread_cond_t done    # a job done


cdef inline void handoff_init(Handoff* h) noexcept nogil:
    h.state = IDLE
    h.quit = 0
    pthread_mutex_init(&h.lock, NULL)
    pthread_cond_init(&h.posted, NULL)
    pthread_cond_init(&h.done, NULL)


cdef inline void handoff_destroy(Handoff* h) noexcept nogil:
    pthread_cond_destroy(&h.done)
    pthread_cond_destroy(&h.posted)
    pthread_mutex_destroy(&h.lock)


cdef inline bint claim(Handoff* h) noexcept nogil:
    """Any worker: the helper if it is idle (True), now the caller's to post a job to."""
    return atomic_load(&h.state) == IDLE and compare_and_swap(&h.state, IDLE, CLAIMED)


cdef inline void post(Handoff* h) noexcept nogil:
    """Claimer, the job written: the helper may start."""
    pthread_mutex_lock(&h.lock)
    atomic_store(&h.state, POSTED)
    pthread_cond_signal(&h.posted)
    pthread_mutex_unlock(&h.lock)


cdef inline bint next_job(Handoff* h) noexcept nogil:
    """Helper: wait for a job and take it (now RUNNING); False when told to quit."""
    cdef int n
    for n in range(SPIN_ROUNDS):
        if atomic_load(&h.quit):
            return False
        if atomic_load(&h.state) == POSTED and compare_and_swap(&h.state, POSTED, RUNNING):
            return True
        sched_yield()
    pthread_mutex_lock(&h.lock)
    while not h.quit and not compare_and_swap(&h.state, POSTED, RUNNING):
        pthread_cond_wait(&h.posted, &h.lock)
    pthread_mutex_unlock(&h.lock)
    return not h.quit


cdef inline void finish(Handoff* h) noexcept nogil:
    """Helper: the job is done; the claimer may read it."""
    pthread_mutex_lock(&h.lock)
    atomic_store(&h.state, DONE)
    pthread_cond_signal(&h.done)
    pthread_mutex_unlock(&h.lock)


cdef inline bint wait_done(Handoff* h) noexcept nogil:
    """Claimer, its own share of the work done: withdraw the job if the helper has not
    started it (False: the helper is IDLE again), else wait until it is DONE (True; the
    claimer then reads the job and calls release)."""
    cdef int n
    if compare_and_swap(&h.state, POSTED, IDLE):
        return False
    for n in range(SPIN_ROUNDS):
        if atomic_load(&h.state) == DONE:
            return True
        sched_yield()
    pthread_mutex_lock(&h.lock)
    while h.state != DONE:
        pthread_cond_wait(&h.done, &h.lock)
    pthread_mutex_unlock(&h.lock)
    return True


cdef inline void release(Handoff* h) noexcept nogil:
    """Claimer, the job read: the helper is free for any worker."""
    atomic_store(&h.state, IDLE)


cdef inline void tell_quit(Handoff* h) noexcept nogil:
    """Main thread, the search over (every helper idle): end the helper's loop."""
    pthread_mutex_lock(&h.lock)
    atomic_store(&h.quit, 1)
    pthread_cond_signal(&h.posted)
    pthread_mutex_unlock(&h.lock)
