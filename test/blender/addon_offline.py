"""Run inside headless Blender by test/blender/addon-offline.test.ts:

    blender -b --factory-startup --python test/blender/addon_offline.py -- <facts.json> <add-on zip> <job> <other temp folder>

Asset Studio is not running (its data folder, ASSET_STUDIO_DATA_DIR, has no link file): installs and enables
the add-on from its zip, refreshes the library and imports the job, which the add-on reads from the data
folder's database and cache; then, with the temp folder switched to one where this user's download folder is
open to others, imports it again (which must be refused). Writes what it finds as JSON.
"""

import json
import sys
import tempfile
import traceback

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
facts_path, zip_path, job_id, other_temp = args[:4]
facts = {"steps": []}


def describe_import(job):
    objects_before = set(bpy.data.objects)
    result = bpy.ops.asset_studio.import_job(job=job)
    objects = [o for o in bpy.data.objects if o not in objects_before]
    meshes = [o for o in objects if o.type == "MESH"]
    return {
        "result": sorted(result),
        "objects": [{"name": o.name, "type": o.type, "job": o.get("asset_studio_job"), "session": o.get("asset_studio_session")} for o in objects],
        "triangles": sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons),
    }


try:
    bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
    bpy.ops.preferences.addon_enable(module="asset_studio")
    facts["steps"].append("enabled")
    for obj in list(bpy.data.objects):  # the factory scene's cube, camera and light
        bpy.data.objects.remove(obj, do_unlink=True)

    wm = bpy.context.window_manager
    facts["refresh"] = sorted(bpy.ops.asset_studio.refresh())
    facts["status"] = wm.asset_studio_status
    facts["listed"] = [{"id": item.job_id, "session": item.session, "state": item.state, "kind": item.kind} for item in wm.asset_studio_jobs]

    facts["imported"] = describe_import(job_id)
    facts["steps"].append("imported")

    tempfile.tempdir = other_temp  # where asset-studio-blender-<uid> is open to other users
    try:
        facts["unsafe"] = {"result": sorted(bpy.ops.asset_studio.import_job(job=job_id))}
    except RuntimeError as error:
        facts["unsafe"] = {"error": str(error)}
    facts["steps"].append("unsafe folder tried")
except Exception:  # noqa: BLE001  (the test prints it)
    facts["error"] = traceback.format_exc()

with open(facts_path, "w", encoding="utf-8") as file:
    json.dump(facts, file, indent=1)
