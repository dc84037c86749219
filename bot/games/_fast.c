/* The compiled fast path of the Pig and Liar's Dice engines (docs/PERFORMANCE.md, "Engines").

   bot/games/pig.py and bot/games/liars_dice.py stay the reference: this module only takes the common moves of
   their engines (Pig: roll and hold with one die and no equal_turns; Liar's Dice: the deal, a bid, the challenge
   of a single-round game), and builds exactly the objects the Python code builds there (the engine's own state
   class, its Event tuples and their dicts, keys in the same order), asking the injected dice source in the same
   order. Anything else (another rule, an odd state or argument, a refusal) is handed to the Python method before
   any die is asked for, so it behaves as the reference does by construction. tests/games/conftest.py runs the
   engine tests against both; tests/games/test_compiled.py plays random games on both and compares every step.

   The functions are method descriptors for any object: the engines' subclasses (CompiledPig, CompiledLiarsDice)
   bind them as methods. setup_pig / setup_liar hand over the Python objects they need, once, at import. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define FIELD(obj, off) (*(PyObject **)((char *)(obj) + (off)))

static PyObject *EventT;    /* bot.games.base.Event */
static PyObject *ActionT;   /* bot.games.base.Action */
static PyObject *s_roll, *s_sample, *s_hold, *s_roll_method, *s_deal, *s_check_bid, *s_finish, *s_auto;
static PyObject *k_player, *k_faces, *k_gain, *k_bust, *k_wipe, *k_turn_total, *k_lost, *k_score, *k_banked;
static PyObject *k_round, *k_starter, *k_counts, *k_total, *k_redeal, *k_dice, *k_players, *k_quantity, *k_face;
static PyObject *k_bidder, *k_hands, *k_count, *k_wild_ones, *k_challenger, *k_bid_true, *k_winner, *k_loser;
static PyObject *k_reason, *k_winners, *k_ranking, *k_scores;
static PyObject *e_roll, *e_hold, *e_win, *e_start, *e_dice, *e_bid, *e_challenge, *e_reveal, *e_game_over;
static PyObject *a_dice, *a_equal_turns, *a_target, *a_auto_hold, *a_dice_per_player, *a_raise_rule, *a_wild_ones;
static PyObject *a_mode, *v_single, *v_bid, *v_challenge_reason;
static PyObject *ZERO, *ONE, *MINUS_ONE, *EMPTY;
/* each event's keys, in the order the Python engines write them, and a template dict of them */
static PyObject *K_ROLL[8], *T_ROLL;
static PyObject *K_HOLD[4], *T_HOLD;
static PyObject *K_WIN[2], *T_WIN;
static PyObject *K_ROUND[5], *T_ROUND;
static PyObject *K_DICE[2], *T_DICE;
static PyObject *K_START[2], *T_START;
static PyObject *K_BID[3], *T_BID;
static PyObject *K_CHALLENGE[4], *T_CHALLENGE;
static PyObject *K_GAME_OVER[4], *T_GAME_OVER;
static PyObject *K_REVEAL[11], *T_REVEAL;

/* -- helpers ----------------------------------------------------------------------------------------------- */

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
/* CPython 3.11's dict keys (Include/internal/pycore_dict.h): a copied template's values are written in place, where
   PyDict_SetItem cost ~190 instructions a key (a Pig roll's event has eight). Checked key by key on every use. */
typedef struct {
    Py_ssize_t dk_refcnt;
    uint8_t dk_log2_size;
    uint8_t dk_log2_index_bytes;
    uint8_t dk_kind;
    uint32_t dk_version;
    Py_ssize_t dk_usable;
    Py_ssize_t dk_nentries;
    char dk_indices[];
} keys311;
typedef struct {
    PyObject *me_key;
    PyObject *me_value;
} entry311;
#define DICT_KEYS_UNICODE 1

/* The template's entries in d (a fresh copy of it), or NULL: the layout is not the one expected. */
static entry311 *
entries_of(PyObject *d, PyObject **keys, int n)
{
    PyDictObject *mp = (PyDictObject *)d;
    keys311 *k = (keys311 *)mp->ma_keys;
    if (mp->ma_values != NULL || mp->ma_used != n || k->dk_kind != DICT_KEYS_UNICODE || k->dk_nentries != n) {
        return NULL;
    }
    entry311 *e = (entry311 *)(k->dk_indices + ((size_t)1 << k->dk_log2_index_bytes));
    for (int i = 0; i < n; i++) {
        if (e[i].me_key != keys[i] || e[i].me_value != Py_None) {
            return NULL;
        }
    }
    return e;
}
#endif

/* A dict with the keys of template, in its order, and n NEW references as values (stolen, also on failure; a NULL
   value fails): a copy of the template, its values replaced. */
static PyObject *
dict_steal(PyObject *template, PyObject **keys, PyObject **values, int n)
{
    PyObject *d = PyDict_Copy(template);
#ifdef DICT_KEYS_UNICODE
    entry311 *e = d ? entries_of(d, keys, n) : NULL;
    if (e != NULL) {
        int gc = 0, ok = 1;
        for (int i = 0; i < n; i++) {
            ok &= values[i] != NULL;
        }
        for (int i = 0; ok && i < n; i++) {
            gc |= PyObject_IS_GC(values[i]);
            e[i].me_value = values[i]; /* stolen; it replaces a reference to None */
            Py_DECREF(Py_None);
        }
        if (ok) {
            if (gc && !PyObject_GC_IsTracked(d)) {
                PyObject_GC_Track(d);
            }
            return d;
        }
    }
#endif
    for (int i = 0; i < n; i++) {
        if (d != NULL && (values[i] == NULL || PyDict_SetItem(d, keys[i], values[i]) < 0)) {
            Py_CLEAR(d);
        }
        Py_XDECREF(values[i]);
    }
    return d;
}

/* A template: a dict of the n keys, each None (built once, at setup). */
static PyObject *
template_of(PyObject **keys, int n)
{
    PyObject *d = PyDict_New();
    for (int i = 0; d != NULL && i < n; i++) {
        if (PyDict_SetItem(d, keys[i], Py_None) < 0) {
            Py_CLEAR(d);
        }
    }
    return d;
}

/* Event(kind, data, to) as tuple.__new__(Event, ...) builds it; data is stolen. */
static PyObject *
event(PyObject *kind, PyObject *data, PyObject *to)
{
    if (data == NULL) {
        return NULL;
    }
#if PY_VERSION_HEX < 0x030E0000
    PyObject *e = ((PyTypeObject *)EventT)->tp_alloc((PyTypeObject *)EventT, 3);
    if (e == NULL) {
        Py_DECREF(data);
        return NULL;
    }
    PyTuple_SET_ITEM(e, 0, Py_NewRef(kind));
    PyTuple_SET_ITEM(e, 1, data);
    PyTuple_SET_ITEM(e, 2, Py_NewRef(to));
    return e;
#else
    PyObject *items = PyTuple_Pack(3, kind, data, to);
    Py_DECREF(data);
    if (items == NULL) {
        return NULL;
    }
    PyObject *args = PyTuple_Pack(1, items);
    Py_DECREF(items);
    if (args == NULL) {
        return NULL;
    }
    PyObject *e = PyTuple_Type.tp_new((PyTypeObject *)EventT, args, NULL);
    Py_DECREF(args);
    return e;
#endif
}

/* The Python method (the reference) with the call's own arguments. */
static PyObject *
fallback(PyObject *func, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *small[8];
    PyObject **vec = small;
    if (nargs + nkw + 1 > 8) {
        vec = PyMem_Malloc((nargs + nkw + 1) * sizeof(PyObject *));
        if (vec == NULL) {
            return PyErr_NoMemory();
        }
    }
    vec[0] = self;
    memcpy(vec + 1, args, (nargs + nkw) * sizeof(PyObject *));
    PyObject *r = PyObject_Vectorcall(func, vec, nargs + 1, kwnames);
    if (vec != small) {
        PyMem_Free(vec);
    }
    return r;
}

static PyObject *
method2(PyObject *self, PyObject *name, PyObject *a, PyObject *b)
{
    PyObject *vec[3] = {self, a, b};
    return PyObject_VectorcallMethod(name, vec, b ? 3 : 2, NULL);
}

