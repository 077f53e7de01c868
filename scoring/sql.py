"""The few statements every sheet request runs, written once per database.

Through the ORM, building and compiling these queries costs several times more
than running them, on every request. Here each statement's SQL and its column
converters are made once per database connection alias and reused; values go
through the fields' own `get_db_prep_save` and come back through the same
converters as the ORM's, so the rows are what the ORM would give.
"""

import functools

from django.db import connections


def _convert(chain, expression, conn, value):
    for converter in chain:
        value = converter(value, expression, conn)
    return value


class Select:
    """A SELECT of some fields of a model; `where` names fields in braces: "{sheet} = %s"."""

    def __init__(self, model, fields: list[str], where: str, *, order_by: str = "", lock: bool = False):
        self.model, self.fields, self.where, self.order_by, self.lock = model, fields, where, order_by, lock
        self._built: dict = {}

    def _build(self, using: str):
        conn = connections[using]
        meta = self.model._meta
        quote = conn.ops.quote_name
        column = {f.name: quote(f.column) for f in meta.concrete_fields}
        column["pk"] = quote(meta.pk.column)
        fields = [meta.get_field(name) for name in self.fields]
        sql = f"SELECT {', '.join(column[f.name] for f in fields)} FROM {quote(meta.db_table)}"
        sql += " WHERE " + self.where.format(**column)
        if self.order_by:
            sql += f" ORDER BY {column[self.order_by]}"
        if self.lock and conn.features.has_select_for_update:
            sql += " FOR UPDATE"  # SQLite's write transaction already holds the whole file
        converters = []
        for index, field in enumerate(fields):
            col = field.get_col(meta.db_table)
            chain = conn.ops.get_db_converters(col) + col.get_db_converters(conn)
            if chain:
                converters.append((index, functools.partial(_convert, chain, col, conn)))
        return sql, converters

    def rows(self, params: list, *, using: str = "default") -> list[list]:
        built = self._built.get(using)
        if built is None:
            built = self._built[using] = self._build(using)
        sql, converters = built
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            rows = [list(row) for row in cursor.fetchall()]
        for row in rows:
            for index, convert in converters:
                row[index] = convert(row[index])
        return rows

    def instances(self, params: list, *, using: str = "default") -> list:
        """Return model instances with only these fields loaded (all of them for a full read)."""
        names = [self.model._meta.get_field(name).attname for name in self.fields]
        return [self.model.from_db(using, names, row) for row in self.rows(params, using=using)]


def update(model, pk, values: dict, *, using: str = "default") -> None:
    """UPDATE one row by primary key with these field values."""
    update_many(model, [(pk, values)], using=using)


def update_many(model, changes: list[tuple], *, using: str = "default") -> None:
    """UPDATE rows by primary key; every change sets the same fields: [(pk, {field: value}), …]."""
    if not changes:
        return
    conn = connections[using]
    meta = model._meta
    quote = conn.ops.quote_name
    fields = [meta.get_field(name) for name in changes[0][1]]
    sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"
    params = [[f.get_db_prep_save(values[f.name], conn) for f in fields] + [pk] for pk, values in changes]
    with conn.cursor() as cursor:
        if len(params) == 1:
            cursor.execute(sql, params[0])
        else:
            cursor.executemany(sql, params)


def insert(model, values: dict, *, using: str = "default") -> None:
    """INSERT one row with these field values (every column but an automatic id)."""
    conn = connections[using]
    meta = model._meta
    quote = conn.ops.quote_name
    fields = [meta.get_field(name) for name in values]
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    with conn.cursor() as cursor:
        cursor.execute(sql, [f.get_db_prep_save(values[f.name], conn) for f in fields])
