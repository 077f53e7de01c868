"""What the page tests share: a sheet made through the new-sheet form, as a browser posts it."""

from scoring.models import Sheet


def start(client, slug, players, lang=None, *, fields=None, **options):
    """Post the new-sheet form (`opt-<name>` for each option, or the raw `fields`); return the sheet made."""
    if lang:
        client.cookies["django_language"] = lang
    data = {"player": players, **(fields or {}), **{f"opt-{k}": v for k, v in options.items()}}
    r = client.post(f"/new/{slug}/", data)
    assert r.status_code == 302, r.content.decode()[:2000]
    return Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
