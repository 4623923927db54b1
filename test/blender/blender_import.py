"""Run inside headless Blender by test/blender/blender-import.test.ts:

    blender -b --factory-startup --python test/blender/blender_import.py -- <facts.json> <add-on zip> <model job> <animation job> <retopology job> <prompts job>

Installs and enables the add-on from its zip (as a user does from Preferences > Add-ons > Install), imports
the jobs with ``bpy.ops.asset_studio.import_job`` at a 3D cursor away from the origin (the model with its pivot
at the bottom centre, the default, and with its own origin; the model again, and
the retopology's OBJ, in a scene measured in centimetres; the animated character with every clip, then with
the default clips: the prompts'), asks for a job that does not exist, sends the
animated import back as an animation upload and the model for retopology, and writes what it finds as JSON.
The running app is found by the add-on through ASSET_STUDIO_DATA_DIR, set by the test.
"""

import json
import sys
import traceback

import bpy
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:]
facts_path, zip_path, model_job, animation_job, retopology_job, prompts_job = args[:6]
facts = {"steps": []}


def world_bounds(objects):
    corners = [obj.matrix_world @ Vector(corner) for obj in objects if obj.type == "MESH" for corner in obj.bound_box]
    if not corners:
        return None
    return {"min": [min(c[i] for c in corners) for i in range(3)], "max": [max(c[i] for c in corners) for i in range(3)]}


def describe_import(job, **options):
    objects_before = set(bpy.data.objects)
    actions_before = set(bpy.data.actions)
    result = bpy.ops.asset_studio.import_job(job=job, **options)
    objects = [o for o in bpy.data.objects if o not in objects_before]
    actions = [a for a in bpy.data.actions if a not in actions_before]
    meshes = [o for o in objects if o.type == "MESH"]
    images = set()
    for obj in meshes:
        for slot in obj.material_slots:
            if slot.material is not None and slot.material.node_tree is not None:
                for node in slot.material.node_tree.nodes:
                    if node.type == "TEX_IMAGE" and node.image is not None:
                        images.add(node.image)
    members = set(objects)
    return {
        "result": sorted(result),
        "objects": [{"name": o.name, "type": o.type, "job": o.get("asset_studio_job"), "session": o.get("asset_studio_session")} for o in objects],
        "roots": [{"name": o.name, "location": list(o.location)} for o in objects if o.parent not in members],
        "triangles": sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons),
        "images": sorted([{"name": i.name, "size": list(i.size), "packed": i.packed_file is not None} for i in images], key=lambda i: i["name"]),
        "actions": sorted(a.name for a in actions),
        "actions_kept": all(a.use_fake_user for a in actions),
        "bounds": world_bounds(objects),
    }


try:
    bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
    bpy.ops.preferences.addon_enable(module="asset_studio")
    import asset_studio

    facts["addon"] = {"name": asset_studio.bl_info["name"], "blender": list(asset_studio.bl_info["blender"]), "file": asset_studio.__file__}
    facts["steps"].append("enabled")

    for obj in list(bpy.data.objects):  # the factory scene's cube, camera and light
        bpy.data.objects.remove(obj, do_unlink=True)
    bpy.context.scene.cursor.location = (2.0, 0.0, 0.0)

    facts["model"] = describe_import(model_job)  # the default: the pivot at the bottom centre
    facts["steps"].append("model imported")
    bpy.context.scene.cursor.location = (6.0, 0.0, 0.0)
    facts["model_as_is"] = describe_import(model_job, pivot="AS_IS")  # the file's own origin, as asked
    bpy.context.scene.cursor.location = (-2.0, 0.0, 0.0)
    facts["animation"] = describe_import(animation_job, clips="ALL")  # the library's clips too, as asked
    facts["steps"].append("animation imported")
    bpy.context.scene.cursor.location = (-4.0, 0.0, 0.0)
    facts["prompts"] = describe_import(prompts_job)  # the default: the prompts' clips
    facts["steps"].append("prompts imported")
    # A scene in centimetres (1 unit = 1 cm): the model keeps its size in metres.
    bpy.context.scene.unit_settings.scale_length = 0.01
    bpy.context.scene.cursor.location = (0.0, 300.0, 0.0)
    facts["centimetres"] = describe_import(model_job)
    bpy.context.scene.cursor.location = (0.0, -300.0, 0.0)
    facts["retopology"] = describe_import(retopology_job)
    bpy.context.scene.unit_settings.scale_length = 1.0

    try:
        bpy.ops.asset_studio.import_job(job="SESSION_not_a_job_here")
        facts["missing"] = "no error"
    except RuntimeError as error:
        facts["missing"] = str(error)

    animated = [bpy.data.objects[o["name"]] for o in facts["animation"]["objects"] if o["type"] == "MESH"]
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj in animated)
    bpy.context.view_layer.objects.active = animated[0]
    facts["sent"] = sorted(bpy.ops.asset_studio.send_selected(target="ANIMATION"))
    followed = bpy.context.window_manager.asset_studio_followed
    facts["followed"] = {"job": followed[0].job_id, "label": followed[0].label, "kind": followed[0].kind} if len(followed) else None
    model = bpy.data.objects[facts["model"]["roots"][0]["name"]]
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj == model)
    bpy.context.view_layer.objects.active = model
    facts["retopology_sent"] = sorted(bpy.ops.asset_studio.send_selected(target="RETOPOLOGY"))
    facts["retopology_followed"] = {"job": followed[0].job_id, "kind": followed[0].kind} if len(followed) else None
    facts["steps"].append("sent")

    import addon_utils

    problems = []
    addon_utils.disable("asset_studio", default_set=True, handle_error=lambda error: problems.append(repr(error)))
    facts["disabled"] = {"errors": problems, "properties_left": [n for n in dir(bpy.types.WindowManager) if n.startswith("asset_studio")]}
except Exception:  # noqa: BLE001  (the test prints it)
    facts["error"] = traceback.format_exc()

with open(facts_path, "w", encoding="utf-8") as file:
    json.dump(facts, file, indent=1)