/* A small non-negative exact int (not a bool), else -1. */
static Py_ssize_t
small_index(PyObject *v, Py_ssize_t below)
{
    if (v == NULL || !PyLong_CheckExact(v)) {
        return -1;
    }
    Py_ssize_t i = PyLong_AsSsize_t(v);
    if (i == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return i < below ? i : -1;
}

static int
offsets_of(PyObject *cls, const char *const *names, Py_ssize_t *offsets, int n)
{
    for (int i = 0; i < n; i++) {
        PyObject *d = PyObject_GetAttrString(cls, names[i]);
        if (d == NULL) {
            return -1;
        }
        if (!Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            Py_DECREF(d);
            PyErr_Format(PyExc_TypeError, "%s is not a slot", names[i]);
            return -1;
        }
        offsets[i] = ((PyMemberDescrObject *)d)->d_member->offset;
        Py_DECREF(d);
    }
    return 0;
}

/* A new instance of a __slots__ class, every slot NULL (the caller fills them all). */
static PyObject *
blank(PyObject *cls)
{
    return ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
}

/* A list whose items are all exact bools, at least one True. */
static int
bools_some_true(PyObject *list)
{
    int any = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        PyObject *v = PyList_GET_ITEM(list, i);
        if (v == Py_True) {
            any = 1;
        }
        else if (v != Py_False) {
            return 0;
        }
    }
    return any;
}

/* -- Pig ----------------------------------------------------------------------------------------------------- */

enum { P_OPTIONS, P_SCORES, P_ACTIVE, P_CURRENT, P_STARTER, P_TURN_TOTAL, P_ROLLS, P_MUST_ROLL, P_TURNS, P_LAST_ROLL,
       P_WINNER, P_N };
static const char *const pig_names[P_N] = {"options", "scores", "active", "current", "starter", "turn_total",
                                           "rolls_this_turn", "must_roll", "turns", "last_roll", "winner"};
static Py_ssize_t pig_off[P_N];
static PyObject *PigStateT, *ROLL, *HOLD, *PIG_SEATS, *PIG_TURN, *pig_to_act_py, *pig_legal_py, *pig_apply_py;

#define PF(s, i) FIELD(s, pig_off[i])

/* The options the last move read (options are frozen, so the object names its values): a hit costs a compare
   where reading four attributes cost a tenth of a move. */
static struct {
    PyObject *options; /* a strong reference: its id cannot be reused while it is here */
    PyObject *dice, *target;
    int one_die, equal_turns, auto_hold;
} pig_seen;

/* The options' values, or NULL with no error: options the reference should read (an attribute missing, odd). */
static void *
pig_options(PyObject *o)
{
    if (o == pig_seen.options) {
        return &pig_seen;
    }
    PyObject *dice = PyObject_GetAttr(o, a_dice);
    PyObject *target = dice ? PyObject_GetAttr(o, a_target) : NULL;
    PyObject *equal = target ? PyObject_GetAttr(o, a_equal_turns) : NULL;
    PyObject *auto_hold = equal ? PyObject_GetAttr(o, a_auto_hold) : NULL;
    int one = auto_hold ? PyObject_RichCompareBool(dice, ONE, Py_EQ) : -1;
    int eq = one < 0 ? -1 : PyObject_IsTrue(equal);
    int au = eq < 0 ? -1 : PyObject_IsTrue(auto_hold);
    Py_XDECREF(equal);
    Py_XDECREF(auto_hold);
    if (au < 0) {
        PyErr_Clear();
        Py_XDECREF(dice);
        Py_XDECREF(target);
        return NULL;
    }
    Py_XSETREF(pig_seen.options, Py_NewRef(o));
    Py_XSETREF(pig_seen.dice, dice);
    Py_XSETREF(pig_seen.target, target);
    pig_seen.one_die = one;
    pig_seen.equal_turns = eq;
    pig_seen.auto_hold = au;
    return &pig_seen;
}

/* Every slot set: a state the fast path may read. */
static int
pig_whole(PyObject *s)
{
    if (!Py_IS_TYPE(s, (PyTypeObject *)PigStateT)) {
        return 0;
    }
    for (int i = 0; i < P_N; i++) {
        if (PF(s, i) == NULL) {
            return 0;
        }
    }
    return 1;
}

static PyObject *
pig_to_act(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs == 1 && kwnames == NULL && pig_whole(args[0])) {
        if (PF(args[0], P_WINNER) != Py_None) {
            return Py_NewRef(EMPTY);
        }
        Py_ssize_t c = small_index(PF(args[0], P_CURRENT), PyTuple_GET_SIZE(PIG_SEATS));
        if (c >= 0) {
            return Py_NewRef(PyTuple_GET_ITEM(PIG_SEATS, c));
        }
    }
    return fallback(pig_to_act_py, self, args, nargs, kwnames);
}

static PyObject *
pig_legal_actions(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 2 || kwnames != NULL || !pig_whole(args[0])) {
        return fallback(pig_legal_py, self, args, nargs, kwnames);
    }
    PyObject *s = args[0];
    if (PF(s, P_WINNER) != Py_None) {
        return PyList_New(0);
    }
    int ne = PyObject_RichCompareBool(args[1], PF(s, P_CURRENT), Py_NE);
    if (ne < 0) {
        return NULL;
    }
    if (ne) {
        return PyList_New(0);
    }
    int first = PyObject_RichCompareBool(PF(s, P_ROLLS), ZERO, Py_EQ);
    if (first < 0) {
        return NULL;
    }
    int must = first ? 1 : PyObject_IsTrue(PF(s, P_MUST_ROLL));
    if (must < 0) {
        return NULL;
    }
    PyObject *out = PyList_New(must ? 1 : 2);
    if (out == NULL) {
        return NULL;
    }
    PyList_SET_ITEM(out, 0, Py_NewRef(ROLL));
    if (!must) {
        PyList_SET_ITEM(out, 1, Py_NewRef(HOLD));
    }
    return out;
}

/* The next seat after p still in the game (active: exact bools, one True at least). */
static Py_ssize_t
next_active(PyObject *active, Py_ssize_t p)
{
    Py_ssize_t n = PyList_GET_SIZE(active);
    Py_ssize_t nxt = p + 1 < n ? p + 1 : 0;
    while (PyList_GET_ITEM(active, nxt) != Py_True) {
        nxt = nxt + 1 < n ? nxt + 1 : 0;
    }
    return nxt;
}

/* A copy of list with item i replaced by its value + 1 (NULL on error). */
static PyObject *
list_bumped(PyObject *list, Py_ssize_t i, PyObject *by)
{
    PyObject *copy = PyList_GetSlice(list, 0, PyList_GET_SIZE(list));
    if (copy == NULL) {
        return NULL;
    }
    PyObject *v = PyNumber_Add(PyList_GET_ITEM(copy, i), by);
    if (v == NULL) {
        Py_DECREF(copy);
        return NULL;
    }
    Py_SETREF(PyList_GET_ITEM(copy, i), v);
    return copy;
}

static PyObject *
pair(PyObject *state, PyObject *events)
{
    if (events == NULL) {
        Py_DECREF(state);
        return NULL;
    }
    PyObject *r = PyTuple_New(2);
    if (r == NULL) {
        Py_DECREF(state);
        Py_DECREF(events);
        return NULL;
    }
    PyTuple_SET_ITEM(r, 0, state);
    PyTuple_SET_ITEM(r, 1, events);
    return r;
}

/* A list of two NEW references (stolen; NULL if either is NULL). */
static PyObject *
list2(PyObject *a, PyObject *b)
{
    PyObject *l = (a && b) ? PyList_New(2) : NULL;
    if (l == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        return NULL;
    }
    PyList_SET_ITEM(l, 0, a);
    PyList_SET_ITEM(l, 1, b);
    return l;
}

/* The seat to act of the well-formed state of a game in play (the lists the fast path indexes, of one length, plain
   ints), else -1: the reference decides. */
