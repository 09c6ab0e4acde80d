"""The header's title may be set while its screen is being taken down (a finished table that the
results replace at once): that raised NoMatches from Textual's Header and ended the app (seen in
CI on tests/app/test_stats_screen.py)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets._header import HeaderTitle

from cardtable.widgets.header import Header


class HeaderApp(App):
    def compose(self) -> ComposeResult:
        yield Header()


async def test_a_title_set_when_the_headers_parts_are_gone_ends_nothing():
    app = HeaderApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        await app.query_one(HeaderTitle).remove()  # as when its screen is taken down
        app.screen.title = "Property — Results"
        await pilot.pause()
        assert app.is_running and app.return_code is None
