"""Run inside headless Blender by test/blender/animation-fbx.test.ts:

    blender -b --factory-startup --python test/blender/fbx_skin.py -- <files.json> <facts.json>

<files.json> is a list of {"id": ..., "path": ...}: FBX (or GLB) files of an animated character. Each is imported
into an empty scene with Blender's importer and its default options (File > Import), and what Blender makes
of it is written to <facts.json> as {"files": {id: facts}}: armatures and their bones, meshes, triangles, how
each mesh is skinned (its Armature modifiers and the object they use, its vertex groups and how many vertices
have a weight), the actions (one per take), the meshes' height in metres in the rest pose, and for each action
how far the armature's bones move over it (so a take that moves nothing is seen).
"""

import os
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ left in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # facts_run.py beside this script
from facts_run import run  # noqa: E402


def describe():
    bpy.context.view_layer.update()
    objects = list(bpy.context.scene.objects)
    meshes = [o for o in objects if o.type == "MESH"]
    armatures = [o for o in objects if o.type == "ARMATURE"]
    corners = [o.matrix_world @ v.co for o in meshes for v in o.data.vertices]
    height = max(c.z for c in corners) - min(c.z for c in corners) if corners else 0
    skins = []
    for o in meshes:
        modifiers = [m for m in o.modifiers if m.type == "ARMATURE"]
        weighted = sum(1 for v in o.data.vertices if any(g.weight > 0 for g in v.groups))
        skins.append({
            "mesh": o.name,
            "armature_modifiers": len(modifiers),
            "modifier_objects": [m.object.name if m.object else None for m in modifiers],
            "vertex_groups": len(o.vertex_groups),
            "vertices": len(o.data.vertices),
            "weighted_vertices": weighted,
        })
    motion = {}
    for arm in armatures:
        for action in bpy.data.actions:
            if arm.animation_data is None:
                arm.animation_data_create()
            arm.animation_data.action = action
            start, end = action.frame_range
            heads = []
            for frame in (start, (start + end) / 2, start + (end - start) / 4):
                bpy.context.scene.frame_set(int(round(frame)))
                bpy.context.view_layer.update()
                heads.append([tuple(arm.matrix_world @ b.head) for b in arm.pose.bones])
            moved = max(
                max(sum((a[i] - b[i]) ** 2 for i in range(3)) ** 0.5 for a, b in zip(heads[0], other))
                for other in heads[1:]
            ) if arm.pose.bones else 0
            motion[action.name] = {"moved": moved, "frames": [start, end]}
    return {
        "armatures": len(armatures),
        "bones": sum(len(a.data.bones) for a in armatures),
        "meshes": len(meshes),
        "triangles": sum(len(p.vertices) - 2 for o in meshes for p in o.data.polygons),
        "skins": skins,
        "actions": sorted(a.name for a in bpy.data.actions),
        "height": height,
        "motion": motion,
    }


def import_and_describe(path):
    if path.lower().endswith(".glb"):
        bpy.ops.import_scene.gltf(filepath=path)
    else:
        bpy.ops.import_scene.fbx(filepath=path)
    return describe()


run(import_and_describe)
