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
