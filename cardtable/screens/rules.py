"""The rules pages and the keys page: one game's page as Markdown (or first a list of the games),
and beside it, when a screen asked, a "Keys" tab listing every key of that screen."""

from __future__ import annotations

from typing import Iterable, Sequence

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Footer, MarkdownViewer, OptionList, Static, TabbedContent, TabPane
from ..widgets.header import Header
from textual.widgets.option_list import Option

from .closing import OpensWhileRunning

import rules

from ..rulesdoc import rules_page

KeyRow = tuple[str, str, str]
"""(keys as shown, what they do, "" or why not now)."""

# what the app itself answers on every screen
APP_KEYS: tuple[KeyRow, ...] = (
    ("^p", "Command palette: themes, bot speed, settings", ""),
    ("F1", "This page: the keys of the screen you came from", ""),
)
QUIT_KEY: KeyRow = ("^q", "Quit cardtable (games are saved; asks if not)", "")
QUIT_KEY_IN_BROWSER: KeyRow = ("^q", "Quit: ends this browser tab (asks first)", "")


def keys_of(screen: Screen) -> list[KeyRow]:
    """Every key of ``screen`` and of the widgets on it that cardtable defines (Textual's own
    text-field keys are left out), with whether each can act right now. One key, one meaning:
    a key means what Textual would do with it now — the focused widget's binding first, then its
    containers', then the screen's — and widgets that can take the keys later (a board's cursor)
    add only keys not taken; a widget that cannot take the focus (a hand hidden behind a game's
    own keys) adds none. Keys that do one action with different parameters under one
    description (``1``…``4`` "Choose pile") share a row."""
    app = screen.app
    chain = [node for node, _bindings in screen._modal_binding_chain if isinstance(node, Widget)]
    later = [node for node in screen.walk_children(with_self=False)
             if node not in chain and node.focusable and node.display]
    # every (key, widget, binding) in the order Textual tries them: priority bindings from the
    # screen down to the focus, then the focus up to the screen, then widgets focused later
    tried: list[tuple[str, Widget, Binding]] = []
    for priority, nodes in ((True, reversed(chain)), (False, [*chain, *later])):
        for node in nodes:
            for cls in type(node).__mro__:
                if not cls.__module__.startswith("cardtable.") or "BINDINGS" not in vars(cls):
                    continue
                for binding in vars(cls)["BINDINGS"]:
                    if isinstance(binding, Binding) and binding.description and binding.priority == priority:
                        tried += [(key.strip(), node, binding) for key in binding.key.split(",") if key.strip()]
    # a key means the first binding that acts on it now: Textual passes a key over a binding whose
    # check_action says no (the saves list's Enter resumes, in the trash it restores). The first
    # binding of a key is listed too, "not now" when another acts instead (Abundance's 1-4 choose
    # a pile, and type a bid during an auction)
    first: dict[str, tuple[Widget, Binding]] = {}
    meaning: dict[str, tuple[Widget, Binding]] = {}
    for key, node, binding in tried:
        first.setdefault(key, (node, binding))
        if key not in meaning and node in chain and _state(app, node, binding):
            meaning[key] = (node, binding)
    for key, node, binding in tried:
        meaning.setdefault(key, (node, binding))
    rows: dict[tuple[str, str], KeyRow] = {}
    summed: set[tuple[str, str]] = set()
    seen: set[int] = set()
    for _key, node, binding in tried:
        keys = [key.strip() for key in binding.key.split(",")
                if (node, binding) in (meaning.get(key.strip()), first.get(key.strip()))]
        if not keys or id(binding) in seen:
            continue
        seen.add(id(binding))
        # a key shown as the footer shows it ("PgUp"; "1-4" for a run of keys that share one
        # meaning): the footer and this page name each key alike
        one = len(binding.key.split(",")) == 1
        shown = binding.key_display if one and binding.key_display else " ".join(
            _key_display(app, key) for key in keys)
        note = "" if _state(app, node, binding) else "not now"
        row = (binding.action.split("(")[0], binding.description)
        if row in rows:
            shown_keys, description, first_note = rows[row]
            # a game's BINDINGS may repeat the shared table's: one key is named once
            if row not in summed and shown not in shown_keys.split(" "):
                rows[row] = (f"{shown_keys} {shown}", description, first_note)
        else:
            rows[row] = (shown, binding.description, note)
            if one and binding.key_display:
                summed.add(row)  # its display already names the keys that follow
    return [*rows.values(), *APP_KEYS, QUIT_KEY_IN_BROWSER if app.is_web else QUIT_KEY]


def _key_display(app: App, key: str) -> str:
    key = key.strip()
    return app.get_key_display(Binding(key, ""))


def _state(app: App, node: Widget, binding: Binding) -> bool | None:
    """Whether ``binding`` of ``node`` acts now (its check_action: None greyed, False hidden)."""
    try:
        return app._check_action_state(binding.action, node)
    except Exception:  # noqa: BLE001 — an action that needs its parameters: count it as acting
        return True


class RulesPage(OpensWhileRunning, MarkdownViewer):
    """The rules page (a MarkdownViewer, which fills itself in when mounted)."""


class RulesScreen(OpensWhileRunning, Screen):
    """The rules of ``game_name`` (with None, a list of the games to choose from); with ``keys``
    (see ``keys_of``), a "Keys" tab beside them, shown first when ``start`` is "keys"."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("t", "contents", "Contents"),
    ]

    def __init__(self, game_name: str | None = None, keys: Sequence[KeyRow] | None = None,
                 start: str = "rules") -> None:
        super().__init__()
        self.game_name = game_name
        self.keys = list(keys) if keys is not None else None
        self.start = start

    def compose(self) -> ComposeResult:
        yield Header()
        if self.keys is None:
            yield from self._rules()
        else:
            with TabbedContent(initial="tab-keys" if self.start == "keys" else "tab-rules"):
                with TabPane("Rules", id="tab-rules"):
                    yield from self._rules()
                with TabPane("Keys", id="tab-keys"):
                    yield Static("Every key of the screen you came from; 'not now' keys are greyed "
                                 "or hidden in its footer.", classes="keys-note")
                    yield DataTable(cursor_type="row", zebra_stripes=True, id="keys-table")
        yield Footer()

    def _rules(self) -> Iterable[Widget]:
        if self.game_name is None:
            yield Static("Rules of which game?", classes="screen-title")
            yield OptionList(
                *(Option(Content.from_markup("[b]$title[/]  [dim]$blurb[/]", title=info.title, blurb=info.blurb),
                         id=info.name) for info in rules.CATALOGUE),
                id="rules-games",
            )
        else:
            yield RulesPage(rules_page(self.game_name), show_table_of_contents=False, id="rules-page")

    def on_mount(self) -> None:
        info = rules.INFO.get(self.game_name or "")
        self.sub_title = f"Rules of {info.title}" if info is not None else "Rules"
        if self.keys is not None:
            table = self.query_one("#keys-table", DataTable)
            table.add_columns("Key", "Now", "What it does")
            for shown, description, note in self.keys:
                table.add_row(Text(shown, style="bold"), Text(note or "✔", style="dim" if note else "green"),
                              Text(description))
        if self.start == "keys" and self.keys is not None:
            self.query_one("#keys-table").focus()
        elif self.game_name is None:
            games = self.query_one("#rules-games", OptionList)
            games.highlighted = 0
            games.focus()
        else:
            self.query_one(MarkdownViewer).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.app.push_screen(RulesScreen(event.option.id))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "contents":
            return self.game_name is not None
        return True

    def action_contents(self) -> None:
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents

    def action_back(self) -> None:
        self.dismiss()
