"""The companion as an installed app: a manifest with icons a phone accepts,
and a service worker that shows a clear page when the table's server is
gone (a real browser, a real server stopped under it)."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tests.companion.conftest import need_htmx


def test_the_manifest_names_the_app_and_its_icons(app: Any) -> None:
    client = app.test_client()
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.mimetype == "application/manifest+json"
    data = manifest.json
    assert data["display"] == "standalone" and data["start_url"] == "/"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    from PIL import Image

    for icon in data["icons"]:
        png = client.get(icon["src"])
        assert png.mimetype == "image/png"
        assert "%dx%d" % Image.open(io.BytesIO(png.data)).size == icon["sizes"]
    page = client.get("/").get_data(as_text=True)
    assert 'rel="manifest" href="/manifest.webmanifest"' in page and 'data-sw="/sw.js"' in page
    worker = client.get("/sw.js")
    assert worker.mimetype == "text/javascript" and worker.headers["Service-Worker-Allowed"] == "/"
    assert '"/offline"' in worker.get_data(as_text=True)
    assert "cannot be reached" in client.get("/offline").get_data(as_text=True)


@pytest.mark.browser
@pytest.mark.slow
def test_a_phone_that_loses_the_server_sees_the_offline_page(browser: Any, server_factory: Any) -> None:
    need_htmx()
    server = server_factory().start()
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.goto(server.url + "/")
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")   # installed and active
    page.reload()          # now the worker controls the page
    assert page.evaluate("!!navigator.serviceWorker.controller")
    server.stop()
    page.reload()
    page.wait_for_selector("#offline")
    assert "cannot be reached" in page.inner_text("h1")
    assert "seat" in page.inner_text("#offline")
    ctx.close()
