"""Live Wikipedia through ``wikipedia-api``: full-text search, and page leads with their links.

Each fetched page is split into sentences and its links anchored in them (as for the embedded
corpus). Without network the methods raise :class:`WikipediaUnavailable` with a message a person
can act on. :mod:`fever_core.corpus.wikipedia_cache` keeps what was fetched, so a page is fetched once.
"""

from __future__ import annotations

import logging
import threading
import time

from fever_core.corpus.linking import TitleLinker
from fever_core.common.nlp import split_sentences
from fever_core.common.text import clean_json_text, title_to_page_id
from fever_core.common.types import Page, Sentence

log = logging.getLogger(__name__)

USER_AGENT = "FEVER-Workbench/0.1 (fact-checking workbench; offline-first)"
MAX_ANSWER_BYTES = 32 << 20
"""The largest answer read from the API (bytes as sent): a larger one is given up on, nothing of it kept."""
MAX_LEAD_CHARS = 20_000
"""The most of a page's lead that is read (characters); Wikipedia's longest leads have a few thousand. A longer one
(a hostile mirror's 10 MB page) is cut at its last sentence within the limit, with a logged warning."""
_CALL = threading.local()
"""The calling thread's :attr:`deadline` (``time.monotonic()``), set by :meth:`LiveWikipediaSource._call`."""


class WikipediaUnavailable(ConnectionError):
    """Wikipedia could not be reached (no network, timeout, or the service answered with an error or with
    something that is not a MediaWiki answer)."""


class MalformedAnswer(ValueError):
    """The API answered, but not as MediaWiki's ``api.php`` does (e.g. ``{}``, or an error object, or more than
    :data:`MAX_ANSWER_BYTES`)."""


class DeadlinePassed(Exception):
    """A call's deadline passed while it was still asking: it stops there, its caller has already given up."""


def checked_answer(answer: object) -> dict:
    """``answer`` when it is a MediaWiki API answer (it has ``query``, ``batchcomplete`` or ``continue``), its
    text cleaned as it enters the workbench (:func:`~fever_core.common.text.clean_json_text`: lone surrogates dropped).

    Raises:
        MalformedAnswer: for an error object or anything else, so that it is never read as "no results".
    """
    if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
        raise MalformedAnswer(f"an error: {answer['error'].get('info') or answer['error'].get('code')}")
    if not isinstance(answer, dict) or not {"query", "batchcomplete", "continue"} & answer.keys():
        raise MalformedAnswer(f"not a MediaWiki answer: {str(answer)[:80]!r}")
    return clean_json_text(answer)  # type: ignore[return-value]


def _client(language: str, timeout_s: float, api_url: str | None):
    import httpx
    import wikipediaapi

    class Client(wikipediaapi.Wikipedia):
        @staticmethod
        def _build_url(language: str) -> str:
            return api_url or f"https://{language}.wikipedia.org/w/api.php"

        def _get(self, language: str, params: dict) -> dict:
            return checked_answer(super()._get(language, params))

        def _do_get(self, url: str, params: dict) -> dict:
            """One request, read as it streams in and stopped when the calling thread's deadline passes (before
            the request, or between any two pieces of its answer): a server that trickles its answer, or that
            never stops asking for one more page of results (``continue``), keeps no thread past the deadline."""
            deadline = getattr(_CALL, "deadline", float("inf"))
            body = bytearray()
            try:
                if time.monotonic() > deadline:
                    raise DeadlinePassed
                with self._client.stream("GET", url, params=params) as answer:
                    for piece in answer.iter_raw():
                        if time.monotonic() > deadline:
                            raise DeadlinePassed
                        body += piece
                        if len(body) > MAX_ANSWER_BYTES:
                            raise MalformedAnswer(f"more than {MAX_ANSWER_BYTES >> 20} MiB")
            except httpx.TimeoutException as exc:
                raise wikipediaapi.WikiHttpTimeoutError(url) from exc
            except httpx.ConnectError as exc:
                raise wikipediaapi.WikiConnectionError(url) from exc
            whole = httpx.Response(answer.status_code, headers=answer.headers, content=bytes(body), request=answer.request)
            return self._process_response(whole, url)

    return Client(user_agent=USER_AGENT, language=language, timeout=timeout_s, max_retries=0)


