"""What the scripts Blender runs for the tests of this folder share (export_import.py, fbx_skin.py): given
`-- <files.json> <facts.json>`, each {"id": ..., "path": ...} of <files.json> imported into an empty scene and
described, the facts written to <facts.json> as {"blender": version, "files": {id: facts}, "seconds": ...}
after each file (a crash still leaves the others); a file whose import or description fails has {"error": ...}.
"""

import json
import sys
import time
import traceback

import bpy


def numpy_compat():
    """Blender 3.4's glTF importer uses numpy.bool, removed from NumPy 1.24 to 1.26: restore it as numpy.bool_."""
    try:
        import numpy
    except ImportError:
        return
    if "bool" not in vars(numpy):  # not hasattr: NumPy 1.24 warns on every look-up of the old alias
        numpy.bool = numpy.bool_


def run(describe_file):
    """Imports and describes every file of <files.json> with describe_file(path) -> facts (a dict)."""
    args = sys.argv[sys.argv.index("--") + 1:]
    files_path, facts_path = args[:2]
    numpy_compat()
    with open(files_path, encoding="utf-8") as file:
        files = json.load(file)
    facts = {"blender": bpy.app.version_string, "files": {}}
    started = time.monotonic()
    for entry in files:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        numpy_compat()
        try:
            fact = describe_file(entry["path"])
        except Exception:  # noqa: BLE001  (the test reports it per file)
            fact = {"error": traceback.format_exc(limit=3)}
        facts["files"][entry["id"]] = fact
        facts["seconds"] = round(time.monotonic() - started, 1)
        with open(facts_path, "w", encoding="utf-8") as file:  # after each file: a crash still leaves the others
            json.dump(facts, file, indent=1)
