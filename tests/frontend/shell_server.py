"""The browser tests' ``manage.py``: Django set up once, each command run in a forked child.

``Site.shell`` and ``Site.manage`` ran ``python manage.py ...`` once per call: a new interpreter
importing Django, the apps, numpy and numba each time (1.7 s of CPU on a quiet machine, 3-5 s
on CI's loaded 2 cores), some 80 times a run. This server pays that once per site: it sets
Django up (no database connection, no thread), then for each request forks a child that runs it
exactly as ``manage.py`` would and exits as ``manage.py`` does (its non-daemon threads joined:
the in-process task pool finishes what the command queued), so a command sees nothing of the one
before it.

Protocol, one JSON object a line: the request on stdin is ``{"argv": [...], "timeout": s}``
(``manage.py``'s arguments); the answer on stdout is ``{"rc": int, "out": str, "err": str}``,
the child's stdout and stderr as ``manage.py`` printed them (``rc`` -9: killed at the timeout).

    python -m tests.frontend.shell_server   # in the site's environment (WARBOARD_VAR_DIR, ...)
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import sys
import tempfile
import threading
import time
import traceback


def _run_in_child(argv: list[str], out_fd: int, err_fd: int) -> None:
    """The child's whole life: ``manage.py <argv>`` with its stdout in ``out_fd`` and its
    stderr (the task threads' log lines among them) in ``err_fd``; never returns."""
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    code = 0
    try:
        from django.core.management import execute_from_command_line

        execute_from_command_line(["manage.py", *argv])
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if not isinstance(stop.code, int | None):
            print(stop.code, file=sys.stderr)
    except BaseException:  # the traceback is the answer, as manage.py prints it
        traceback.print_exc()
        code = 1
    try:
        # What the interpreter does at a normal exit: join the non-daemon threads (the in-process
        # task pool registers itself here) and run the atexit hooks.
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _answer(argv: list[str], timeout: float) -> dict[str, object]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:
            _run_in_child(argv, out.fileno(), err.fileno())
        deadline = time.monotonic() + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                rc = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                rc = -9
                break
            time.sleep(0.01)
        out.seek(0)
        err.seek(0)
        return {"rc": rc, "out": out.read().decode("utf-8", "replace"),
                "err": err.read().decode("utf-8", "replace")}  # fmt: skip


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["COMBAT_WARM_UP"] = "false"  # no thread in the parent: a fork copies none
    import django

    django.setup()
    # What the commands use, imported once here rather than in each child.
    import django.core.management.commands.shell

    import games.play.driver
    import games.play.lobby  # noqa: F401
    import risk.ai.odds  # noqa: F401

    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # nothing of ours or a library's reaches the replies by accident
    for line in sys.stdin:
        request = json.loads(line)
        reply = _answer(request["argv"], float(request.get("timeout", 180)))
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


if __name__ == "__main__":
    main()