static Py_ssize_t
pig_sound(PyObject *st)
{
    PyObject *scores = PF(st, P_SCORES), *active = PF(st, P_ACTIVE), *turns = PF(st, P_TURNS);
    Py_ssize_t n = PyList_CheckExact(scores) ? PyList_GET_SIZE(scores) : -1;
    Py_ssize_t p = small_index(PF(st, P_CURRENT), n);
    if (p < 0 || PF(st, P_WINNER) != Py_None || n > PyTuple_GET_SIZE(PIG_TURN) || !PyList_CheckExact(active)
        || PyList_GET_SIZE(active) != n || !bools_some_true(active) || !PyList_CheckExact(turns)
        || PyList_GET_SIZE(turns) != n || !PyLong_CheckExact(PF(st, P_TURN_TOTAL)) || !PyLong_CheckExact(PF(st, P_ROLLS))) {
        return -1;
    }
    return p;
}

/* One die, no equal_turns: Pig.apply's inline roll. */
static PyObject *
pig_roll_one(PyObject *self, PyObject *st, PyObject *o, PyObject *faces, Py_ssize_t p, PyObject *target, int auto_hold)
{
    if (pig_sound(st) != p) { /* the dice source is Python code: it may not have changed the state, but check */
        PyErr_SetString(PyExc_RuntimeError, "the Pig state changed while the dice rolled");
        return NULL;
    }
    PyObject *scores = PF(st, P_SCORES), *active = PF(st, P_ACTIVE), *cur = PF(st, P_CURRENT);
    PyObject *face = PySequence_GetItem(faces, 0);
    if (face == NULL) {
        return NULL;
    }
    int bust = PyObject_RichCompareBool(face, ONE, Py_EQ);
    if (bust < 0) {
        Py_DECREF(face);
        return NULL;
    }
    PyObject *s = blank(PigStateT);
    if (s == NULL) {
        Py_DECREF(face);
        return NULL;
    }
    PF(s, P_OPTIONS) = Py_NewRef(o);
    PF(s, P_SCORES) = Py_NewRef(scores);
    PF(s, P_ACTIVE) = Py_NewRef(active);
    PF(s, P_STARTER) = Py_NewRef(PF(st, P_STARTER));
    PF(s, P_LAST_ROLL) = Py_NewRef(faces);
    PF(s, P_WINNER) = Py_NewRef(Py_None);
    PF(s, P_MUST_ROLL) = Py_NewRef(Py_False);
    PyObject *score = PyList_GET_ITEM(scores, p);
    if (bust) { /* P-2: the turn ends with nothing banked */
        Py_DECREF(face);
        PF(s, P_TURN_TOTAL) = Py_NewRef(ZERO);
        PF(s, P_ROLLS) = Py_NewRef(ZERO);
        PyObject *turns = list_bumped(PF(st, P_TURNS), p, ONE);
        if (turns == NULL) {
            Py_DECREF(s);
            return NULL;
        }
        PF(s, P_TURNS) = turns;
        Py_ssize_t nxt = next_active(active, p);
        PF(s, P_CURRENT) = PyLong_FromSsize_t(nxt);
        if (PF(s, P_CURRENT) == NULL) {
            Py_DECREF(s);
            return NULL;
        }
        PyObject **keys = K_ROLL;
        PyObject *values[8] = {Py_NewRef(cur), PySequence_List(faces), Py_NewRef(ZERO), Py_NewRef(Py_True),
                               Py_NewRef(Py_False), Py_NewRef(ZERO), Py_NewRef(PF(st, P_TURN_TOTAL)),
                               Py_NewRef(score)};
        PyObject *roll = event(e_roll, dict_steal(T_ROLL, keys, values, 8), Py_None);
        return pair(s, list2(roll, Py_NewRef(PyTuple_GET_ITEM(PIG_TURN, nxt))));
    }
    PF(s, P_CURRENT) = Py_NewRef(cur);
    PF(s, P_TURNS) = Py_NewRef(PF(st, P_TURNS));
    PyObject *total = PyNumber_Add(PF(st, P_TURN_TOTAL), face);
    PF(s, P_TURN_TOTAL) = total;
    PF(s, P_ROLLS) = PyNumber_Add(PF(st, P_ROLLS), ONE);
    if (total == NULL || PF(s, P_ROLLS) == NULL) {
        Py_DECREF(face);
        Py_DECREF(s);
        return NULL;
    }
    /* the keys and their order as ever: the table log stores this dict */
    PyObject **keys = K_ROLL;
    PyObject *values[8] = {Py_NewRef(cur), PySequence_List(faces), face, Py_NewRef(Py_False), Py_NewRef(Py_False),
                           Py_NewRef(total), Py_NewRef(ZERO), Py_NewRef(score)};
    PyObject *roll = event(e_roll, dict_steal(T_ROLL, keys, values, 8), Py_None);
    if (roll == NULL) {
        Py_DECREF(s);
        return NULL;
    }
    /* P-4 / D-P1: banking now wins */
    PyObject *sum = PyNumber_Add(score, total);
    int wins = sum ? PyObject_RichCompareBool(sum, target, Py_GE) : -1;
    Py_XDECREF(sum);
    if (wins > 0) {
        wins = auto_hold;
    }
    if (wins < 0) {
        Py_DECREF(roll);
        Py_DECREF(s);
        return NULL;
    }
    if (!wins) {
        PyObject *events = PyList_New(1);
        if (events == NULL) {
            Py_DECREF(roll);
        }
        else {
            PyList_SET_ITEM(events, 0, roll);
        }
        return pair(s, events);
    }
    PyObject *vec[3] = {self, s, Py_True};
    PyObject *kw = PyTuple_Pack(1, s_auto);
    PyObject *held = kw ? PyObject_VectorcallMethod(s_hold, vec, 2, kw) : NULL;
    Py_XDECREF(kw);
    PyObject *events = NULL;
    if (held != NULL) {
        events = PySequence_List(held);
        Py_DECREF(held);
    }
    if (events != NULL && PyList_Insert(events, 0, roll) < 0) {
        Py_CLEAR(events);
    }
    Py_DECREF(roll);
    return pair(s, events);
}

/* Hold without equal_turns: Pig.apply's inline hold (the checks are the caller's). */
static PyObject *
pig_hold(PyObject *st, PyObject *o, Py_ssize_t p)
{
    PyObject *cur = PF(st, P_CURRENT), *banked = PF(st, P_TURN_TOTAL), *active = PF(st, P_ACTIVE);
    PyObject *scores = list_bumped(PF(st, P_SCORES), p, banked);
    if (scores == NULL) {
        return NULL;
    }
    PyObject *score = PyList_GET_ITEM(scores, p);
    int wins = PyObject_RichCompareBool(score, pig_seen.target, Py_GE);
    PyObject *s = wins < 0 ? NULL : blank(PigStateT);
    if (s == NULL) {
        Py_DECREF(scores);
        return NULL;
    }
    PF(s, P_OPTIONS) = Py_NewRef(o);
    PF(s, P_SCORES) = scores;
    PF(s, P_ACTIVE) = Py_NewRef(active);
    PF(s, P_STARTER) = Py_NewRef(PF(st, P_STARTER));
    PF(s, P_TURN_TOTAL) = Py_NewRef(ZERO);
    PF(s, P_ROLLS) = Py_NewRef(ZERO);
    PF(s, P_MUST_ROLL) = Py_NewRef(Py_False);
    PF(s, P_LAST_ROLL) = Py_NewRef(PF(st, P_LAST_ROLL));
    PyObject **keys = K_HOLD;
    PyObject *values[4] = {Py_NewRef(cur), Py_NewRef(banked), Py_NewRef(score), Py_NewRef(Py_False)};
    PyObject *hold = event(e_hold, dict_steal(T_HOLD, keys, values, 4), Py_None);
    if (wins) {
        PF(s, P_CURRENT) = Py_NewRef(cur);
        PF(s, P_WINNER) = Py_NewRef(cur);
        PF(s, P_TURNS) = Py_NewRef(PF(st, P_TURNS));
        PyObject **wkeys = K_WIN;
        PyObject *wvalues[2] = {Py_NewRef(cur), Py_NewRef(score)};
        return pair(s, list2(hold, event(e_win, dict_steal(T_WIN, wkeys, wvalues, 2), Py_None)));
    }
    PF(s, P_WINNER) = Py_NewRef(Py_None);
    PF(s, P_TURNS) = list_bumped(PF(st, P_TURNS), p, ONE);
    Py_ssize_t nxt = next_active(active, p);
    PF(s, P_CURRENT) = PyLong_FromSsize_t(nxt);
    if (PF(s, P_TURNS) == NULL || PF(s, P_CURRENT) == NULL) {
        Py_XDECREF(hold);
        Py_DECREF(s);
        return NULL;
    }
    return pair(s, list2(hold, Py_NewRef(PyTuple_GET_ITEM(PIG_TURN, nxt))));
}

