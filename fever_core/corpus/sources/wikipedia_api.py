"""Live Wikipedia through ``wikipedia-api``: full-text search, and page leads with their links.

Each fetched page is split into sentences and its links anchored in them (as for the embedded
corpus). Without network the methods raise :class:`WikipediaUnavailable` with a message a person
can act on. :mod:`fever_core.corpus.wikipedia_cache` keeps what was fetched, so a page is fetched once.
"""

from __future__ import annotations

import logging
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any, TypeVar

from fever_core.common.nlp import split_sentences
from fever_core.common.text import clean_json_text, title_to_page_id
from fever_core.common.types import Page, Sentence
from fever_core.corpus.linking import TitleLinker

log = logging.getLogger(__name__)
T = TypeVar("T")

USER_AGENT = "FEVER-Workbench/0.1 (fact-checking workbench; offline-first)"
MAX_ANSWER_BYTES = 32 << 20
"""The largest answer read from the API (bytes once decoded, however few were sent compressed): a larger one is given
up on as it streams in, nothing of it kept."""
DECODE_STEP = 1 << 20
"""The most bytes a compressed answer is decoded into at a time."""
ACCEPT_ENCODING = "gzip, deflate"
"""The compressions asked for; an answer compressed otherwise (``br``, ``zstd``, several at once) is refused."""
MAX_LEAD_CHARS = 20_000
"""The most of a page's lead that is read (characters); Wikipedia's longest leads have a few thousand. A longer one
(a hostile mirror's 10 MB page) is cut at its last sentence within the limit, with a logged warning."""
_CALL = threading.local()
"""The calling thread's :attr:`deadline` (``time.monotonic()``), set by :meth:`LiveWikipediaSource._call`."""


class WikipediaUnavailable(ConnectionError):
    """Wikipedia could not be reached (no network, timeout, or the service answered with an error or with
    something that is not a MediaWiki answer)."""


class MalformedAnswer(ValueError):
    """The API answered, but not as MediaWiki's ``api.php`` does (e.g. ``{}``, an error object, ``query`` that is not
    an object, JSON nested too deeply, or more than :data:`MAX_ANSWER_BYTES` once decoded)."""


ANSWER_READING_ERRORS = (KeyError, IndexError, TypeError, AttributeError, ValueError, RecursionError)
"""What reading an answer of the wrong shape raises (a ``null`` or a number where an object or a list of pages
belongs, a nesting deeper than Python's recursion limit): a malformed answer, never a crash."""


class DeadlinePassed(Exception):
    """A call's deadline passed while it was still asking: it stops there, its caller has already given up."""


def checked_answer(answer: object) -> dict[str, Any]:
    """``answer`` when it is a MediaWiki API answer (an object with ``query``, ``batchcomplete`` or ``continue``, and
    ``query`` and ``continue`` objects when there), its text cleaned as it enters the workbench
    (:func:`~fever_core.common.text.clean_json_text`: lone surrogates dropped).

    Raises:
        MalformedAnswer: for an error object or anything else, so that it is never read as "no results".
    """
    if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
        raise MalformedAnswer(f"an error: {answer['error'].get('info') or answer['error'].get('code')}")
    if not isinstance(answer, dict) or not {"query", "batchcomplete", "continue"} & answer.keys():
        raise MalformedAnswer(f"not a MediaWiki answer: {str(answer)[:80]!r}")
    for part in ("query", "continue"):
        if part in answer and not isinstance(answer[part], dict):
            raise MalformedAnswer(f"its {part!r} is {str(answer[part])[:40]!r}, not an object")
    return clean_json_text(answer)


