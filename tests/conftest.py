"""Fixtures shared by every test package: the web app built through its factory.

``app`` has a fresh SQLite file in a temporary folder, ``client`` is its test
client, ``make_app`` builds another app on the same (or another) database file,
as a restarted server would. The advisor's table cache is a temporary folder.

A test whose ``engine`` is ``postgresql`` (see tests/web/conftest.py) gets instead a
fresh database on the session's own PostgreSQL cluster (`web.loadtest.postgres`),
started on first use and stopped at the end; without PostgreSQL's programs or
psycopg those tests are skipped, saying so.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

# The test folders mirror the packages (tests/web, tests/vision), and pytest puts
# tests/ on sys.path: without the repository root first, `import web` would find
# the folder tests/web instead of the package when run as plain `pytest`.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))

# Property tests check values, not speed: hypothesis's per-example deadline fails them
# at random on a machine busy with other work.
settings.register_profile("values", deadline=None)
settings.load_profile("values")

from scorekeeper.advisor.cache import CACHE_ENV  # noqa: E402
from web import create_app  # noqa: E402
from web.storage import storage  # noqa: E402

if TYPE_CHECKING:
    from web.loadtest.postgres import Cluster

AppFactory = Callable[..., Flask]


@pytest.fixture(scope="session", autouse=True)
def advisor_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point the advisor's table cache at a folder of this session, never the user's own.

    The web app solves tables in background threads, so the variable is set for the
    whole session rather than per test.
    """
    folder = tmp_path_factory.mktemp("advisor-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(folder))
        yield folder


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """The session's PostgreSQL cluster (skips the test where PostgreSQL is missing)."""
    from web.loadtest.postgres import Cluster, binaries

    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (no initdb/pg_ctl): the PostgreSQL tests "
                    "need Debian's postgresql package")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed: pip install -e '.[test]'")
    cluster = Cluster(bin_dir).start()
    yield cluster
    cluster.stop()


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    """The database engine of the test: "sqlite" unless parametrized."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def database(tmp_path: Path, engine: str, request: pytest.FixtureRequest) -> Iterator[Path]:
    """The test's database: the path of an SQLite file (created by the app), or for the
    postgresql engine the URL of a new database of its own (dropped afterwards)."""
    if engine == "sqlite":
        yield tmp_path / "pipkeeper.sqlite3"
        return
    cluster = request.getfixturevalue("postgres")
    url = cluster.create()
    yield url  # type: ignore[misc]  # a URL where the SQLite tests have a path
    cluster.drop(url)


@pytest.fixture
def make_app(database: Path) -> Iterator[AppFactory]:
    """Return a function building an app on *database* (or ``path``) with test settings;
    each app's connections are closed after the test."""
    built: list[Flask] = []

    def build(path: Path | None = None, **config: Any) -> Flask:
        settings: dict[str, Any] = {
            "TESTING": True,
            "DATABASE": str(path or database),
            "SECRET_KEY": "test secret",
            "EVENTS_POLL_SECONDS": 0.05,
            "EVENTS_KEEPALIVE_SECONDS": 0.5,
            "EVENTS_MAX_SECONDS": 3.0,
        }
        built.append(create_app(settings | config))
        return built[-1]

    yield build
    for app in built:
        storage(app).close()


@pytest.fixture
def app(make_app: AppFactory) -> Flask:
    """The app on a fresh temporary database."""
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of `app`."""
    return app.test_client()
