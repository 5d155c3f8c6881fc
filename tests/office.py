"""LibreOffice for the tests: Debian's Writer without its GUI (``scripts/test.sh`` installs
``libreoffice-writer-nogui``), run headless from one user profile per test session.

A profile's first start is LibreOffice's slowest (it writes its registry, its fonts' cache and its
Basic library): made once per pytest session (each xdist worker has its own, so that two
LibreOffices never share one), with :data:`RESOLVE` in it, and then every test's LibreOffice starts
warm.  The conftest's ``office`` fixture gives it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

# A Basic macro (LibreOffice runs it headless from the session's profile):
# open a document, accept or reject every tracked change, save it as .docx.
RESOLVE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">
Sub Resolve(src As String, dst As String, what As String)
  Dim args(0) As New com.sun.star.beans.PropertyValue
  args(0).Name = &quot;Hidden&quot;
  args(0).Value = True
  doc = StarDesktop.loadComponentFromURL(ConvertToURL(src), &quot;_blank&quot;, 0, args())
  disp = createUnoService(&quot;com.sun.star.frame.DispatchHelper&quot;)
  disp.executeDispatch(doc.getCurrentController().getFrame(), &quot;.uno:&quot; &amp; what, &quot;&quot;, 0, Array())
  Dim out(0) As New com.sun.star.beans.PropertyValue
  out(0).Name = &quot;FilterName&quot;
  out(0).Value = &quot;MS Word 2007 XML&quot;
  doc.storeToURL(ConvertToURL(dst), out())
  doc.close(True)
End Sub
</script:module>
"""


def soffice() -> str:
    """LibreOffice's command, or the test skipped (failed on CI, which must run it)."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail("CI must run the LibreOffice tests (scripts/test.sh installs libreoffice-writer-nogui)")
        pytest.skip("LibreOffice is not installed")
    return found


@dataclass(frozen=True)
class Office:
    """A headless LibreOffice and its warm profile."""

    command: str
    profile: Path

    def run(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        """``soffice --headless ARGS`` from the session's profile, its output kept."""
        return subprocess.run(
            [self.command, f"-env:UserInstallation={self.profile.as_uri()}", "--headless", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def resolve(self, source: Path, out: Path, command: str) -> None:
        """LibreOffice's own Accept all (``AcceptAllTrackedChanges``) or Reject all of ``source``,
        saved as .docx at ``out``."""
        self.run(f'macro:///Standard.Module1.Resolve("{source}","{out}","{command}")')


def start(profile: Path) -> Office:
    """LibreOffice with a new profile at ``profile``, started once to make it, with :data:`RESOLVE`."""
    office = Office(soffice(), profile)
    office.run("--terminate_after_init")
    (profile / "user" / "basic" / "Standard" / "Module1.xba").write_text(RESOLVE, encoding="utf-8")
    return office
