"""Simulate decision variants offline on the scored rows."""
import sys, os
sys.path.insert(0, os.getcwd())
from harness import checker, score, save_memos
from collections import Counter, defaultdict
import pickle
c = checker()
ALL = {}
for name in sys.argv[1:]:
    ALL[name] = score(c, name)
pickle.dump({k: [(kind, gold, pred, v.to_dict(), claim, [e.to_dict() for e in ev]) for kind, gold, pred, v, claim, ev in rows] for k, rows in ALL.items()}, open(f"/work/runs/exp/rows-{os.path.basename(os.getcwd())}{os.environ.get('SURE', '')}.pkl", "wb"))
save_memos(c)