static PyObject *
pig_apply(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 4 || kwnames != NULL || !pig_whole(args[0])) {
        return fallback(pig_apply_py, self, args, nargs, kwnames);
    }
    PyObject *st = args[0], *player = args[1], *action = args[2], *dice = args[3];
    Py_ssize_t p = pig_sound(st);
    if (p < 0 || !PyLong_CheckExact(player)) {
        return fallback(pig_apply_py, self, args, nargs, kwnames);
    }
    int mine = PyObject_RichCompareBool(player, PF(st, P_CURRENT), Py_EQ);
    if (mine <= 0) {
        return mine < 0 ? NULL : fallback(pig_apply_py, self, args, nargs, kwnames);
    }
    PyObject *o = PF(st, P_OPTIONS);
    int is_roll = action == ROLL ? 1 : PyObject_RichCompareBool(action, ROLL, Py_EQ);
    if (is_roll < 0) {
        return NULL;
    }
    if (pig_options(o) == NULL) {
        return fallback(pig_apply_py, self, args, nargs, kwnames);
    }
    if (is_roll) {
        /* what the options say, read before the dice source runs (Python code: it might move the cache on) */
        PyObject *target = Py_NewRef(pig_seen.target), *count = Py_NewRef(pig_seen.dice);
        int one_die = pig_seen.one_die && !pig_seen.equal_turns, auto_hold = pig_seen.auto_hold;
        PyObject *faces = method2(dice, s_roll, count, NULL);
        Py_DECREF(count);
        PyObject *r = NULL;
        if (faces != NULL) {
            r = one_die ? pig_roll_one(self, st, o, faces, p, target, auto_hold)
                        : method2(self, s_roll_method, st, faces);
            Py_DECREF(faces);
        }
        Py_DECREF(target);
        return r;
    }
    int is_hold = action == HOLD ? 1 : PyObject_RichCompareBool(action, HOLD, Py_EQ);
    if (is_hold < 0) {
        return NULL;
    }
    if (is_hold) { /* P-1 / D-P3 and must_roll refuse, equal_turns has its own hold: the reference's */
        int first = PyObject_RichCompareBool(PF(st, P_ROLLS), ZERO, Py_EQ);
        int must = first ? first : PyObject_IsTrue(PF(st, P_MUST_ROLL));
        if (must < 0) {
            return NULL;
        }
        int eq = pig_seen.equal_turns;
        if (!must && !eq) {
            return pig_hold(st, o, p);
        }
    }
    return fallback(pig_apply_py, self, args, nargs, kwnames); /* refusals, equal_turns */
}

/* -- Liar's Dice --------------------------------------------------------------------------------------------- */

enum { L_OPTIONS, L_COUNTS, L_HANDS, L_CURRENT, L_ROUND_NO, L_ROUND_STARTER, L_BID, L_BIDDER, L_BIDS, L_FORFEITED,
       L_OUT_ORDER, L_LAST_REVEAL, L_FINISHED, L_END_REASON, L_WINNER, L_LOSER, L_N };
static const char *const liar_names[L_N] = {
    "options", "counts", "hands", "current", "round_no", "round_starter", "bid", "bidder", "bids", "forfeited",
    "out_order", "last_reveal", "finished", "end_reason", "winner", "loser"};
static Py_ssize_t liar_off[L_N];
static PyObject *RANGES; /* range(0) ... range(6) */
static PyObject *LiarsStateT, *CHALLENGE, *LIAR_SEATS, *LIAR_TURN, *MOVES, *moves_py;
static PyObject *liar_new_game_py, *liar_to_act_py, *liar_legal_py, *liar_apply_py;

#define LF(s, i) FIELD(s, liar_off[i])

static int
liar_whole(PyObject *s)
{
    if (!Py_IS_TYPE(s, (PyTypeObject *)LiarsStateT)) {
        return 0;
    }
    for (int i = 0; i < L_N; i++) {
        if (LF(s, i) == NULL) {
            return 0;
        }
    }
    return 1;
}

/* sum(counts) of a list of exact non-negative ints, one at least non-zero; -1 otherwise. */
static Py_ssize_t
live_total(PyObject *counts)
{
    if (!PyList_CheckExact(counts)) {
        return -1;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(counts); i++) {
        Py_ssize_t c = small_index(PyList_GET_ITEM(counts, i), 1 << 20);
        if (c < 0) {
            return -1;
        }
        total += c;
    }
    return total > 0 ? total : -1;
}

/* LiarsDice._deal (of a new game) on a fresh state s: everyone with dice rolls; the round's events appended to
   events. -1 on error. */
static int
liar_deal(PyObject *self, PyObject *s, PyObject *dice, PyObject *starter, PyObject *events)
{
    PyObject *counts = LF(s, L_COUNTS);
    Py_ssize_t total = live_total(counts);
    if (total < 0 || small_index(starter, PyTuple_GET_SIZE(LIAR_TURN)) < 0) {
        PyObject *dealt = PyObject_VectorcallMethod(s_deal, (PyObject *[]){self, s, dice, starter}, 4, NULL);
        Py_ssize_t end = PyList_GET_SIZE(events);
        int r = dealt ? PyList_SetSlice(events, end, end, dealt) : -1;
        Py_XDECREF(dealt);
        return r;
    }
    PyObject *redeal = Py_False;
    Py_ssize_t n = PyList_GET_SIZE(counts);
    Py_XSETREF(LF(s, L_BID), Py_NewRef(Py_None));
    Py_XSETREF(LF(s, L_BIDDER), Py_NewRef(Py_None));
    Py_XSETREF(LF(s, L_BIDS), PyList_New(0));
    Py_XSETREF(LF(s, L_ROUND_STARTER), Py_NewRef(starter));
    Py_XSETREF(LF(s, L_CURRENT), Py_NewRef(starter));
    PyObject *round_no = LF(s, L_ROUND_NO);
    PyObject *hands = PyList_New(n);
    if (hands == NULL) {
        return -1;
    }
    Py_XSETREF(LF(s, L_HANDS), Py_NewRef(hands));
    PyObject **keys = K_ROUND;
    PyObject *values[5] = {Py_NewRef(round_no), Py_NewRef(starter), PyList_GetSlice(counts, 0, n),
                           PyLong_FromSsize_t(total), Py_NewRef(redeal)};
    PyObject *e = event(k_round, dict_steal(T_ROUND, keys, values, 5), Py_None);
    if (e == NULL || PyList_Append(events, e) < 0) {
        goto fail;
    }
    Py_CLEAR(e);
    for (Py_ssize_t seat = 0; seat < n; seat++) {
        if (LF(s, L_COUNTS) != counts || PyList_GET_SIZE(counts) != n) { /* the dice source ran: check */
            PyErr_SetString(PyExc_RuntimeError, "the Liar's Dice state changed while the dice rolled");
            goto fail;
        }
        PyObject *count = PyList_GET_ITEM(counts, seat);
        PyObject *hand;
        if (PyObject_IsTrue(count)) { /* an exact int (live_total) */
            PyObject *rolled = method2(dice, s_roll, count, NULL);
            hand = rolled ? PySequence_List(rolled) : NULL; /* a new list: the source may keep the one it returned */
            Py_XDECREF(rolled);
            if (hand == NULL || PyList_Sort(hand) < 0) {
                Py_XDECREF(hand);
                goto fail;
            }
            PyObject *to = PyLong_FromSsize_t(seat);
            PyObject **dkeys = K_DICE;
            PyObject *dvalues[2] = {Py_NewRef(round_no), PyList_GetSlice(hand, 0, PyList_GET_SIZE(hand))};
            e = to ? event(e_dice, dict_steal(T_DICE, dkeys, dvalues, 2), to) : NULL;
            Py_XDECREF(to);
            if (e == NULL || PyList_Append(events, e) < 0) {
                Py_DECREF(hand);
                goto fail;
            }
            Py_CLEAR(e);
        }
        else {
            hand = PyList_New(0);
            if (hand == NULL) {
                goto fail;
            }
        }
        PyList_SET_ITEM(hands, seat, hand);
    }
    if (PyList_Append(events, PyTuple_GET_ITEM(LIAR_TURN, PyLong_AsSsize_t(starter))) < 0) {
        goto fail;
    }
    Py_DECREF(hands);
    return 0;
fail:
    Py_XDECREF(e);
    Py_DECREF(hands);
    return -1;
}

