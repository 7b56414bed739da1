"""The join link reaches phones: an app opened at localhost puts this machine's network address in the join link
and QR code, and tells the teacher what phones can reach and how to start the app on the network."""

from __future__ import annotations

import ipaddress
from functools import partial

import pytest
from app_runs import markdown_text as markdown
from app_runs import start_app

from ui.campaigns import class_mode, network

start = partial(start_app, key="demo:ted-zh-en", label=None, open_demo=False, first_run=False)


def start_a_class(ted_zh_en):
    at = start("campaigns", ted_zh_en)
    [button] = [b for b in at.button if b.label == "Start a class"]
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_localhost_gets_the_network_address_in_the_join_link(db, ted_zh_en, monkeypatch):
    monkeypatch.setattr(class_mode, "network_address", lambda: "10.1.2.3")
    at = start_a_class(ted_zh_en)
    assert "http://10.1.2.3:8501/rate?campaign=" in markdown(at)
    assert any("phones cannot open" in w.value and "10.1.2.3" in w.value for w in at.warning)


def test_without_a_network_the_teacher_is_told_to_connect(db, ted_zh_en, monkeypatch):
    monkeypatch.setattr(class_mode, "network_address", lambda: None)
    at = start_a_class(ted_zh_en)
    assert any("no network address" in w.value for w in at.warning)


def test_a_server_on_loopback_only_says_how_to_start_on_the_network():
    reach = network.reachable_join_base(
        "http://localhost:8501", listen_address="127.0.0.1", detected="192.168.0.7"
    )
    assert reach.base == "http://192.168.0.7:8501"
    assert "make run ADDRESS=0.0.0.0" in reach.warning and "this computer only" in reach.warning


def test_an_address_phones_can_open_is_kept_without_a_warning():
    reach = network.reachable_join_base(
        "https://class.example.org", listen_address=None, detected="10.0.0.1"
    )
    assert reach == network.JoinBase("https://class.example.org")


@pytest.mark.parametrize("host", ["localhost", "127.0.0.5", "[::1]"])
def test_loopback_hosts_are_recognised(host):
    assert network.is_loopback(host)


def test_the_detected_address_is_none_or_a_real_network_address():
    found = network.network_address()
    assert found is None or not ipaddress.ip_address(found).is_loopback
