"""Simulate decision variants offline on the scored rows."""

import os
import sys

sys.path.insert(0, os.getcwd())
import pickle
from pathlib import Path

from harness import checker, save_memos, score

c = checker()
ALL = {}
for name in sys.argv[1:]:
    ALL[name] = score(c, name)
rows_file = Path(f"/work/runs/exp/rows-{os.path.basename(os.getcwd())}{os.environ.get('SURE', '')}.pkl")
rows_file.write_bytes(
    pickle.dumps(
        {
            k: [
                (kind, gold, pred, v.to_dict(), claim, [e.to_dict() for e in ev])
                for kind, gold, pred, v, claim, ev in rows
            ]
            for k, rows in ALL.items()
        }
    )
)
save_memos(c)