static PyObject *
liar_new_game(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t players = nargs == 3 && kwnames == NULL ? small_index(args[0], PyTuple_GET_SIZE(LIAR_SEATS) + 1) : -1;
    if (players < 2) {
        return fallback(liar_new_game_py, self, args, nargs, kwnames);
    }
    PyObject *options = args[1], *dice = args[2];
    /* L-6: a random player starts; range(players), built once (a range is immutable) */
    PyObject *drawn = method2(dice, s_sample, PyTuple_GET_ITEM(RANGES, players), ONE);
    PyObject *starter = drawn ? PySequence_GetItem(drawn, 0) : NULL;
    Py_XDECREF(drawn);
    PyObject *per = starter ? PyObject_GetAttr(options, a_dice_per_player) : NULL;
    PyObject *s = per ? blank(LiarsStateT) : NULL;
    if (s == NULL) {
        Py_XDECREF(starter);
        Py_XDECREF(per);
        return NULL;
    }
    LF(s, L_OPTIONS) = Py_NewRef(options);
    LF(s, L_COUNTS) = PyList_New(players);
    LF(s, L_FORFEITED) = PyList_New(players);
    if (LF(s, L_COUNTS) == NULL || LF(s, L_FORFEITED) == NULL) {
        Py_DECREF(per);
        Py_DECREF(starter);
        Py_DECREF(s);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < players; i++) {
        PyList_SET_ITEM(LF(s, L_COUNTS), i, Py_NewRef(per));
        PyList_SET_ITEM(LF(s, L_FORFEITED), i, Py_NewRef(Py_False));
    }
    Py_DECREF(per);
    LF(s, L_ROUND_NO) = Py_NewRef(ONE);
    LF(s, L_OUT_ORDER) = PyList_New(0);
    LF(s, L_LAST_REVEAL) = Py_NewRef(Py_None);
    LF(s, L_FINISHED) = Py_NewRef(Py_False);
    LF(s, L_END_REASON) = Py_NewRef(Py_None);
    LF(s, L_WINNER) = Py_NewRef(Py_None);
    LF(s, L_LOSER) = Py_NewRef(Py_None);
    PyObject **keys = K_START;
    PyObject *values[2] = {Py_NewRef(args[0]), Py_NewRef(starter)};
    PyObject *start = event(e_start, dict_steal(T_START, keys, values, 2), Py_None);
    PyObject *events = start && LF(s, L_OUT_ORDER) ? PyList_New(1) : NULL;
    if (events == NULL) {
        Py_XDECREF(start);
    }
    else {
        PyList_SET_ITEM(events, 0, start);
        if (liar_deal(self, s, dice, starter, events) < 0) {
            Py_CLEAR(events);
        }
    }
    Py_DECREF(starter);
    return pair(s, events);
}

static PyObject *
liar_to_act(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs == 1 && kwnames == NULL && liar_whole(args[0])) {
        PyObject *finished = LF(args[0], L_FINISHED);
        if (finished == Py_True) {
            return Py_NewRef(EMPTY);
        }
        Py_ssize_t c = small_index(LF(args[0], L_CURRENT), PyTuple_GET_SIZE(LIAR_SEATS));
        if (finished == Py_False && c >= 0) {
            return Py_NewRef(PyTuple_GET_ITEM(LIAR_SEATS, c));
        }
    }
    return fallback(liar_to_act_py, self, args, nargs, kwnames);
}

/* The options the last move read, as pig_seen: the raise rule, wild ones, mode == "single", and the raise rule's
   table of legal moves in the Python engine's cache (_MOVES[raise_rule][wild_ones]). */
static struct {
    PyObject *options, *rule, *wild, *table;
    int single;
} liar_seen;

/* NULL with no error: options the reference should read. */
static void *
liar_options(PyObject *o)
{
    if (o == liar_seen.options) {
        return &liar_seen;
    }
    PyObject *rule = PyObject_GetAttr(o, a_raise_rule);
    PyObject *wild = rule ? PyObject_GetAttr(o, a_wild_ones) : NULL;
    PyObject *mode = wild ? PyObject_GetAttr(o, a_mode) : NULL;
    PyObject *tables = mode && PyUnicode_CheckExact(rule) ? PyDict_GetItemWithError(MOVES, rule) : NULL;
    PyObject *table = NULL;
    if (tables != NULL && PyTuple_CheckExact(tables) && PyTuple_GET_SIZE(tables) == 2
        && (wild == Py_True || wild == Py_False) && PyDict_CheckExact(PyTuple_GET_ITEM(tables, wild == Py_True))) {
        table = PyTuple_GET_ITEM(tables, wild == Py_True);
    }
    if (table == NULL) {
        PyErr_Clear();
        Py_XDECREF(rule);
        Py_XDECREF(wild);
        Py_XDECREF(mode);
        return NULL;
    }
    liar_seen.single = PyUnicode_CheckExact(mode) && PyUnicode_Compare(mode, v_single) == 0;
    Py_DECREF(mode);
    Py_XSETREF(liar_seen.options, Py_NewRef(o));
    Py_XSETREF(liar_seen.rule, rule);
    Py_XSETREF(liar_seen.wild, wild);
    Py_XSETREF(liar_seen.table, Py_NewRef(table));
    return &liar_seen;
}

/* The cached (legal actions, {bid: (quantity, face)}) of the state's bid (a borrowed or a new reference in *owned);
   NULL with no error: not a plain state, let the reference decide. */
static PyObject *
liar_moves(PyObject *st, PyObject **owned)
{
    *owned = NULL;
    PyObject *bid = LF(st, L_BID);
    Py_ssize_t q = 0, f = 0;
    if (bid != Py_None) {
        if (!PyList_CheckExact(bid) || PyList_GET_SIZE(bid) != 2) {
            return NULL;
        }
        q = small_index(PyList_GET_ITEM(bid, 0), 64);
        f = small_index(PyList_GET_ITEM(bid, 1), 8);
        if (q < 1 || f < 1) {
            return NULL;
        }
    }
    Py_ssize_t total = live_total(LF(st, L_COUNTS));
    if (total < 0) {
        return NULL;
    }
    if (liar_options(LF(st, L_OPTIONS)) == NULL) {
        return NULL;
    }
    PyObject *table = liar_seen.table;
    PyObject *key = PyLong_FromSsize_t((total << 9) | (q << 3) | f);
    PyObject *found = key ? PyDict_GetItemWithError(table, key) : NULL; /* borrowed */
    Py_XDECREF(key);
    if (found == NULL && !PyErr_Occurred()) { /* _moves computes it and keeps it in the table */
        PyObject *a[5] = {liar_seen.rule, liar_seen.wild, PyLong_FromSsize_t(total), PyLong_FromSsize_t(q),
                          PyLong_FromSsize_t(f)};
        if (a[2] && a[3] && a[4]) {
            found = *owned = PyObject_Vectorcall(moves_py, a, 5, NULL);
        }
        Py_XDECREF(a[2]);
        Py_XDECREF(a[3]);
        Py_XDECREF(a[4]);
    }
    if (found != NULL && (!PyTuple_CheckExact(found) || PyTuple_GET_SIZE(found) != 2)) {
        Py_CLEAR(*owned);
        found = NULL;
    }
    return found;
}

