"""One record per kind of change, in the shape of oasdiff's rule records (`checker/rules.go`): what a kind is,
said once. The comparison makes records of these kinds (`changes.py`); everything else reads this registry:

- `id`: the JSON `kind`, a stable kebab-case id (consumers match on it: never renamed; new kinds are appended,
  so RULES is in the order the kinds entered the diff format, which is the order of `counts.by_kind`);
- `one`, `many`: its words as the summary counts it; `summary`: its place in the summary;
- `section`: the heading its records are listed under (the service, the listing, a label, the register);
- `describe`: its sentence (`sentences.py`); None for the value kinds, which are table rows;
- `anchored`: its record is an anchor of a site comparison page (a changelog row can link to it);
- `step`: what a record of it does to the earlier catalogue when a diff is applied (`steps.py`);
- `covers`: which other records an acknowledgement of one of its records covers (`gate.py`): a plan entry's or
  a label's removal or addition covers the value records (and, for a label, the plan entry listings) it implies.

Adding a kind is its line here, its sentence and its step (and the comparison that makes it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from catalog_docs.compare import sentences as say
from catalog_docs.compare import steps
from catalog_docs.compare.changes import Change, Comparison

Section = Literal["service", "entries", "label", "not-shown"]
Describe = Callable[[Change, Comparison, say.Name], str]
Step = Callable[[steps.Later, dict[str, Any]], None]
Covers = Callable[[Change, Change], bool]
"""`covers(acknowledged, other)`: whether acknowledging `acknowledged` also acknowledges `other`."""


def _plan_values(ack: Change, other: Change) -> bool:
    """A plan entry listing added or removed covers the value records of that listing: the values it had
    (removed) or has (added, each compared with the plan entry's previous label, or new)."""
    if not other.kind.startswith("value-"):
        return False
    if ack.kind == "plan-removed":
        return (other.before.label, other.before.plan, other.after.label) == (ack.before.label, ack.before.plan,
                                                                             ack.after.label)
    return (other.after.label, other.after.plan) == (ack.after.label, ack.after.plan)


def _label_listings(ack: Change, other: Change) -> bool:
    """A label added or removed covers every plan entry listing and value record under it."""
    if not (other.kind.startswith("value-") or other.kind in ("plan-added", "plan-removed")):
        return False
    if ack.kind == "label-removed":
        return other.before.label == ack.before.label and other.after.label is None
    return other.after.label == ack.after.label


@dataclass(frozen=True, slots=True, kw_only=True)
class KindRule:
    """Everything about one kind of change record (see the module's docstring)."""

    id: str
    one: str
    many: str
    summary: int
    section: Section
    describe: Describe | None
    anchored: bool = False
    step: Step
    covers: Covers | None = None

    @property
    def is_value(self) -> bool:
        """A value record: a table row under its label and plan entry, not a sentence."""
        return self.describe is None

    def noun(self, n: int) -> str:
        """Its words for `n` records: `value changed`, `values changed`."""
        return self.one if n == 1 else self.many


RULES: tuple[KindRule, ...] = (
    KindRule(id="value-changed", one="value changed", many="values changed", summary=13, section="label",
             describe=None, anchored=True, step=steps.value),
    # A plan-added or plan-removed record is one (label, plan entry) listing: the plan entry itself may well be
    # listed under other labels (service-changed says when a name is added to or removed from the catalogue).
    KindRule(id="plan-added", one="plan entry listing added", many="plan entry listings added", summary=7,
             section="label", describe=say.plan_added, anchored=True, step=steps.plan_added, covers=_plan_values),
    KindRule(id="plan-removed", one="plan entry listing removed", many="plan entry listings removed", summary=8,
             section="label", describe=say.plan_removed, anchored=True, step=steps.plan_removed,
             covers=_plan_values),
    KindRule(id="entry-added", one="listing entry added", many="listing entries added", summary=10,
             section="entries", describe=say.entry_added, step=steps.entry_added),
    KindRule(id="entry-removed", one="listing entry removed", many="listing entries removed", summary=11,
             section="entries", describe=say.entry_removed, step=steps.entry_removed),
    KindRule(id="entry-changed", one="listing entry changed", many="listing entries changed", summary=12,
             section="entries", describe=say.entry_changed, step=steps.entry_changed),
    KindRule(id="label-added", one="version label added", many="version labels added", summary=4,
             section="label", describe=say.label_added, step=steps.label_added, covers=_label_listings),
    KindRule(id="label-removed", one="version label removed", many="version labels removed", summary=5,
             section="label", describe=say.label_removed, step=steps.label_removed, covers=_label_listings),
    KindRule(id="not-shown-added", one="not-shown item added", many="not-shown items added", summary=16,
             section="not-shown", describe=say.not_shown_added, step=steps.not_shown_added),
    KindRule(id="not-shown-removed", one="not-shown item removed", many="not-shown items removed", summary=17,
             section="not-shown", describe=say.not_shown_removed, step=steps.not_shown_removed),
    KindRule(id="not-shown-changed", one="not-shown item changed", many="not-shown items changed", summary=18,
             section="not-shown", describe=say.not_shown_changed, step=steps.not_shown_changed),
    KindRule(id="value-added", one="new value (no earlier listing)", many="new values (no earlier listing)",
             summary=14, section="label", describe=None, anchored=True, step=steps.value),
    KindRule(id="value-removed", one="value no longer listed", many="values no longer listed", summary=15,
             section="label", describe=None, anchored=True, step=steps.value_removed),
    KindRule(id="label-changed", one="version label changed", many="version labels changed", summary=6,
             section="label", describe=say.label_changed, step=steps.label_changed),
    KindRule(id="plan-changed", one="plan entry changed", many="plan entries changed", summary=9,
             section="label", describe=say.plan_changed, step=steps.plan_changed),
    # One service: at most one record, so one word for both.
    KindRule(id="service-changed", one="service changed", many="service changed", summary=0, section="service",
             describe=say.service_changed, step=steps.service_changed),
    KindRule(id="area-added", one="area added", many="areas added", summary=1, section="service",
             describe=say.area_added, step=steps.area_added),
    KindRule(id="area-removed", one="area removed", many="areas removed", summary=2, section="service",
             describe=say.area_removed, step=steps.area_removed),
    KindRule(id="area-changed", one="area changed", many="areas changed", summary=3, section="service",
             describe=say.area_changed, step=steps.area_changed),
)
"""Every kind, in the order the kinds entered the diff format."""

RULES_BY_ID: dict[str, KindRule] = {r.id: r for r in RULES}
KIND_IDS: tuple[str, ...] = tuple(r.id for r in RULES)
"""Every kind's id, in the diff format's order (`--fail-on` lists them so)."""
SUMMARY_ORDER: tuple[KindRule, ...] = tuple(sorted(RULES, key=lambda r: r.summary))
"""The service and its areas, then what exists (labels, plan entries, listing entries), then values, then the
register: the order of every summary."""
VALUE_KINDS: tuple[str, ...] = tuple(r.id for r in SUMMARY_ORDER if r.is_value)

assert len(RULES_BY_ID) == len(RULES), "each kind once"
assert sorted(r.summary for r in RULES) == list(range(len(RULES))), "each kind with its own place in the summary"


def rule_of(c: Change) -> KindRule:
    """The rule of a record's kind."""
    return RULES_BY_ID[c.kind]
