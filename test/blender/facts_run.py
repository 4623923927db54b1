"""What the scripts Blender runs for the tests of this folder share (export_import.py, fbx_skin.py): given
`-- <files.json> <facts.json>`, each {"id": ..., "path": ...} of <files.json> imported into an empty scene and
described, the facts written to <facts.json> as {"blender": version, "files": {id: facts}, "seconds": ...}
after each file (a crash still leaves the others); a file whose import or description fails has {"error": ...}.
"""

import json
import os
import sys
import time
import traceback

import bpy

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "integrations", "blender"))
from asset_studio.operators import numpy_compat  # noqa: E402  (the add-on's, for Blender 3.4's glTF importer)


def run(describe_file):
    """Imports and describes every file of <files.json> with describe_file(path) -> facts (a dict)."""
    args = sys.argv[sys.argv.index("--") + 1:]
    files_path, facts_path = args[:2]
    with open(files_path, encoding="utf-8") as file:
        files = json.load(file)
    facts = {"blender": bpy.app.version_string, "files": {}}
    started = time.monotonic()
    for entry in files:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        numpy_compat()  # before each file's import (its glTF importer needs numpy.bool)
        try:
            fact = describe_file(entry["path"])
        except Exception:  # noqa: BLE001  (the test reports it per file)
            fact = {"error": traceback.format_exc(limit=3)}
        facts["files"][entry["id"]] = fact
        facts["seconds"] = round(time.monotonic() - started, 1)
        with open(facts_path, "w", encoding="utf-8") as file:  # after each file: a crash still leaves the others
            json.dump(facts, file, indent=1)
