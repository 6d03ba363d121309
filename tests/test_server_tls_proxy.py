"""Behind a TLS proxy (issue 28, item 11): the session and CSRF cookies can be forced Secure
whatever the proxy forwards, and Strict-Transport-Security can be sent; by default neither
changes (plain http on a development machine keeps working)."""

from __future__ import annotations

from pathlib import Path

from server_support import client


def _cookies(c: object) -> list[str]:
    r = c.get("/api/account/csrf")  # type: ignore[attr-defined]
    return [v for k, v in r.headers.multi_items() if k == "set-cookie"]


def test_cookies_forced_secure_and_hsts(tmp_path: Path) -> None:
    with client(f"sqlite:///{tmp_path / 'a.sqlite3'}", cookie_secure="always",
                hsts_seconds=31_536_000) as c:
        assert all("secure" in v.lower() for v in _cookies(c))
        # Over plain http the client keeps no Secure cookie: send the double submit by hand.
        r = c.post("/api/account/signup", json={"name": "ana", "password": "x" * 12},
                   headers={"X-CSRF-Token": "t0ken", "Cookie": "rc_csrf=t0ken"})
        assert r.status_code == 201
        session = [v for k, v in r.headers.multi_items()
                   if k == "set-cookie" and v.startswith("rc_session=")]
        assert session and "secure" in session[0].lower()
        assert c.get("/api/health").headers["strict-transport-security"] == "max-age=31536000"


def test_by_default_plain_http_keeps_plain_cookies(tmp_path: Path) -> None:
    with client(f"sqlite:///{tmp_path / 'b.sqlite3'}") as c:
        assert not any("secure" in v.lower() for v in _cookies(c))
        assert "strict-transport-security" not in c.get("/api/health").headers
