"""HTML to PDF through Debian's Chromium, headless (the page's print CSS decides paper and breaks).

Chromium is found as `$TILEREF_CHROMIUM`, else `chromium` or `chromium-browser` on the PATH. Each
print runs in a profile folder of its own, so prints side by side never share a lock.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .errors import ChromiumFailedError, ChromiumMissingError, PrintTargetError

CANDIDATES = ("chromium", "chromium-browser")
TIMEOUT_S = 120
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
    "--disable-dev-shm-usage", "--no-pdf-header-footer",
)


def find_chromium() -> str:
    named = os.environ.get("TILEREF_CHROMIUM")
    if named:
        found = shutil.which(named)
        if found is None:
            raise ChromiumMissingError(f"TILEREF_CHROMIUM={named!r} is not an executable; "
                                       "a PDF needs Chromium (Debian: apt-get install chromium), or write .html")
        return found
    for name in CANDIDATES:
        found = shutil.which(name)
        if found is not None:
            return found
    raise ChromiumMissingError("a PDF needs Chromium and none is installed (Debian: apt-get install chromium); "
                               "write the printable as .html instead")


def html_to_pdf(html: str, out: str | Path) -> Path:
    """Print one self-contained HTML page (no outside file, no script) to `out`."""
    chromium = find_chromium()
    out = Path(out).resolve()
    with tempfile.TemporaryDirectory(prefix="tileref-print-") as folder:
        page = Path(folder) / "page.html"
        page.write_text(html, encoding="utf-8")
        written = Path(folder) / "page.pdf"
        command = [chromium, *FLAGS, f"--user-data-dir={Path(folder) / 'profile'}",
                   f"--print-to-pdf={written}", page.as_uri()]
        try:
            done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            raise ChromiumFailedError(f"{chromium} did not print {out.name} within {TIMEOUT_S} s") from None
        except OSError as error:
            raise ChromiumMissingError(f"cannot run {chromium}: {error.strerror}") from None
        if not written.is_file() or written.stat().st_size == 0:
            said = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
            raise ChromiumFailedError(f"{chromium} wrote no PDF (exit {done.returncode})"
                                      + (f": {said[-1].strip()}" if said else ""))
        try:
            shutil.move(str(written), out)
        except OSError as error:
            raise PrintTargetError(f"cannot write {str(out)!r}: {error.strerror}") from None
    return out
