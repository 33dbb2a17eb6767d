"""make check's Python scripts: the tally of their checks — "ok" / "FAIL" per check, and the
closing "N passed, N failed" line that tests/tally.sh reads (exit 0 only when every check
passed and there was one)."""
import sys

_n = {"passed": 0, "failed": 0}


def check(ok, what, detail=""):
    """Count one check; print it (and the detail of a failure, indented). Returns ok."""
    if ok:
        _n["passed"] += 1
        print("ok   " + what)
    else:
        _n["failed"] += 1
        print("FAIL " + what)
        if detail:
            print("     " + str(detail).replace("\n", "\n     "))
    return ok


def finish():
    """Print the tally and exit with its status."""
    print(f"{_n['passed']} passed, {_n['failed']} failed")
    sys.exit(0 if _n["failed"] == 0 and _n["passed"] > 0 else 1)
