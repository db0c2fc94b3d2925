"""What one harness process writes for the grader: its results file (--json), and maybe a
sanitizer's report (--log-file) and a pictures folder (--images). Without a sandbox the process
writes them where the grader keeps them, in the report folder; with one (sandbox.py: the grader
runs as root) it writes them into a fresh folder of the sandbox's, and the grader copies them
into the report folder once every process of the sandbox's user is gone (Outputs.collect).
read_results reads the results file the grader then holds.
"""
from __future__ import annotations

import json
import os
from typing import Optional

from .sandbox import Sandbox


def read_results(path: str) -> (Optional[dict], str):
    if not os.path.exists(path):
        return None, "no results file"
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f), ""
    except (OSError, ValueError) as e:
        return None, f"unreadable results file: {e}"


class Outputs:
    """The files one process writes for the grader: its results file (--json), and maybe a
    sanitizer's report (--log-file) and a pictures folder (--images). `json`, `report`, `images`
    are where the grader keeps them (the report folder); the process is told to write them at
    `json_arg`, `report_arg`, `images_arg`: the same paths, or, with a sandbox, a fresh folder
    of the sandbox's, copied back by collect() once every process of its user is gone."""

    def __init__(self, sandbox: Optional[Sandbox], json: str, report: Optional[str] = None,
                 images: Optional[str] = None):
        self.sandbox, self.json, self.report, self.images = sandbox, json, report, images
        for path in (json, report):
            if path and os.path.lexists(path):
                os.remove(path)  # never read an earlier run's file
        if sandbox is None:
            self.json_arg, self.report_arg, self.images_arg = json, report, images
            return
        run = sandbox.new_run_folder(images=images is not None)
        self.json_arg = os.path.join(run, "results.json")
        self.report_arg = os.path.join(run, "sanitizer.log") if report else None
        self.images_arg = os.path.join(run, "images") if images is not None else None

    def collect(self, log_path: str) -> None:
        """Copies what the process left into the report folder (regular files only, never through
        a link, at most safe_copy.MAX_COPIED_BYTES each); what is left out is noted in its log."""
        if self.sandbox is None:
            return
        left_out = []
        for staged, final in ((self.json_arg, self.json), (self.report_arg, self.report)):
            if staged:
                why = self.sandbox.collect_file(staged, final)
                if why not in (None, "missing"):
                    left_out.append(f"{os.path.basename(final)}: {why}")
        if self.images_arg:
            left_out += self.sandbox.collect_folder(self.images_arg, self.images)
        if left_out:
            with open(log_path, "a", encoding="utf-8") as log:
                for line in left_out:
                    log.write(f"[grader] not taken from the sandbox: {line}\n")