def checked_shape(answer: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """``answer`` (a :func:`checked_answer`) to the request ``params`` when what is read of it has MediaWiki's shape:
    ``query.search`` a list of results with text titles (a search); ``query.pages`` an object of pages with text
    titles, text extracts and lists of links with text titles (a page's lead or links); ``query.normalized`` and
    ``query.redirects`` lists of text pairs. Nothing is made of a number, a ``null`` or an object where text or a list
    belongs (read as it stands, ``5`` would be the title "5").

    Raises:
        MalformedAnswer: naming the part that is not of that shape.
    """
    query = answer.get("query", {})
    for part in ("normalized", "redirects"):
        _check_objects(query.get(part, []), f"query.{part}", ("from", "to"))
    if params.get("list") == "search":
        _check_objects(query.get("search"), "query.search", ("title",))
    if params.get("prop"):
        pages = query.get("pages")
        if not isinstance(pages, dict):
            raise MalformedAnswer(f"its query.pages is {str(pages)[:60]!r}, not an object")
        _check_objects(list(pages.values()), "query.pages", ("title",))
        for page in pages.values():
            if not isinstance(page.get("extract", ""), str):
                raise MalformedAnswer(f"the extract of {page['title']!r} is {str(page['extract'])[:60]!r}, not text")
            _check_objects(page.get("links", []), f"the links of {page['title']!r}", ("title",))
    return answer


def _check_objects(value: object, where: str, texts: tuple[str, ...]) -> None:
    """Raises :class:`MalformedAnswer` unless ``value`` is a list of objects, each with text at the keys ``texts``."""
    if not isinstance(value, list) or not all(
        isinstance(item, dict) and all(isinstance(item.get(key), str) for key in texts) for item in value
    ):
        raise MalformedAnswer(f"its {where} is {str(value)[:60]!r}, not a list of objects with text {'/'.join(texts)}")


class DecodedBody:
    """An answer's body as its pieces arrive, decoded as its ``Content-Encoding`` says (``gzip``, ``deflate`` or none)
    and counted as decoded: more than ``limit`` bytes is refused before more than ``limit + 1`` are held (and
    :data:`DECODE_STEP` more in passing), however small the compressed pieces (a gzip bomb).

    Raises:
        MalformedAnswer: in the constructor for another encoding; in :meth:`add` or :meth:`finish` past ``limit``,
            or for compressed bytes that can't be decoded.
    """

    def __init__(self, content_encoding: str, limit: int = MAX_ANSWER_BYTES):
        coding = content_encoding.strip().lower()
        if coding in ("", "identity"):
            self._inflate = None
        elif coding in ("gzip", "x-gzip", "deflate"):
            self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 32)  # a gzip or zlib header, found in the bytes
        else:
            raise MalformedAnswer(f"compressed as {content_encoding!r}, which is not read (asked: {ACCEPT_ENCODING})")
        self.limit = limit
        self.body = bytearray()

    def add(self, piece: bytes) -> None:
        """Decode ``piece`` and keep what it holds."""
        if self._inflate is None:
            self._keep(piece)
            return
        try:
            while True:  # at most a step at a time, and never past the limit: a bomb is stopped as it unpacks
                decoded = self._inflate.decompress(piece, min(DECODE_STEP, self.limit + 1 - len(self.body)))
                self._keep(decoded)
                piece = self._inflate.unconsumed_tail
                if not piece and len(decoded) < DECODE_STEP:  # a full step may leave output to come: ask again
                    break
        except zlib.error as exc:
            raise MalformedAnswer(f"its compressed body can't be decoded ({exc})") from exc

    def finish(self) -> bytes:
        """The whole decoded body."""
        if self._inflate is not None:
            try:
                self._keep(self._inflate.flush())
            except zlib.error as exc:
                raise MalformedAnswer(f"its compressed body can't be decoded ({exc})") from exc
        return bytes(self.body)

    def _keep(self, decoded: bytes) -> None:
        self.body += decoded
        if len(self.body) > self.limit:
            raise MalformedAnswer(f"more than {self.limit >> 20} MiB once decoded")