static PyObject *
liar_legal_actions(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 2 || kwnames != NULL || !liar_whole(args[0]) || LF(args[0], L_FINISHED) != Py_False) {
        return fallback(liar_legal_py, self, args, nargs, kwnames);
    }
    int ne = PyObject_RichCompareBool(args[1], LF(args[0], L_CURRENT), Py_NE);
    if (ne) {
        return ne < 0 ? NULL : PyList_New(0);
    }
    PyObject *owned;
    PyObject *found = liar_moves(args[0], &owned);
    if (found == NULL) {
        return PyErr_Occurred() ? NULL : fallback(liar_legal_py, self, args, nargs, kwnames);
    }
    PyObject *r = PySequence_List(PyTuple_GET_ITEM(found, 0));
    Py_XDECREF(owned);
    return r;
}

/* A new state sharing every field with st. */
static PyObject *
liar_copy(PyObject *st)
{
    PyObject *s = blank(LiarsStateT);
    if (s != NULL) {
        for (int i = 0; i < L_N; i++) {
            LF(s, i) = Py_NewRef(LF(st, i));
        }
    }
    return s;
}

static PyObject *
liar_bid(PyObject *self, PyObject *st, PyObject *player, PyObject *action)
{
    PyObject *owned;
    PyObject *found = liar_moves(st, &owned);
    if (found == NULL) {
        return NULL; /* with no error set: the reference decides */
    }
    PyObject *legal = PyDict_GetItemWithError(PyTuple_GET_ITEM(found, 1), action); /* borrowed */
    PyObject *qf = NULL;
    if (legal != NULL) {
        PyObject *a = PyTuple_GET_ITEM(action, 1);
        if (PyTuple_Check(a) && PyTuple_GET_SIZE(a) == 2 && PyLong_CheckExact(PyTuple_GET_ITEM(a, 0))
            && PyLong_CheckExact(PyTuple_GET_ITEM(a, 1))) {
            qf = Py_NewRef(legal);
        }
    }
    else if (PyErr_Occurred()) {
        Py_XDECREF(owned);
        return NULL;
    }
    Py_XDECREF(owned);
    if (qf == NULL) { /* the full check: a refusal, or an odd but legal bid */
        qf = method2(self, s_check_bid, st, action);
        if (qf == NULL) {
            return NULL;
        }
    }
    PyObject *q, *f;
    PyObject *seq = PySequence_Fast(qf, "a bid is two numbers");
    Py_DECREF(qf);
    if (seq == NULL) {
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(seq) != 2) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a bid is two numbers");
        return NULL;
    }
    q = PySequence_Fast_GET_ITEM(seq, 0);
    f = PySequence_Fast_GET_ITEM(seq, 1);
    PyObject *s = liar_copy(st);
    if (s == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    PyObject *counts = LF(st, L_COUNTS);
    Py_SETREF(LF(s, L_BID), list2(Py_NewRef(q), Py_NewRef(f)));
    Py_SETREF(LF(s, L_BIDDER), Py_NewRef(player));
    Py_SETREF(LF(s, L_FINISHED), Py_NewRef(Py_False));
    PyObject *entry = PyList_New(3);
    PyObject *bids = entry ? PySequence_List(LF(st, L_BIDS)) : NULL;
    if (bids != NULL) {
        PyList_SET_ITEM(entry, 0, Py_NewRef(player));
        PyList_SET_ITEM(entry, 1, Py_NewRef(q));
        PyList_SET_ITEM(entry, 2, Py_NewRef(f));
        if (PyList_Append(bids, entry) < 0) {
            Py_CLEAR(bids);
        }
    }
    Py_XDECREF(entry);
    Py_SETREF(LF(s, L_BIDS), bids);
    if (LF(s, L_BID) == NULL || bids == NULL) {
        Py_DECREF(seq);
        Py_DECREF(s);
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(counts);
    Py_ssize_t p = PyLong_AsSsize_t(player);
    Py_ssize_t nxt = p + 1 < n ? p + 1 : 0;
    while (!PyObject_IsTrue(PyList_GET_ITEM(counts, nxt))) { /* exact ints, one non-zero (liar_apply) */
        nxt = nxt + 1 < n ? nxt + 1 : 0;
    }
    Py_SETREF(LF(s, L_CURRENT), PyLong_FromSsize_t(nxt));
    if (LF(s, L_CURRENT) == NULL) {
        Py_DECREF(seq);
        Py_DECREF(s);
        return NULL;
    }
    PyObject **keys = K_BID;
    PyObject *values[3] = {Py_NewRef(player), Py_NewRef(q), Py_NewRef(f)};
    Py_DECREF(seq);
    PyObject *e = event(e_bid, dict_steal(T_BID, keys, values, 3), Py_None);
    return pair(s, list2(e, Py_NewRef(PyTuple_GET_ITEM(LIAR_TURN, nxt))));
}

/* list.count of v in a list (the same comparisons), -1 on error. */
static Py_ssize_t
count_in(PyObject *list, PyObject *v)
{
    Py_ssize_t c = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        int eq = PyObject_RichCompareBool(PyList_GET_ITEM(list, i), v, Py_EQ);
        if (eq < 0) {
            return -1;
        }
        c += eq;
    }
    return c;
}

/* The challenge of a single-round game: LiarsDice._challenge and _finish on a copy of st. */
static PyObject *
liar_challenge(PyObject *self, PyObject *st, PyObject *challenger, PyObject *wild)
{
    PyObject *bid = LF(st, L_BID), *bidder = LF(st, L_BIDDER), *hands = LF(st, L_HANDS);
    PyObject *q = PyList_GET_ITEM(bid, 0), *f = PyList_GET_ITEM(bid, 1);
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hands); i++) { /* L-4 */
        PyObject *hand = PyList_GET_ITEM(hands, i);
        Py_ssize_t c = count_in(hand, f);
        Py_ssize_t ones = c >= 0 && wild == Py_True ? count_in(hand, ONE) : 0;
        if (c < 0 || ones < 0) {
            return NULL;
        }
        count += c + ones;
    }
    PyObject *counted = PyLong_FromSsize_t(count);
    int truth = counted ? PyObject_RichCompareBool(counted, q, Py_GE) : -1;
    PyObject *s = truth < 0 ? NULL : liar_copy(st);
    if (s == NULL) {
        Py_XDECREF(counted);
        return NULL;
    }
    PyObject *loser = truth ? challenger : bidder, *winner = truth ? bidder : challenger;
    PyObject **keys = K_REVEAL;
    PyObject *values[11] = {Py_NewRef(LF(st, L_ROUND_NO)), PyList_GetSlice(hands, 0, PyList_GET_SIZE(hands)),
                            Py_NewRef(q), Py_NewRef(f), counted, Py_NewRef(wild), Py_NewRef(bidder),
                            Py_NewRef(challenger), Py_NewRef(truth ? Py_True : Py_False), Py_NewRef(winner),
                            Py_NewRef(loser)};
    PyObject *reveal = dict_steal(T_REVEAL, keys, values, 11);
    if (reveal == NULL) {
        Py_DECREF(s);
        return NULL;
    }
    Py_SETREF(LF(s, L_LAST_REVEAL), reveal);
    PyObject **ckeys = K_CHALLENGE;
    PyObject *cvalues[4] = {Py_NewRef(challenger), Py_NewRef(bidder), Py_NewRef(q), Py_NewRef(f)};
    PyObject *events = PyList_New(3);
    if (events == NULL) {
        Py_DECREF(s);
        return NULL;
    }
    PyList_SET_ITEM(events, 0, event(e_challenge, dict_steal(T_CHALLENGE, ckeys, cvalues, 4), Py_None));
    PyObject *shown = PyDict_Copy(reveal);
    PyObject *copies = shown ? PyList_New(PyList_GET_SIZE(hands)) : NULL;
    if (copies != NULL) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hands); i++) {
            PyObject *h = PyList_GET_ITEM(hands, i);
            PyObject *c = PyList_GetSlice(h, 0, PyList_GET_SIZE(h));
            if (c == NULL) {
                Py_CLEAR(copies);
                break;
            }
            PyList_SET_ITEM(copies, i, c);
        }
    }
    if (copies == NULL || PyDict_SetItem(shown, k_hands, copies) < 0) {
        Py_CLEAR(shown);
    }
    Py_XDECREF(copies);
    PyList_SET_ITEM(events, 1, event(e_reveal, shown, Py_None));
    /* L-5: the one challenge decides the game; _finish(s, "challenge") */
    Py_SETREF(LF(s, L_WINNER), Py_NewRef(winner));
    Py_SETREF(LF(s, L_LOSER), Py_NewRef(loser));
    PyObject *over;
    if (PyList_CheckExact(LF(s, L_COUNTS)) && PyList_GET_SIZE(LF(s, L_COUNTS)) == 2
        && PyList_CheckExact(LF(s, L_OUT_ORDER)) && PyList_GET_SIZE(LF(s, L_OUT_ORDER)) == 0 && winner != Py_None
        && loser != Py_None) {
        Py_SETREF(LF(s, L_FINISHED), Py_NewRef(Py_True));
        Py_SETREF(LF(s, L_END_REASON), Py_NewRef(v_challenge_reason));
        int first = PyObject_RichCompareBool(winner, ZERO, Py_EQ);
        PyObject *won = PyList_New(1), *won2 = PyList_New(1), *lost = PyList_New(1);
        if (won && won2 && lost) {
            PyList_SET_ITEM(won, 0, Py_NewRef(winner));
            PyList_SET_ITEM(won2, 0, Py_NewRef(winner));
            PyList_SET_ITEM(lost, 0, Py_NewRef(loser));
        }
        else {
            Py_CLEAR(won);
            Py_CLEAR(won2);
            Py_CLEAR(lost);
        }
        /* outcome's two-seat single game, as _finish builds it */
        PyObject **gkeys = K_GAME_OVER;
        PyObject *gvalues[4] = {
            Py_NewRef(v_challenge_reason), won, won2 ? list2(won2, lost) : NULL,
            first < 0 ? NULL : list2(Py_NewRef(first ? ONE : MINUS_ONE), Py_NewRef(first ? MINUS_ONE : ONE))};
        over = event(e_game_over, dict_steal(T_GAME_OVER, gkeys, gvalues, 4), Py_None);
    }
    else {
        over = method2(self, s_finish, s, v_challenge_reason);
    }
    PyList_SET_ITEM(events, 2, over);
    if (PyList_GET_ITEM(events, 0) == NULL || PyList_GET_ITEM(events, 1) == NULL || over == NULL) {
        Py_DECREF(events);
        Py_DECREF(s);
        return NULL;
    }
    return pair(s, events);
}

