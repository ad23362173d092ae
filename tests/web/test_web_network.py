"""The address phones are given: never the Pi's own loopback address."""

from __future__ import annotations

import ipaddress

from web.network import lan_address, shareable_url


def test_lan_address_is_an_ip():
    ipaddress.ip_address(lan_address())


def test_loopback_pages_share_the_lan_address():
    lan = lan_address()
    assert shareable_url("http://127.0.0.1:8000/", "127.0.0.1:8000") == f"http://{lan}:8000/"
    assert shareable_url("http://localhost/", "localhost") == f"http://{lan}/"
    assert shareable_url("http://phase10.local:8000/", "phase10.local:8000") == \
        "http://phase10.local:8000/"


def test_qr_code_of_the_page(client):
    svg = client.get("/qr.svg", base_url="http://phase10.local:8000")
    assert svg.status_code == 200 and svg.data.startswith(b"<svg")
    assert client.get("/qr.svg", query_string={"url": "x" * 301}).status_code == 400
    assert b"phase10.local:8000" in client.get("/", base_url="http://phase10.local:8000").data


def test_a_server_on_loopback_only_never_advertises_the_lan_address():
    # bound to 127.0.0.1 the server does not answer on the LAN address: keep its own
    assert shareable_url("http://127.0.0.1:8000/", "127.0.0.1:8000", "127.0.0.1") == \
        "http://127.0.0.1:8000/"
    assert shareable_url("http://localhost:8000/", "localhost:8000", "localhost") == \
        "http://localhost:8000/"
    # bound to one LAN address: that one
    assert shareable_url("http://127.0.0.1:8000/", "127.0.0.1:8000", "192.168.1.5") == \
        "http://192.168.1.5:8000/"


def _join_address(html: bytes) -> str:
    import re

    found = re.search(rb'data-testid="join-address">([^<]+)<', html)
    assert found, html
    return found.group(1).decode()


def test_pages_of_a_loopback_only_server_say_other_phones_cannot_join(tmp_path):
    from scorepad_helpers import make_config

    from web.app import close_app, create_app

    app = create_app(make_config(tmp_path, host="127.0.0.1"))
    try:
        html = app.test_client().get("/", base_url="http://127.0.0.1:8000").data
        assert _join_address(html) == "http://127.0.0.1:8000/"
        assert b"data-testid=\"join-local-only\"" in html and b"--host 0.0.0.0" in html
    finally:
        close_app(app)


def test_the_game_pages_qr_code_opens_that_game(client):
    import segno

    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    html = client.get(f"/games/{game_id}", base_url="http://127.0.0.1:8000").data
    address = _join_address(html)
    assert address == f"http://{lan_address()}:8000/games/{game_id}"
    assert b"join-local-only" not in html
    import re
    from html import unescape
    from urllib.parse import parse_qs, urlsplit

    src = unescape(re.search(rb'<img src="([^"]+)"[^>]*join-qr', html).group(1).decode())
    assert urlsplit(src).path == "/qr.svg"
    assert parse_qs(urlsplit(src).query) == {"url": [address]}  # the QR holds the game
    svg = client.get("/qr.svg", query_string={"url": address}).data
    assert svg == _svg_of(segno, address)
    home = client.get("/qr.svg", base_url="http://127.0.0.1:8000").data
    assert home == _svg_of(segno, f"http://{lan_address()}:8000/")


def _svg_of(segno, url: str) -> bytes:
    import io

    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=4, border=2, dark="#1d2b4f",
                                    xmldecl=False, svgclass="qr")
    return buffer.getvalue()