def _client(language: str, timeout_s: float, api_url: str | None) -> Any:
    """A ``wikipediaapi.Wikipedia`` client that reads its answers as :class:`LiveWikipediaSource` needs: from
    ``api_url``, checked, decoded with limits and stopped at the calling thread's deadline."""
    import httpx
    import wikipediaapi

    class Client(wikipediaapi.Wikipedia):  # type: ignore[misc]  # wikipediaapi ships no types: its class is Any
        @staticmethod
        def _build_url(language: str) -> str:
            return api_url or f"https://{language}.wikipedia.org/w/api.php"

        def _get(self, language: str, params: dict[str, Any]) -> dict[str, Any]:
            try:
                return checked_shape(checked_answer(super()._get(language, params)), params)
            except RecursionError as exc:  # past the JSON parser's limit (about 1,000 deep), or cleaning's
                raise MalformedAnswer("JSON nested too deeply") from exc

        def _do_get(self, url: str, params: dict[str, Any]) -> dict[str, Any]:
            """One request, read as it streams in, decoded and counted (:class:`DecodedBody`), and stopped when the
            calling thread's deadline passes (before the request, or between any two pieces of its answer): a server
            that trickles its answer, or that never stops asking for one more page of results (``continue``), keeps
            no thread past the deadline."""
            deadline = getattr(_CALL, "deadline", float("inf"))
            try:
                if time.monotonic() > deadline:
                    raise DeadlinePassed
                with self._client.stream(
                    "GET", url, params=params, headers={"Accept-Encoding": ACCEPT_ENCODING}
                ) as answer:
                    body = DecodedBody(answer.headers.get("Content-Encoding", ""))
                    for piece in answer.iter_raw():
                        if time.monotonic() > deadline:
                            raise DeadlinePassed
                        body.add(piece)
                    decoded = body.finish()
            except httpx.TimeoutException as exc:
                raise wikipediaapi.WikiHttpTimeoutError(url) from exc
            except httpx.ConnectError as exc:
                raise wikipediaapi.WikiConnectionError(url) from exc
            headers = answer.headers.copy()
            headers.pop("Content-Encoding", None)  # decoded already
            whole = httpx.Response(answer.status_code, headers=headers, content=decoded, request=answer.request)
            processed: dict[str, Any] = self._process_response(whole, url)
            return processed

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

    def _call(self, what: str, fn: Callable[[], T]) -> T:
        """``fn()``, or :class:`WikipediaUnavailable` when it fails or has not returned after ``timeout_s``.

        The call runs in a daemon thread with that deadline: a server that trickles its answer a byte at a time, or
        that never stops answering ``continue``, keeps neither the caller nor, past the deadline, that thread."""
        import wikipediaapi

        values: list[T] = []
        errors: list[BaseException] = []
        deadline = time.monotonic() + self.timeout_s

        def run() -> None:
            _CALL.deadline = deadline
            try:
                values.append(fn())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
                errors.append(exc)

        worker = threading.Thread(target=run, name="wikipedia-call", daemon=True)
        worker.start()
        worker.join(self.timeout_s)
        if worker.is_alive() or any(isinstance(error, DeadlinePassed) for error in errors):
            raise WikipediaUnavailable(
                f"Wikipedia did not answer within {self.timeout_s:g} s when asked to {what}: it is slow or not "
                "answering. The local corpora (embedded, fever-dev, fm2) still work."
            )
        try:
            if errors:
                raise errors[0]
            return values[0]
        except (MalformedAnswer, wikipediaapi.WikiInvalidJsonError, *ANSWER_READING_ERRORS) as exc:
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

        def fetch() -> tuple[str, str, list[str]] | None:
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
            log.warning(
                "The lead of %r from %s has %s characters: only its first %s sentences (up to %s characters) "
                "were kept.",
                real_title,
                self.api_url or "Wikipedia",
                f"{len(lead):,}",
                len(texts),
                f"{MAX_LEAD_CHARS:,}",
            )
        linker = TitleLinker((title_to_page_id(t), t) for t in link_titles)
        links = linker.link_texts(texts, own_page_id=page_id) if texts else []
        sentences = [Sentence(page_id, i, text, lk) for i, (text, lk) in enumerate(zip(texts, links))]
        return Page(page_id, real_title, sentences, source=self.name)
