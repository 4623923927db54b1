"""Run inside headless Blender by test/blender/rigging-fbx.test.ts:

    blender -b --factory-startup --python test/blender/rigged_legs.py -- <files.json> <facts.json>

Each FBX of <files.json> (a character the local engine rigged, with one take) is imported with Blender's importer
and its default options, and described: armatures and bones, each mesh's Armature modifiers and how many of its
vertices have a weight, the actions, the height in the rest pose, and for each action how far each leg bone's
head moves (metres, the largest distance from its place at the action's first frame over the action).
"""

import os
import sys

import bpy

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from facts_run import run  # noqa: E402

LEGS = ("LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot")


def describe(path):
    bpy.ops.import_scene.fbx(filepath=path)
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    skins = []
    low, high = float("inf"), float("-inf")
    for o in meshes:
        modifiers = [m for m in o.modifiers if m.type == "ARMATURE"]
        weighted = sum(1 for v in o.data.vertices if any(g.weight > 0 for g in v.groups))
        skins.append({
            "armature_modifiers": len(modifiers),
            "vertices": len(o.data.vertices),
            "weighted_vertices": weighted,
        })
        for v in o.data.vertices:
            z = (o.matrix_world @ v.co).z
            low, high = min(low, z), max(high, z)
    legs = {}
    for arm in armatures:
        for action in bpy.data.actions:
            if arm.animation_data is None:
                arm.animation_data_create()
            arm.animation_data.action = action
            start, end = (int(round(f)) for f in action.frame_range)
            bones = [b for b in arm.pose.bones if b.name.split(":")[-1] in LEGS]
            bpy.context.scene.frame_set(start)
            bpy.context.view_layer.update()
            first = {b.name: (arm.matrix_world @ b.head).copy() for b in bones}
            moved = {b.name.split(":")[-1]: 0.0 for b in bones}
            for frame in range(start, end + 1, max(1, (end - start) // 12)):
                bpy.context.scene.frame_set(frame)
                bpy.context.view_layer.update()
                for b in bones:
                    name = b.name.split(":")[-1]
                    moved[name] = max(moved[name], ((arm.matrix_world @ b.head) - first[b.name]).length)
            legs[action.name] = moved
    return {
        "armatures": len(armatures),
        "bones": sorted(b.name for a in armatures for b in a.data.bones),
        "skins": skins,
        "actions": sorted(a.name for a in bpy.data.actions),
        "height": high - low if meshes else 0,
        "legs": legs,
    }


run(describe)
