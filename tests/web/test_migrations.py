"""The Alembic migrations turn an empty database into exactly the schema the models describe."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import current_app

from scorekeeper.extensions import db


def test_migrations_build_an_empty_database_into_the_models_schema(unmigrated_app, upgrade):
    with unmigrated_app.app_context():
        assert sa.inspect(db.engine).get_table_names() == []

    upgrade(unmigrated_app)

    with unmigrated_app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        config = current_app.extensions["migrate"].migrate.get_config()
        head = ScriptDirectory.from_config(config).get_current_head()
        assert context.get_current_revision() == head
        assert set(sa.inspect(connection).get_table_names()) == {
            *db.metadata.tables,
            "alembic_version",
        }
        # A model changed without a migration (or the reverse) shows up here as a difference.
        assert compare_metadata(context, db.metadata) == []