class LiveWikipediaSource:
    """Fetches page leads from Wikipedia's API.

    Args:
        language: Wikipedia language code. Default ``"en"``.
        timeout_s: seconds one call (a search, or a page's fetch) may take in all, however slowly the server
            answers; also the wait for each read. Default 10.
        api_url: the MediaWiki ``api.php`` address; default Wikipedia's own (a mirror or a local
            recording can be used instead).
    """

    name = "wikipedia"

    def __init__(self, language: str = "en", timeout_s: float = 10.0, api_url: str | None = None):
        self.language = language
        self.timeout_s = timeout_s
        self.api_url = api_url
        self._wiki = _client(language, timeout_s, api_url)

    def _call(self, what: str, fn):
        """``fn()``, or :class:`WikipediaUnavailable` when it fails or has not returned after ``timeout_s``.

        The call runs in a daemon thread with that deadline: a server that trickles its answer a byte at a time, or
        that never stops answering ``continue``, keeps neither the caller nor, past the deadline, that thread."""
        import wikipediaapi

        outcome: dict[str, object] = {}
        deadline = time.monotonic() + self.timeout_s

        def run() -> None:
            _CALL.deadline = deadline
            try:
                outcome["value"] = fn()
            except BaseException as exc:  # handed to the caller's thread below
                outcome["error"] = exc

        worker = threading.Thread(target=run, name="wikipedia-call", daemon=True)
        worker.start()
        worker.join(self.timeout_s)
        if worker.is_alive() or isinstance(outcome.get("error"), DeadlinePassed):
            raise WikipediaUnavailable(
                f"Wikipedia did not answer within {self.timeout_s:g} s when asked to {what}: it is slow or not "
                "answering. The local corpora (embedded, fever-dev, fm2) still work.")
        try:
            if "error" in outcome:
                raise outcome["error"]  # type: ignore[misc]
            return outcome.get("value")
        except (MalformedAnswer, wikipediaapi.WikiInvalidJsonError, KeyError, TypeError) as exc:
            raise WikipediaUnavailable(
                f"Wikipedia's API answered in an unexpected form when asked to {what} ({exc}): check that "
                "FEVER_WIKIPEDIA_API_URL is a MediaWiki api.php address. Nothing of that answer was kept."
            ) from exc
        except wikipediaapi.WikipediaException as exc:
            raise WikipediaUnavailable(
                f"Can't reach Wikipedia to {what} ({exc.__class__.__name__}): the machine seems to be offline "
                "or Wikipedia is not answering. The local corpora (embedded, fever-dev, fm2) still work."
            ) from exc

    def search_titles(self, query: str, limit: int = 5) -> list[str]:
        """Titles of Wikipedia's best full-text matches for ``query``."""
        if not query.strip():
            return []
        results = self._call(f"search for {query!r}", lambda: self._wiki.search(query, limit=limit))
        return [page.title for page in results.pages.values()][:limit]

    def fetch_page(self, title: str) -> Page | None:
        """The lead section of a page as sentences with anchored links; ``None`` if no such page.

        Two requests (more only for pages with over 500 links): the lead's plain text, then the
        page's links to articles. A redirect is followed: the page returned has the real title.
        """

        def fetch():
            page = self._wiki.page(title)
            lead = self._wiki.extracts(page, exintro=1)
            if not page.exists():
                return None
            return page.title, lead, list(self._wiki.links(page, plnamespace=0)) if lead.strip() else []

        fetched = self._call(f"fetch {title!r}", fetch)
        if fetched is None:
            return None
        real_title, lead, link_titles = fetched
        page_id = title_to_page_id(real_title)
        texts = split_sentences([lead[:MAX_LEAD_CHARS]])[0] if lead.strip() else []
        if len(lead) > MAX_LEAD_CHARS:
            texts = texts[:-1] or texts  # the last one was cut short
            log.warning("The lead of %r from %s has %s characters: only its first %s sentences (up to %s characters) "
                        "were kept.", real_title, self.api_url or "Wikipedia", f"{len(lead):,}", len(texts),
                        f"{MAX_LEAD_CHARS:,}")
        linker = TitleLinker((title_to_page_id(t), t) for t in link_titles)
        links = linker.link_texts(texts, own_page_id=page_id) if texts else []
        sentences = [Sentence(page_id, i, text, lk) for i, (text, lk) in enumerate(zip(texts, links))]
        return Page(page_id, real_title, sentences, source=self.name)