static PyObject *
liar_apply(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 4 || kwnames != NULL || !liar_whole(args[0])) {
        return fallback(liar_apply_py, self, args, nargs, kwnames);
    }
    PyObject *st = args[0], *player = args[1], *action = args[2];
    PyObject *counts = LF(st, L_COUNTS);
    Py_ssize_t n = PyList_CheckExact(counts) ? PyList_GET_SIZE(counts) : -1;
    Py_ssize_t p = small_index(LF(st, L_CURRENT), n);
    if (p < 0 || LF(st, L_FINISHED) != Py_False || n > PyTuple_GET_SIZE(LIAR_TURN) || live_total(counts) < 0
        || small_index(player, n) != p || !Py_IS_TYPE(action, (PyTypeObject *)ActionT)
        || PyTuple_GET_SIZE(action) != 2) {
        return fallback(liar_apply_py, self, args, nargs, kwnames);
    }
    PyObject *name = PyTuple_GET_ITEM(action, 0);
    if (PyUnicode_CheckExact(name) && PyUnicode_Compare(name, v_bid) == 0) {
        PyObject *r = liar_bid(self, st, player, action);
        if (r != NULL || PyErr_Occurred()) {
            return r;
        }
        return fallback(liar_apply_py, self, args, nargs, kwnames);
    }
    int is_challenge = action == CHALLENGE ? 1 : PyObject_RichCompareBool(action, CHALLENGE, Py_EQ);
    if (is_challenge < 0) {
        return NULL;
    }
    PyObject *bid = LF(st, L_BID), *hands = LF(st, L_HANDS);
    if (is_challenge && PyList_CheckExact(bid) && PyList_GET_SIZE(bid) == 2 && LF(st, L_BIDDER) != Py_None
        && small_index(PyList_GET_ITEM(bid, 0), 1 << 20) >= 0 && small_index(PyList_GET_ITEM(bid, 1), 1 << 20) >= 0
        && PyList_CheckExact(hands)) {
        int plain = 1;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hands); i++) {
            plain &= PyList_CheckExact(PyList_GET_ITEM(hands, i));
        }
        if (plain && liar_options(LF(st, L_OPTIONS)) != NULL && liar_seen.single) {
            PyObject *wild = Py_NewRef(liar_seen.wild);
            PyObject *r = liar_challenge(self, st, player, wild);
            Py_DECREF(wild);
            return r;
        }
    }
    return fallback(liar_apply_py, self, args, nargs, kwnames); /* refusals, other modes */
}

/* -- setup ------------------------------------------------------------------------------------------------------ */

static PyObject *
setup_pig(PyObject *module, PyObject *args)
{
    PyObject *state, *roll, *hold, *seats, *turn, *to_act, *legal, *apply;
    if (!PyArg_ParseTuple(args, "O!OOO!O!OOO:setup_pig", &PyType_Type, &state, &roll, &hold, &PyTuple_Type, &seats,
                          &PyTuple_Type, &turn, &to_act, &legal, &apply)) {
        return NULL;
    }
    if (offsets_of(state, pig_names, pig_off, P_N) < 0) {
        return NULL;
    }
    Py_XSETREF(PigStateT, Py_NewRef(state));
    Py_XSETREF(ROLL, Py_NewRef(roll));
    Py_XSETREF(HOLD, Py_NewRef(hold));
    Py_XSETREF(PIG_SEATS, Py_NewRef(seats));
    Py_XSETREF(PIG_TURN, Py_NewRef(turn));
    Py_XSETREF(pig_to_act_py, Py_NewRef(to_act));
    Py_XSETREF(pig_legal_py, Py_NewRef(legal));
    Py_XSETREF(pig_apply_py, Py_NewRef(apply));
    Py_RETURN_NONE;
}

static PyObject *
setup_liar(PyObject *module, PyObject *args)
{
    PyObject *state, *challenge, *seats, *turn, *moves, *moves_fn, *new_game, *to_act, *legal, *apply;
    if (!PyArg_ParseTuple(args, "O!OO!O!O!OOOOO:setup_liar", &PyType_Type, &state, &challenge, &PyTuple_Type,
                          &seats, &PyTuple_Type, &turn, &PyDict_Type, &moves, &moves_fn, &new_game, &to_act, &legal,
                          &apply)) {
        return NULL;
    }
    if (offsets_of(state, liar_names, liar_off, L_N) < 0) {
        return NULL;
    }
    PyObject *ranges = PyTuple_New(PyTuple_GET_SIZE(seats) + 1);
    for (Py_ssize_t i = 0; ranges != NULL && i <= PyTuple_GET_SIZE(seats); i++) {
        PyObject *n = PyLong_FromSsize_t(i);
        PyObject *r = n ? PyObject_CallOneArg((PyObject *)&PyRange_Type, n) : NULL;
        Py_XDECREF(n);
        if (r == NULL) {
            Py_CLEAR(ranges);
            break;
        }
        PyTuple_SET_ITEM(ranges, i, r);
    }
    if (ranges == NULL) {
        return NULL;
    }
    Py_XSETREF(RANGES, ranges);
    Py_XSETREF(LiarsStateT, Py_NewRef(state));
    Py_XSETREF(CHALLENGE, Py_NewRef(challenge));
    Py_XSETREF(LIAR_SEATS, Py_NewRef(seats));
    Py_XSETREF(LIAR_TURN, Py_NewRef(turn));
    Py_XSETREF(MOVES, Py_NewRef(moves));
    Py_XSETREF(moves_py, Py_NewRef(moves_fn));
    Py_XSETREF(liar_new_game_py, Py_NewRef(new_game));
    Py_XSETREF(liar_to_act_py, Py_NewRef(to_act));
    Py_XSETREF(liar_legal_py, Py_NewRef(legal));
    Py_XSETREF(liar_apply_py, Py_NewRef(apply));
    Py_RETURN_NONE;
}

