"""`pipkeeper serve --behind-proxy`: one proxy's X-Forwarded-For and X-Forwarded-Proto
are believed (the phone's own address, https), and without it no forwarded header is."""

from __future__ import annotations

import pytest
from flask import Flask

from pipkeeper.commands.serve import trust_proxy
from tests.conftest import AppFactory

FORWARDED = {"Origin": "https://localhost", "X-Forwarded-Proto": "https",
             "X-Forwarded-For": "203.0.113.7"}


@pytest.mark.parametrize(("behind_proxy", "status"), [(True, 201), (False, 403)])
def test_an_https_page_behind_the_proxy_may_post(make_app: AppFactory, behind_proxy: bool,
                                                  status: int) -> None:
    app: Flask = make_app()
    if behind_proxy:
        trust_proxy(app)
    response = app.test_client().post("/api/games", json={"players": ["Ann"]},
                                      headers=FORWARDED)
    assert response.status_code == status
    if behind_proxy:
        assert "Secure" in response.headers["Set-Cookie"]


def test_the_address_is_the_one_the_proxy_names(make_app: AppFactory) -> None:
    app: Flask = make_app()
    trust_proxy(app)
    seen: list[str | None] = []

    @app.get("/whoami")
    def whoami() -> str:
        from flask import request

        seen.append(request.remote_addr)
        return ""

    app.test_client().get("/whoami", headers=FORWARDED, environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert seen == ["203.0.113.7"]
