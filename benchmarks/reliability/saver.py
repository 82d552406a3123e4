"""The child process of probes 2 and 3: saves annotations to one database in a loop.

    python -m benchmarks.reliability.saver DB ANNOTATOR SECONDS

Prints ``ready`` once the database is open, then after each :meth:`AnnotationStore.save` returns ``saved ID``, or
``error Type: message`` when a save raises (and goes on); each line is flushed at once. Stops after ``SECONDS``
(``inf``: when killed).
"""

from __future__ import annotations

import sys
import time

from fever_core.workbench.annotation import AnnotationStore


def main(db: str, annotator: str, seconds: float) -> None:
    store = AnnotationStore(db)
    print("ready", flush=True)
    deadline = time.monotonic() + seconds
    number = 0
    while time.monotonic() < deadline:
        number += 1
        try:
            item = store.add_claim(f"{annotator} claim {number}")
            annotation = store.save(item, "SUPPORTS", [[("Marie_Curie", number)]], annotator)
            print(f"saved {annotation}", flush=True)
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which counts lock errors
            print(f"error {type(exc).__name__}: {exc}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]))