static PyObject *
setup_base(PyObject *module, PyObject *args)
{
    PyObject *event_t, *action_t;
    if (!PyArg_ParseTuple(args, "O!O!:setup_base", &PyType_Type, &event_t, &PyType_Type, &action_t)) {
        return NULL;
    }
    if (!PyType_IsSubtype((PyTypeObject *)event_t, &PyTuple_Type)
        || !PyType_IsSubtype((PyTypeObject *)action_t, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Event and Action are tuples");
        return NULL;
    }
    Py_XSETREF(EventT, Py_NewRef(event_t));
    Py_XSETREF(ActionT, Py_NewRef(action_t));
    Py_RETURN_NONE;
}

#define FAST (METH_FASTCALL | METH_KEYWORDS)
static PyMethodDef engine_methods[] = {
    {"pig_to_act", (PyCFunction)(void (*)(void))pig_to_act, FAST, "Pig.to_act, compiled."},
    {"pig_legal_actions", (PyCFunction)(void (*)(void))pig_legal_actions, FAST, "Pig.legal_actions, compiled."},
    {"pig_apply", (PyCFunction)(void (*)(void))pig_apply, FAST, "Pig.apply, compiled (its common moves)."},
    {"liar_new_game", (PyCFunction)(void (*)(void))liar_new_game, FAST, "LiarsDice.new_game, compiled."},
    {"liar_to_act", (PyCFunction)(void (*)(void))liar_to_act, FAST, "LiarsDice.to_act, compiled."},
    {"liar_legal_actions", (PyCFunction)(void (*)(void))liar_legal_actions, FAST, "LiarsDice.legal_actions, compiled."},
    {"liar_apply", (PyCFunction)(void (*)(void))liar_apply, FAST, "LiarsDice.apply, compiled (its common moves)."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef module_functions[] = {
    {"setup_base", setup_base, METH_VARARGS, "setup_base(Event, Action)"},
    {"setup_pig", setup_pig, METH_VARARGS,
     "setup_pig(PigState, ROLL, HOLD, seats, turn_events, Pig.to_act, Pig.legal_actions, Pig.apply)"},
    {"setup_liar", setup_liar, METH_VARARGS,
     "setup_liar(LiarsState, CHALLENGE, seats, turn_events, moves_cache, moves, LiarsDice.new_game, "
     "LiarsDice.to_act, LiarsDice.legal_actions, LiarsDice.apply)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "bot.games._fast", "The compiled fast path of the Pig and Liar's Dice engines.", -1,
    module_functions,
};

#define INTERN(var, text)                                                                                          \
    if ((var = PyUnicode_InternFromString(text)) == NULL) {                                                        \
        goto fail;                                                                                                 \
    }

PyMODINIT_FUNC
PyInit__fast(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) {
        return NULL;
    }
    INTERN(s_roll, "roll") INTERN(s_sample, "sample") INTERN(s_hold, "_hold") INTERN(s_roll_method, "_roll")
    INTERN(s_deal, "_deal") INTERN(s_check_bid, "_check_bid") INTERN(s_finish, "_finish") INTERN(s_auto, "auto")
    INTERN(k_player, "player") INTERN(k_faces, "faces") INTERN(k_gain, "gain") INTERN(k_bust, "bust")
    INTERN(k_wipe, "wipe") INTERN(k_turn_total, "turn_total") INTERN(k_lost, "lost") INTERN(k_score, "score")
    INTERN(k_banked, "banked") INTERN(k_round, "round") INTERN(k_starter, "starter") INTERN(k_counts, "counts")
    INTERN(k_total, "total") INTERN(k_redeal, "redeal") INTERN(k_dice, "dice") INTERN(k_players, "players")
    INTERN(k_quantity, "quantity") INTERN(k_face, "face") INTERN(k_bidder, "bidder") INTERN(k_hands, "hands")
    INTERN(k_count, "count") INTERN(k_wild_ones, "wild_ones") INTERN(k_challenger, "challenger")
    INTERN(k_bid_true, "bid_true") INTERN(k_winner, "winner") INTERN(k_loser, "loser") INTERN(k_reason, "reason")
    INTERN(k_winners, "winners") INTERN(k_ranking, "ranking") INTERN(k_scores, "scores")
    INTERN(e_roll, "roll") INTERN(e_hold, "hold") INTERN(e_win, "win") INTERN(e_start, "start")
    INTERN(e_dice, "dice") INTERN(e_bid, "bid") INTERN(e_challenge, "challenge") INTERN(e_reveal, "reveal")
    INTERN(e_game_over, "game_over") INTERN(a_dice, "dice") INTERN(a_equal_turns, "equal_turns")
    INTERN(a_target, "target") INTERN(a_auto_hold, "auto_hold_at_target") INTERN(a_dice_per_player, "dice_per_player")
    INTERN(a_raise_rule, "raise_rule") INTERN(a_wild_ones, "wild_ones") INTERN(a_mode, "mode")
    INTERN(v_single, "single") INTERN(v_bid, "bid") INTERN(v_challenge_reason, "challenge")
    ZERO = PyLong_FromLong(0);
    ONE = PyLong_FromLong(1);
    MINUS_ONE = PyLong_FromLong(-1);
    EMPTY = PyTuple_New(0);
    if (ZERO == NULL || ONE == NULL || MINUS_ONE == NULL || EMPTY == NULL) {
        goto fail;
    }
    {
        PyObject *k[8] = {k_player, k_faces, k_gain, k_bust, k_wipe, k_turn_total, k_lost, k_score};
        memcpy(K_ROLL, k, sizeof k);
        if ((T_ROLL = template_of(K_ROLL, 8)) == NULL) {
            goto fail;
        }
    }
    {
        PyObject *k[4] = {k_player, k_banked, k_score, s_auto};
        memcpy(K_HOLD, k, sizeof k);
        if ((T_HOLD = template_of(K_HOLD, 4)) == NULL) {
            goto fail;
        }
    }
    {
        PyObject *k[2] = {k_player, k_score};
        memcpy(K_WIN, k, sizeof k);
        if ((T_WIN = template_of(K_WIN, 2)) == NULL) {
            goto fail;
        }
    }
    {
        PyObject *k[5] = {k_round, k_starter, k_counts, k_total, k_redeal};
        memcpy(K_ROUND, k, sizeof k);
        if ((T_ROUND = template_of(K_ROUND, 5)) == NULL) {
            goto fail;
        }
    }
    {
        PyObject *k[2] = {k_round, k_dice};
        memcpy(K_DICE, k, sizeof k);
        if ((T_DICE = template_of(K_DICE, 2)) == NULL) {
            goto fail;
        }
    }
    {
        PyObject *k[2] = {k_players, k_starter};
        memcpy(K_START, k, sizeof k);
        if ((T_START = template_of(K_START, 2)) == NULL) {
            goto fail;
        }
    }
    {
        PyObject *k[3] = {k_player, k_quantity, k_face};
        memcpy(K_BID, k, sizeof k);
        if ((T_BID = template_of(K_BID, 3)) == NULL) {
            goto fail;
        }
    }
    {
        PyObject *k[4] = {k_player, k_bidder, k_quantity, k_face};
        memcpy(K_CHALLENGE, k, sizeof k);
        if ((T_CHALLENGE = template_of(K_CHALLENGE, 4)) == NULL) {
            goto fail;
        }
    }
    {
        PyObject *k[4] = {k_reason, k_winners, k_ranking, k_scores};
        memcpy(K_GAME_OVER, k, sizeof k);
        if ((T_GAME_OVER = template_of(K_GAME_OVER, 4)) == NULL) {
            goto fail;
        }
    }
    {
        PyObject *k[11] = {k_round, k_hands, k_quantity, k_face, k_count, k_wild_ones, k_bidder, k_challenger, k_bid_true, k_winner, k_loser};
        memcpy(K_REVEAL, k, sizeof k);
        if ((T_REVEAL = template_of(K_REVEAL, 11)) == NULL) {
            goto fail;
        }
    }
    for (PyMethodDef *def = engine_methods; def->ml_name != NULL; def++) {
        /* a method descriptor for any object: a class body binds it as a method */
        PyObject *d = PyDescr_NewMethod(&PyBaseObject_Type, def);
        if (d == NULL || PyModule_AddObject(m, def->ml_name, d) < 0) {
            Py_XDECREF(d);
            goto fail;
        }
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
