# The exact search's tuning knobs: compile-time constants. They change the work (node counts,
# times), never a value.
#
# Invariants: HELP_FROM >= SPLIT_FROM and ROWS_FROM >= SPLIT_FROM (a root too small for a
# helper has no node to share);
# GUESS_DEEPER >= GUESS_FROM. 1- and 2-card nodes are always closed forms (lastturns.pxd).

cdef enum:
    GUESS_FROM = 5       # smaller nodes skip the estimate: killers and the table order them
                         # about as well, at a fraction of the cost
    GUESS_DEEPER = 7     # nodes with this many cards look two turns ahead to order moves
    SPLIT_FROM = 5       # nodes with this many cards share their tests with an idle helper
    HELP_FROM = 7        # searches of smaller roots take no helper: too few nodes to share
    SHARE_REFINES = 1    # idle helpers also take the restricted entries of steps 1 and 5
    ROWS_FROM = 5        # nodes with this many cards share a too-low card's rows
    ENDGAME_LOG2 = 20    # 2-card cache: 2**20 slots, 16 MB per thread (by default)

cdef extern from *:
    """
    static const double NIMMT_CHECK_TOLERANCE = 1e-7;
    static const double NIMMT_WIDE_WINDOW = 1.0;
    static const double NIMMT_STEP5_MARGIN = 1.0;
    static const double NIMMT_STEP5_GROWTH = 4.0;
    """
    # self-check: a stored bound may be off by rounding only
    const double CHECK_TOLERANCE "NIMMT_CHECK_TOLERANCE"
    # a window wider than this (in bullheads) is "wide": its node's restricted entries are
    # searched around the restricted value, not across the whole window
    const double WIDE_WINDOW "NIMMT_WIDE_WINDOW"
    # step 5 searches entries within this margin around the window first, the margin
    # growing by STEP5_GROWTH each time that decides nothing, up to a full window
    const double STEP5_MARGIN "NIMMT_STEP5_MARGIN"
    const double STEP5_GROWTH "NIMMT_STEP5_GROWTH"
