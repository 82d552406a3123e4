"""The workbench's JSON-LD exports expanded offline: schema.org's context is served from the copy shipped in
``assets/jsonld/`` (the network is never asked), and every term the context does not define is reported."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from pyld import jsonld

from fever_core.common.settings import PROJECT_ROOT

CONTEXT_FILE = PROJECT_ROOT / "assets" / "jsonld" / "schema.org.jsonld"
SCHEMA = "http://schema.org/"
SCHEMA_ORG = ("https://schema.org", "http://schema.org")
"""The addresses of schema.org's context (with or without a final slash), the only ones the loader serves."""


def offline_loader(url: str, options: dict | None = None) -> dict:
    """pyld's document loader for schema.org's context, from :data:`CONTEXT_FILE`; any other address is refused."""
    if url.rstrip("/") not in SCHEMA_ORG:
        raise ValueError(f"{url} is not schema.org's context: only that one is served offline")
    return {
        "contextUrl": None,
        "documentUrl": url,
        "contentType": "application/ld+json",
        "document": json.loads(CONTEXT_FILE.read_text(encoding="utf-8")),
    }


def expand(document: dict) -> tuple[list[dict], list[str]]:
    """``document`` expanded (every term as its full IRI), and the terms dropped on the way (none, for a document
    whose every term the context defines)."""
    dropped: list[str] = []
    expanded = jsonld.expand(document, {"documentLoader": offline_loader}, on_property_dropped=dropped.append)
    return expanded, dropped


def values(node: dict, term: str) -> list:
    """The values of schema.org's ``term`` in an expanded node: a literal's ``@value``, a reference's ``@id``, a
    nested node as it is."""
    found = []
    for item in node.get(SCHEMA + term, []):
        if "@value" in item:
            found.append(item["@value"])
        elif set(item) == {"@id"}:
            found.append(item["@id"])
        else:
            found.append(item)
    return found


def scripts_when_embedded(text: str) -> list[str]:
    """The script elements a web page holds once a JSON-LD export's ``text`` is pasted into its ``<script
    type="application/ld+json">`` (as a fact-checking site publishes a ClaimReview), each as its text, read by
    Python's HTML parser as a browser reads scripts: exactly one, holding the whole export, when the export is safe."""
    page = f'<html><head><script type="application/ld+json">{text}</script></head><body><p>A check.</p></body></html>'

    class Scripts(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.found: list[list[str]] = []
            self.inside = False

        def handle_starttag(self, tag, attrs):
            if tag == "script":
                self.found.append([])
                self.inside = True

        def handle_endtag(self, tag):
            if tag == "script":
                self.inside = False

        def handle_data(self, data):
            if self.inside:
                self.found[-1].append(data)

    parser = Scripts()
    parser.feed(page)
    parser.close()
    return ["".join(script) for script in parser.found]
