"""Who makes a choice the rules ask for: a bot, a scenario's script, or (in a look-ahead) greedy.

A rule that needs a choice fills ``s.scratch.legal[:n_legal]`` with the options (ints,
see ``state.Decision``) and calls ``decide``. A decision with a single option is taken
without asking anyone (and consumes no scripted choice unless that choice names exactly
it). Choices never change the position themselves; the rule applies the option returned.
"""

import numpy as np

from sims.cardia import choices as policies
from sims.cardia.bots import Bot, cheapest_card
from sims.cardia.state import ENVOY_NEXT, NO_CARD, Decision, Lane, ScriptTag
from sims.cardia.table import find_card
from sims.core import rng
from sims.core.jit import hot, kernel

SCRIPT_ILLEGAL = 1  # meta.script_error codes
SCRIPT_EXHAUSTED = 2
SCRIPT_WRONG_KIND = 3
NOT_CONVERTED = -1000  # a scripted choice that names no option of this decision


@hot
def legal_clear(s) -> None:
    """Start an empty option list in place."""
    s.scratch.n_legal = 0


@hot
def legal_add(s, option: int) -> None:
    """Append ``option`` to the option list in place."""
    s.scratch.legal[s.scratch.n_legal] = option
    s.scratch.n_legal += 1


@hot
def is_legal(s, option: int) -> bool:
    """Return True if ``option`` is in the current option list."""
    for i in range(s.scratch.n_legal):  # noqa: SIM110 (a plain loop compiles to the tightest code)
        if s.scratch.legal[i] == option:
            return True
    return False


@kernel
def target_kind(kind: int) -> bool:
    """Return True if the options of ``kind`` are table positions."""
    return (
        kind == Decision.VOID_TARGET
        or kind == Decision.SWAMP_TARGET
        or kind == Decision.MAGISTRA_TARGET
        or kind == Decision.INVENTOR_PLUS
        or kind == Decision.INVENTOR_MINUS
        or kind == Decision.KINESIS_FROM
        or kind == Decision.KINESIS_TO
        or kind == Decision.ENVOY_TARGET
        or kind == Decision.PRODIGY_TARGET
        or kind == Decision.ILLUSIONIST_TARGET
    )


@kernel
def faction_kind(kind: int) -> bool:
    """Return True if the options of ``kind`` are factions."""
    return (
        kind == Decision.GUARD_FACTION
        or kind == Decision.AMBUSH_FACTION
        or kind == Decision.BLACKMAIL_FACTION
        or kind == Decision.WITCH_FACTION
    )


@kernel
def convert(g, kind: int, entry: int) -> int:
    """Return the option a scripted ``entry`` (ScriptTag << 16 | value) names for decision ``kind``."""
    tag, value = entry >> 16, entry & 0xFFFF
    if target_kind(kind):
        if kind == Decision.ENVOY_TARGET and tag == ScriptTag.NEXT:
            return ENVOY_NEXT
        if tag != ScriptTag.TARGET:
            return NOT_CONVERTED
        seat, c = value // 64, value % 64
        k = find_card(g, seat, c)
        return NOT_CONVERTED - 1 if k < 0 else k * 2 + seat
    if faction_kind(kind):
        return value if tag == ScriptTag.FACTION else NOT_CONVERTED
    if kind == Decision.LIBRARIAN_SIGN:
        return value if tag == ScriptTag.SIGN else NOT_CONVERTED
    if kind == Decision.VOID_MODE:
        return value if tag == ScriptTag.MODE else NOT_CONVERTED
    if kind == Decision.GUARD_DISCARD and tag == ScriptTag.NONE:
        return NO_CARD
    return value if tag == ScriptTag.CARD else NOT_CONVERTED


@hot
def script_fail(s, p: int, kind: int, index: int, code: int) -> None:
    """Note the first script error in place (the scenario runner turns it into a one-line error)."""
    m = s.meta
    if m.script_error == 0:
        m.script_error, m.error_seat, m.error_kind, m.error_index = code, p, kind, index


@kernel
def scripted(s, g, p: int, kind: int) -> int:
    """Return seat ``p``'s next scripted choice for ``kind`` (the first option after a script error)."""
    k = s.scratch.script_k[p]
    if k >= s.scratch.script_n[p]:
        script_fail(s, p, kind, k, SCRIPT_EXHAUSTED)
        return s.scratch.legal[0]
    s.scratch.script_k[p] = k + 1
    option = convert(g, kind, s.scratch.script[p, k])
    if option == NOT_CONVERTED:
        script_fail(s, p, kind, k, SCRIPT_WRONG_KIND)
        return s.scratch.legal[0]
    if not is_legal(s, option):
        script_fail(s, p, kind, k, SCRIPT_ILLEGAL)
        return s.scratch.legal[0]
    return option


@kernel
def forced(s, g, p: int, kind: int) -> bool:
    """Return True if the decision has a single option (consuming a scripted choice that names exactly it)."""
    if s.scratch.n_legal != 1:
        return False
    if s.meta.scripted and not s.meta.bot_seat[p] and not g.sim:
        k = s.scratch.script_k[p]
        if k < s.scratch.script_n[p] and convert(g, kind, s.scratch.script[p, k]) == s.scratch.legal[0]:
            s.scratch.script_k[p] = k + 1
    return True


@hot
def audit(s, option: int) -> int:
    """Count a bot's decision and whether ``option`` is legal (conformance audit); return ``option``."""
    if s.meta.checking:
        s.meta.decisions += 1
        s.meta.illegal += not is_legal(s, option)
    return option


@kernel
def decide(s, g, p: int, kind: int) -> int:
    """Return seat ``p``'s choice among ``scratch.legal[:n_legal]`` (at least one) for decision ``kind``."""
    if forced(s, g, p, kind):
        return s.scratch.legal[0]
    if g.sim:
        return policies.greedy_option(s, g, p, kind)
    if s.meta.scripted and not s.meta.bot_seat[p]:
        return scripted(s, g, p, kind)
    return audit(s, policies.choose_option(s, g, p, kind, s.meta.bots[p]))


@kernel
def decide_card(s, g, p: int, kind: int) -> int:
    """Return seat ``p``'s card to give up (discard, put under the deck) among ``scratch.legal`` (card ids).

    Every bot but ``random`` gives up the card worth least (``bots.worth``). A small
    function of its own, so that rules which only ever ask for a discard (Serpent
    Temple inside every change of the table) do not compile the whole choice tree.
    """
    if forced(s, g, p, kind):
        return s.scratch.legal[0]
    if s.meta.scripted and not s.meta.bot_seat[p] and not g.sim:
        return scripted(s, g, p, kind)
    if not g.sim and s.meta.bots[p] == Bot.RANDOM:
        return audit(s, s.scratch.legal[rng.randint(g.rng, Lane.BOT + p, np.int64(s.scratch.n_legal))])
    return audit(s, cheapest_card(s, g, p)) if not g.sim else cheapest_card(s, g, p)
