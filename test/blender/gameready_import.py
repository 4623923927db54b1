"""Run inside headless Blender by test/blender/gameready.test.ts:

    blender -b --factory-startup --python test/blender/gameready_import.py -- <files.json> <facts.json>

<files.json> is a list of {"id": ..., "path": ...}. A model (FBX or GLB) is imported into an empty scene with
Blender's importer and its default options, and described: its mesh objects (name, triangles, parent), the empties
(a LOD group node), every image (size), each material's maps (the base colour, normal map and metallic images
wired into its Principled BSDF) and the box of the meshes in metres. An entry with "clips": [paths] is a Unity
character: the model imported, then each `<Model>@<clip>.fbx` imported into the same scene; the facts say which
armature each action's channels name bones of, and whether every clip's bones are the model armature's.
"""

import os
import sys

import bpy

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from facts_run import run  # noqa: E402


def linked_image(socket):
    """The image of the Image Texture node feeding `socket`, through a Normal Map node or a Separate RGB."""
    for link in socket.links:
        node = link.from_node
        if node.type == "TEX_IMAGE" and node.image:
            return node.image.name
        for inp in node.inputs:
            found = linked_image(inp)
            if found:
                return found
    return None


def material_maps(material):
    if not material or not material.use_nodes:
        return {}
    bsdf = next((n for n in material.node_tree.nodes if n.type == "BSDF_PRINCIPLED"), None)
    if bsdf is None:
        return {}
    normal_socket = bsdf.inputs["Normal"]
    normal_node = next((link.from_node.type for link in normal_socket.links), None)
    return {
        "base_color": linked_image(bsdf.inputs["Base Color"]),
        "normal": linked_image(normal_socket),
        "normal_node": normal_node,
        "metallic": linked_image(bsdf.inputs["Metallic"]),
    }


def describe_scene():
    bpy.context.view_layer.update()
    objects = list(bpy.context.scene.objects)
    meshes = [o for o in objects if o.type == "MESH"]
    corners = [o.matrix_world @ v.co for o in meshes for v in o.data.vertices]
    box = None
    if corners:
        box = {
            "min": [min(c[i] for c in corners) for i in range(3)],
            "max": [max(c[i] for c in corners) for i in range(3)],
        }
    return {
        "meshes": [
            {
                "name": o.name,
                "triangles": sum(len(p.vertices) - 2 for p in o.data.polygons),
                "parent": o.parent.name if o.parent else None,
                "maps": [material_maps(m) for m in o.data.materials],
            }
            for o in sorted(meshes, key=lambda o: o.name)
        ],
        "empties": [{"name": o.name, "children": sorted(c.name for c in o.children)} for o in objects if o.type == "EMPTY"],
        "images": {i.name: list(i.size) for i in bpy.data.images if i.size[0] > 0},
        "box": box,
    }


def import_file(path):
    if path.lower().endswith((".glb", ".gltf")):
        bpy.ops.import_scene.gltf(filepath=path)
    else:
        bpy.ops.import_scene.fbx(filepath=path)


def bones_of_action(action):
    names = set()
    for curve in action.fcurves:
        path = curve.data_path
        if path.startswith('pose.bones["'):
            names.add(path[len('pose.bones["'):path.index('"]')])
    return names


def describe_character(model, clips):
    import_file(model)
    armatures = [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]
    rig = armatures[0]
    rig_bones = {b.name for b in rig.data.bones}
    before = {o.name for o in bpy.context.scene.objects}
    actions_before = {a.name for a in bpy.data.actions}
    clip_facts = []
    for clip in clips:
        import_file(clip)
        new_actions = [a for a in bpy.data.actions if a.name not in actions_before]
        actions_before |= {a.name for a in new_actions}
        new_meshes = [o for o in bpy.context.scene.objects if o.name not in before and o.type == "MESH"]
        before = {o.name for o in bpy.context.scene.objects}
        for action in new_actions:
            bones = bones_of_action(action)
            # The action played on the model's own armature: its bones move.
            if rig.animation_data is None:
                rig.animation_data_create()
            rig.animation_data.action = action
            start, end = action.frame_range
            bpy.context.scene.frame_set(int(start))
            bpy.context.view_layer.update()
            first = [tuple(rig.matrix_world @ b.head) for b in rig.pose.bones]
            bpy.context.scene.frame_set(int((start + end) / 2))
            bpy.context.view_layer.update()
            mid = [tuple(rig.matrix_world @ b.head) for b in rig.pose.bones]
            moved = max(sum((a[i] - b[i]) ** 2 for i in range(3)) ** 0.5 for a, b in zip(first, mid))
            clip_facts.append({
                "file": os.path.basename(clip),
                "action": action.name,
                "bones": len(bones),
                "unknown_bones": sorted(bones - rig_bones),
                "moved_on_model_rig": moved,
            })
        clip_facts.append({"file": os.path.basename(clip), "meshes_added": len(new_meshes)})
    model_meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    return {
        "rig": rig.name,
        "rig_bones": len(rig_bones),
        "model_meshes": len({o.data.name for o in model_meshes}),
        "clips": clip_facts,
    }


def describe(entry_path):
    if entry_path.endswith(".json"):
        import json

        with open(entry_path, encoding="utf-8") as file:
            character = json.load(file)
        return describe_character(character["model"], character["clips"])
    import_file(entry_path)
    return describe_scene()


run(describe)
